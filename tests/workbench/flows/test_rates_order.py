"""The same calendar gives the same requests whatever the order of its rows, sheets and files."""

from __future__ import annotations

import csv
import datetime as dt
import random
import re
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from openpyxl import Workbook

from workbench.flows.rates import check_rates, dry_run

AS_OF = dt.date(2026, 12, 1)
HEADER = ["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "AmountAfterTax", "CurrencyCode"]
STAMP = re.compile(rb'TimeStamp="[^"]*"')

cells = st.dictionaries(st.tuples(st.sampled_from([1001, 1002]), st.sampled_from(["DBL", "SGL"]),
                                  st.sampled_from(["BAR", "NR"]), st.integers(0, 75)),
                        st.sampled_from(["100", "120", "150.5"]), min_size=1, max_size=150)


def _rows(cal: dict) -> list[list[object]]:
    return [[h, room, rate, (dt.date(2027, 1, 1) + dt.timedelta(days=d)).isoformat(), price, "EUR"]
            for (h, room, rate, d), price in cal.items()]


def _csv(path: Path, rows: list[list[object]]) -> Path:
    with open(path, "w", newline="") as fh:
        csv.writer(fh).writerows([HEADER, *rows])
    return path


def _xlsx(path: Path, sheets: dict[str, list[list[object]]]) -> Path:
    wb = Workbook()
    wb.remove(wb.active)
    for title, rows in sheets.items():
        ws = wb.create_sheet(title)
        for row in [HEADER, *rows]:
            ws.append(row)
    wb.save(path)
    return path


def _requests(files: list[Path], out: Path) -> tuple[dict[str, bytes], list[tuple]]:
    run = dry_run(check_rates(files, as_of=AS_OF), out, skip_invalid=True)
    bodies = {p.name: STAMP.sub(b'TimeStamp=""', p.read_bytes()) for p in sorted(out.glob("*.xml"))}
    return bodies, sorted(run.manifest[["file", "messages", "cells"]].itertuples(index=False))


@settings(max_examples=12, deadline=None)
@given(cells, st.randoms(use_true_random=False))
def test_rows_sheets_and_files_in_any_order_give_the_same_requests(cal: dict, rnd: random.Random) -> None:
    rows = sorted(_rows(cal))
    shuffled = rows[:]
    rnd.shuffle(shuffled)
    a, b, c = shuffled[: len(rows) // 3], shuffled[len(rows) // 3: 2 * len(rows) // 3], shuffled[2 * len(rows) // 3:]
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        one = _requests([_csv(d / "all.csv", rows)], d / "one")
        split = _requests([_csv(d / "rest.csv", c), _xlsx(d / "parts.xlsx", {"Later": b, "Earlier": a})], d / "split")
    assert one == split
