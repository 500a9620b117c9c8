"""The journal's accepted cells, read fast and without writing: what a plan compares a sheet with.

:meth:`Journal.accepted <workbench.writers.journal.Journal.accepted>` reads one Python row per cell
(seconds for a million cells); this reads one row per room-rate, each with its nights, guest counts
and price keys concatenated, and cuts them up with numpy. The file is opened read-only: a plan never
creates or changes a journal (a journal that does not exist holds no accepted price).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from pathlib import Path

import numpy as np
import pandas as pd

from workbench.writers.journal import HOTELS_SQL, journal_problem

ACCEPTED_COLUMNS = {"hotel_code": "int64", "inv_type_code": "category", "rate_plan_code": "category",
                    "date": "datetime64[s]", "guests": "int64", "price": "category"}
#: one row per room-rate: its cells' nights (10 characters each, no separator), guests (comma-separated)
#: and price keys (which never hold ``|``: ``AfterTax:15900e-2:2:EUR``); the three lists are built row by
#: row together, so they stay aligned whatever order SQLite reads the cells in
_SQL = ("SELECT hotel_code, inv_type_code, rate_plan_code, count(*), group_concat(date, ''), "
        "group_concat(guests, ','), group_concat(price, '|') FROM accepted WHERE target = ?{where} "
        "GROUP BY hotel_code, inv_type_code, rate_plan_code")


def empty_accepted() -> pd.DataFrame:
    return pd.DataFrame({c: pd.Series(dtype=t) for c, t in ACCEPTED_COLUMNS.items()})


def journal_targets(path: str | Path) -> list[str]:
    """The targets with accepted prices in the journal at ``path`` (none when it does not exist)."""
    if not Path(path).is_file():
        return []
    with closing(_connect(path)) as db:
        if not _has_accepted(db):
            return []
        return [t for (t,) in db.execute("SELECT DISTINCT target FROM accepted ORDER BY target")]


def journal_mark(path: str | Path) -> int:
    """The journal's last request id (0: none, or no journal): a plan made at one mark still holds at the
    same mark, as every push records its requests before anything is accepted."""
    if not Path(path).is_file():
        return 0
    with closing(_connect(path)) as db:
        if db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='requests'").fetchone() is None:
            return 0
        return int(db.execute("SELECT COALESCE(MAX(request_id), 0) FROM requests").fetchone()[0])


def read_accepted(path: str | Path, target: str, hotels: Iterable[int] | None = None, workers: int = 2) -> pd.DataFrame:
    """Every accepted cell of ``target`` (optionally only these properties): ``hotel_code,
    inv_type_code, rate_plan_code, date, guests, price`` (``price``: the journal's price key).
    The properties are read in ``workers`` contiguous shares at once, each on its own read-only
    connection (SQLite releases the GIL while it works)."""
    if not Path(path).is_file():
        return empty_accepted()
    with closing(_connect(path)) as db:
        if not _has_accepted(db):
            return empty_accepted()
        wanted = sorted({int(h) for h in hotels}) if hotels is not None else [
            int(h) for (h,) in db.execute(HOTELS_SQL, {"t": target})]
    if not wanted:
        return empty_accepted()
    n = max(1, min(workers, len(wanted)))
    shares = [wanted[i * len(wanted) // n:(i + 1) * len(wanted) // n] for i in range(n)]

    def read(share: list[int]) -> list[tuple]:
        with closing(_connect(path)) as conn:
            where = f" AND hotel_code IN ({','.join('?' * len(share))})"
            return conn.execute(_SQL.format(where=where), [target, *share]).fetchall()

    if n > 1:
        with ThreadPoolExecutor(n) as pool:
            rows = [r for part in pool.map(read, shares) for r in part]
    else:
        rows = read(shares[0])
    if not rows:
        return empty_accepted()
    counts = np.fromiter((r[3] for r in rows), dtype=np.int64, count=len(rows))
    take = np.repeat(np.arange(len(rows)), counts)
    dates = np.frombuffer("".join(r[4] for r in rows).encode("ascii"), dtype="S10").astype("datetime64[D]")
    guests = np.fromstring(",".join(r[5] for r in rows), dtype=np.int64, sep=",")  # text mode: a C parser
    prices = _split_codes("|".join(r[6] for r in rows))
    return pd.DataFrame({
        "hotel_code": np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))[take],
        "inv_type_code": _repeated([r[1] for r in rows], take), "rate_plan_code": _repeated([r[2] for r in rows], take),
        "date": dates.astype("datetime64[s]"), "guests": guests, "price": prices})


def _split_codes(text: str) -> pd.Categorical:
    """``a|b|a`` -> a categorical of the distinct price keys (split and encoded by arrow, in C++)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    encoded = pc.split_pattern(pa.array([text], type=pa.large_string()), "|").flatten().dictionary_encode()
    return pd.Categorical.from_codes(encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64),
                                     categories=pd.Index(encoded.dictionary.to_pylist(), dtype=object))


def _repeated(values: list[str], take: np.ndarray) -> pd.Categorical:
    """One value per room-rate repeated for its cells, as a categorical (no Python string per cell)."""
    codes, uniques = pd.factorize(np.asarray(values, dtype=object))
    return pd.Categorical.from_codes(codes[take], categories=pd.Index(uniques, dtype=object))


def _connect(path: str | Path) -> sqlite3.Connection:
    """A read-only connection whose first read fails here, as a :class:`JournalError`, when the file is
    not a usable journal (damaged, truncated, not SQLite)."""
    try:
        db = sqlite3.connect(f"file:{Path(path).resolve()}?mode=ro", uri=True, timeout=30)
        db.execute("SELECT name FROM sqlite_master LIMIT 1").fetchall()
    except sqlite3.DatabaseError as exc:
        raise journal_problem(Path(path), exc) from None
    return db


def _has_accepted(db: sqlite3.Connection) -> bool:
    return db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='accepted'").fetchone() is not None
