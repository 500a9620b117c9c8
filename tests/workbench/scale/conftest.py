"""A 2-process LocalCluster (one thread each) shared by the engine's tests, and random small rates."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

AS_OF = dt.date(2026, 12, 1)
COLUMNS = ["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "AmountAfterTax", "CurrencyCode"]


@pytest.fixture(scope="session")
def client() -> Iterator[object]:
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster, \
            Client(cluster) as c:
        yield c


def random_rates(seed: int, hotels: int = 7, nights: int = 75, first: int = 0) -> pd.DataFrame:
    """A long-layout table in shuffled row order: a few prices repeated over weeks (so messages
    compress), hotels ``first``.. (counted in steps of 37 from 1,000,000), two rooms and two rate plans per hotel, and planted problems: a negative price, an
    unknown currency, a repeated cell and a price that is not a number.

    Every price belongs to one hotel: on main, the compressor breaks ties between equally common
    prices by their first appearance in the whole input, which a partition cannot see (issue 14's
    canonical order, on its way, removes that); with no price shared by two hotels the order is the
    same either way, so the XML can be compared byte for byte."""
    rng = np.random.default_rng(seed)
    rows = []
    for h in range(hotels):
        hotel = 1_000_000 + 37 * (first + h)
        currency = "EUR" if h % 3 else "GBP"
        for room in (401, 402):
            for plan in (8001, 8002):
                base = rng.choice([9900, 12000, 15050, 18000]) + first + h  # prices of one hotel only
                weekend = rng.choice([0, 2000, 3500])
                for d in range(nights):
                    day = AS_OF + dt.timedelta(days=d)
                    cents = base + (weekend if day.weekday() >= 4 else 0) + (1000 if day.month == 1 else 0)
                    if rng.random() < 0.04:
                        cents = rng.choice([9900, 12000, 15050]) + first + h
                    rows.append([hotel, room, plan, day.isoformat(), f"{cents / 100:.2f}", currency])
    frame = pd.DataFrame(rows, columns=COLUMNS)
    frame = frame.iloc[rng.permutation(len(frame))].reset_index(drop=True)
    frame.loc[3, "AmountAfterTax"] = "-15.00"
    frame.loc[10, "CurrencyCode"] = "XXX"
    frame.loc[17, "AmountAfterTax"] = "12O.50"
    repeat = frame.iloc[[25]].assign(AmountAfterTax="99.00")
    return pd.concat([frame, repeat], ignore_index=True)


def without_timestamp(body: bytes) -> bytes:
    return re.sub(rb'TimeStamp="[^"]*"', b"", body)


def same_requests(a: Path, b: Path, files: list[str]) -> None:
    """Both folders hold ``files`` with the same bytes apart from ``TimeStamp``, and no other XML."""
    assert sorted(p.name for p in a.glob("*.xml")) == sorted(files) == sorted(p.name for p in b.glob("*.xml"))
    for name in files:
        assert without_timestamp((a / name).read_bytes()) == without_timestamp((b / name).read_bytes()), name
