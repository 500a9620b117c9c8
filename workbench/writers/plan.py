"""A push's plan: what it would change against the last accepted state, before anything is sent.

:func:`diff_cells` compares the rows a push would send with the journal's accepted cells (hotel,
room, rate, night, guests): each row is ``added`` (no accepted price), ``changed`` (another price)
or ``unchanged``; accepted cells the sheet no longer prices (from ``since`` on) are ``removed``
from the sheet (the platform keeps them: a push never deletes a price; price a night 0 to close
it). Cells are compared as integer keys (factorised room-rates, day numbers, guests) and prices
as the journal's price keys, factorised, so a million cells take a fraction of a second.

:class:`RatesPlan` adds the number of requests and messages (the compressor on what would be
sent) and the least time the send takes at the configured limits; :meth:`RatesPlan.ranges`
groups the changes as date ranges with weekday masks, with the compressor.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from expectations.price_jumps import amount_text, guests_text
from loaders.issues import empty_issues
from workbench.display import MarkdownSummary, Summary, Table
from workbench.transport.estimate import SendEstimate
from workbench.wording import count, fact, platform_text
from workbench.writers.compress import ALL_DAYS, compress, expand
from workbench.writers.deltas import cell_keys
from workbench.writers.journal import NO_GUESTS

ADDED, CHANGED, UNCHANGED, REMOVED = "added", "changed", "unchanged", "removed"
KINDS = (ADDED, CHANGED, UNCHANGED)  # codes 0, 1, 2 of :attr:`CellDiff.change`
ROOM_RATE_COLUMNS = ["hotel_code", "inv_type_code", "rate_plan_code", ADDED, CHANGED, UNCHANGED, REMOVED]
CHANGE_COLUMNS = ["hotel_code", "inv_type_code", "rate_plan_code", "date", "guests", "change", "before", "after",
                  "currency_code", "change_pct", "source", "sheet", "row", "column"]
RANGE_COLUMNS = ["hotel_code", "inv_type_code", "rate_plan_code", "guests", "change", "before", "after",
                 "currency_code", "change_pct", "start", "end", "weekdays", "nights", "text"]
PRICE_PARTS = ["amount_type", "amount_minor", "amount_scale", "decimal_places", "currency_code"]
WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
SUMMARY_ROWS = 10


@dataclass
class CellDiff:
    """The rows of a sheet against the accepted cells: ``change`` per row (0 added, 1 changed,
    2 unchanged), its price key and the accepted one (``None`` when added); the accepted cells
    the sheet does not price (``removed``); and the counts per room-rate."""

    change: np.ndarray
    after: np.ndarray
    before: np.ndarray
    removed: pd.DataFrame
    room_rates: pd.DataFrame

    @property
    def send_mask(self) -> np.ndarray:
        """The rows a delta push sends: added or changed."""
        return self.change != 2

    def count(self, kind: str) -> int:
        if kind == REMOVED:
            return len(self.removed)
        return int((self.change == KINDS.index(kind)).sum())


def diff_cells(frame: pd.DataFrame, accepted: pd.DataFrame, since: dt.date | None = None) -> CellDiff:
    """Compare ``frame`` (canonical rates rows, no repeated cell) with ``accepted`` (the journal's
    cells: ``hotel_code, inv_type_code, rate_plan_code, date, guests, price``); accepted cells
    before ``since`` are never counted as removed."""
    f = frame.reset_index(drop=True)
    n = len(f)
    guests = f["number_of_guests"].astype("Int64").fillna(NO_GUESTS).to_numpy(np.int64)
    codes, rr_parts = _cell_codes(
        [f["hotel_code"].to_numpy(np.int64), accepted["hotel_code"].to_numpy(np.int64)],
        _factorized(f["inv_type_code"], accepted["inv_type_code"]),
        _factorized(f["rate_plan_code"], accepted["rate_plan_code"]),
        [f["date"].to_numpy("datetime64[D]").astype(np.int64), accepted["date"].to_numpy("datetime64[D]")
         .astype(np.int64)],
        [guests, accepted["guests"].to_numpy(np.int64)])
    key, rr_id = codes
    pos = pd.Index(key[n:]).get_indexer(key[:n]) if len(accepted) else np.full(n, -1, dtype=np.int64)
    after_id, after_text = _price_ids(f)
    acc_code, acc_uniques = pd.factorize(accepted["price"])  # a categorical from read_accepted: its codes
    acc_text = np.asarray(acc_uniques, dtype=object)
    acc_in_sheet = pd.Index(after_text).get_indexer(acc_text)[acc_code] if len(accepted) else np.zeros(0, np.int64)
    change = np.zeros(n, dtype=np.int8)
    known = pos >= 0
    change[known] = np.where(acc_in_sheet[pos[known]] == after_id[known], 2, 1)
    before = np.full(n, None, dtype=object)
    before[known] = np.asarray(acc_text, dtype=object)[acc_code[pos[known]]]
    present = np.zeros(len(accepted), dtype=bool)
    present[pos[known]] = True
    gone = ~present
    if since is not None and len(accepted):
        gone &= accepted["date"].to_numpy("datetime64[D]") >= np.datetime64(since, "D")
    removed = accepted[gone].reset_index(drop=True)
    n_rr = len(rr_parts[0])
    counts = np.bincount(rr_id[:n].astype(np.int64) * 3 + change, minlength=3 * n_rr).reshape(n_rr, 3)
    gone_counts = np.bincount(rr_id[n:][gone], minlength=n_rr)
    rr = pd.DataFrame({"hotel_code": rr_parts[0], "inv_type_code": rr_parts[1], "rate_plan_code": rr_parts[2],
                       ADDED: counts[:, 0], CHANGED: counts[:, 1], UNCHANGED: counts[:, 2], REMOVED: gone_counts})
    rr = rr[(counts.sum(axis=1) + gone_counts) > 0]
    rr = rr.sort_values(["hotel_code", "inv_type_code", "rate_plan_code"], kind="stable").reset_index(drop=True)
    return CellDiff(change, np.asarray(after_text, dtype=object)[after_id], before, removed, rr)


def _factorized(sheet: pd.Series, accepted: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """Codes over both sides (sheet, then accepted) and the values: each side factorised on its own
    (arrow strings and categoricals factorise without making a Python string per row), then the
    few distinct values united."""
    sc, su = pd.factorize(sheet)
    ac, au = pd.factorize(accepted)
    values = pd.Index(np.asarray(su, dtype=object)).append(pd.Index(np.asarray(au, dtype=object))).unique()
    codes = np.concatenate([values.get_indexer(np.asarray(su, dtype=object))[sc] if len(sc) else sc,
                            values.get_indexer(np.asarray(au, dtype=object))[ac] if len(ac) else ac])
    return codes.astype(np.int64), np.asarray(values, dtype=object)


def _cell_codes(hotels: list[np.ndarray], rooms: tuple[np.ndarray, np.ndarray], rates: tuple[np.ndarray, np.ndarray],
                days: list[np.ndarray], guests: list[np.ndarray]) -> tuple[tuple[np.ndarray, np.ndarray], tuple]:
    """One int64 per cell over both sides (sheet, then accepted) and the room-rate id of each, with
    the hotel, room and rate of each room-rate id."""
    hc, hu = _offsets(np.concatenate(hotels))
    rc, ru = rooms
    pc, pu = rates
    rr_key = (hc * len(ru) + rc) * len(pu) + pc
    rr_id, rr_u = pd.factorize(rr_key)
    day = np.concatenate(days)
    gc, gu = _offsets(np.concatenate(guests))
    d0 = int(day.min()) if len(day) else 0
    span = int(day.max()) - d0 + 1 if len(day) else 1
    key = (rr_id.astype(np.int64) * span + (day - d0)) * max(1, len(gu)) + gc
    rr_u = np.asarray(rr_u, dtype=np.int64)
    parts = (np.asarray(hu, dtype=np.int64)[rr_u // (len(pu) * len(ru))],
             np.asarray(ru, dtype=object)[(rr_u // len(pu)) % len(ru)], np.asarray(pu, dtype=object)[rr_u % len(pu)])
    return (key, rr_id), parts


def _offsets(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Small integer codes: each value minus the least when the values span a short range (guest
    counts, property ids of one partner: no hashing), else factorised; and the value of each code."""
    if not len(values):
        return values.astype(np.int64), np.zeros(0, dtype=np.int64)
    lo, hi = int(values.min()), int(values.max())
    if hi - lo > 2 * len(values) + 1_000:
        codes, uniques = pd.factorize(values)
        return codes.astype(np.int64), np.asarray(uniques, dtype=np.int64)
    return (values - lo).astype(np.int64), np.arange(lo, hi + 1, dtype=np.int64)


def _price_ids(f: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """Each row's price as an id into the price keys (the journal's text) of the distinct prices."""
    if f.empty:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=object)
    code = np.zeros(len(f), dtype=np.int64)
    for col in PRICE_PARTS:
        k, u = pd.factorize(f[col], use_na_sentinel=False)
        code = code * max(1, len(u)) + k
    _, first, inverse = np.unique(code, return_index=True, return_inverse=True)
    texts = cell_keys(f.iloc[first])["price"].to_numpy(object)
    return inverse.astype(np.int64), texts


def count_messages(delta: pd.DataFrame) -> tuple[int, int]:
    """``(requests, messages)`` a push of ``delta`` sends: the compressor's count, without running its
    per-month search where it cannot win: a room-rate-month of at most two runs of equal prices on
    consecutive nights is sent as those runs (:func:`~workbench.writers.compress.compress_month`),
    so only the months with more runs are compressed. Scattered changes (a few nights here and
    there) are mostly such months."""
    if delta.empty:
        return 0, 0
    f = delta.reset_index(drop=True)
    day = f["date"].to_numpy("datetime64[D]")
    month = day.astype("datetime64[M]").astype(np.int64)
    hotel = f["hotel_code"].to_numpy(np.int64)
    requests = len(np.unique(hotel * 100_000 + (month - month.min())))
    rr, _ = pd.factorize(pd.MultiIndex.from_arrays([hotel, f["inv_type_code"], f["rate_plan_code"]]))
    series = rr.astype(np.int64) * 100_000 + (month - month.min())
    night = series * 64 + (day.astype(np.int64) - day.astype("datetime64[M]").astype("datetime64[D]")
                           .astype(np.int64))
    if len(np.unique(night)) != len(f):  # several guest counts a night: nights are price vectors
        return requests, len(compress(f).messages)
    price, _ = _price_ids(f)  # a night's price vector is its guest count and price (one guest count a night here)
    guests, _ = pd.factorize(f["number_of_guests"], use_na_sentinel=False)
    value = price * (int(guests.max()) + 1) + guests
    order = np.lexsort((night, series))
    s, n, v = series[order], night[order], value[order]
    new_run = np.ones(len(f), dtype=bool)
    new_run[1:] = (s[1:] != s[:-1]) | (n[1:] != n[:-1] + 1) | (v[1:] != v[:-1])
    runs = np.bincount(pd.factorize(s)[0], weights=new_run).astype(np.int64)
    series_ids = pd.unique(s)
    busy = np.isin(series, series_ids[runs > 2])
    messages = int(runs[runs <= 2].sum())
    if busy.any():
        messages += len(compress(f[busy]).messages)
    return requests, messages


def parse_price_keys(keys: pd.Series) -> pd.DataFrame:
    """The journal's price keys (``AfterTax:15900e-2:2:EUR``) as ``amount_minor, amount_scale,
    currency_code`` (NA where a key is missing), parsed once per distinct key."""
    code, uniq = pd.factorize(keys, use_na_sentinel=True)
    parts = [str(u).split(":") for u in uniq]
    amounts = [p[1].partition("e") if len(p) > 1 else ("0", "", "") for p in parts]
    minor = [int(m) for m, _, _ in amounts]
    scale = [-int(e) if e else 0 for _, _, e in amounts]
    cur = [p[3] if len(p) > 3 else "" for p in parts]
    table = pd.DataFrame({"amount_minor": pd.array(minor + [None], dtype="Int64"),
                          "amount_scale": pd.array(scale + [None], dtype="Int64"),
                          "currency_code": pd.array(cur + [None], dtype="string")})
    return table.iloc[np.where(code < 0, len(uniq), code)].reset_index(drop=True)


@dataclass(repr=False)
class RatesPlan(MarkdownSummary):
    """What a push would do against the last accepted state (:func:`workbench.plan_rates`), or
    what a push was about to do when it started (``PushResult.plan``)."""

    target: str
    journal: Path
    frame: pd.DataFrame                  # the rows a push would send from (checked, without repeats)
    diff: CellDiff
    requests: int
    messages: int
    estimate: SendEstimate
    full: bool = False
    since: dt.date | None = None
    rows_left_out: int = 0               # rows a push leaves out: errors (with skip_invalid), repeats, refused
    blocked: str = ""                    # why a push would stop before sending (errors, no skip_invalid)
    warnings: pd.DataFrame = field(default_factory=empty_issues)   # price_jump / price_outlier
    mark: int = -1                       # the journal's last request id when planned (-1: unknown)

    def delta(self) -> pd.DataFrame:
        """The rows a push sends: every row with ``full``, else the ones added or changed."""
        return self.frame if self.full else self.frame[self.diff.send_mask]

    @property
    def room_rates(self) -> pd.DataFrame:
        """Per property and room-rate: cells ``added, changed, unchanged, removed``."""
        return self.diff.room_rates

    @property
    def counts(self) -> dict[str, int]:
        return {k: self.diff.count(k) for k in (ADDED, CHANGED, UNCHANGED, REMOVED)}

    @property
    def cells_to_send(self) -> int:
        return len(self.frame) if self.full else int(self.diff.send_mask.sum())

    def headline(self) -> str:
        """The figures every push starts with, in one line."""
        c = self.counts
        sent = f"{count(self.cells_to_send, 'price')} to send" + (" (--full: every price)" if self.full else "")
        return (f"Plan: {c[ADDED]:,} added, {c[CHANGED]:,} changed, {c[UNCHANGED]:,} unchanged, {c[REMOVED]:,} "
                f"removed from the sheet; {sent} in {count(self.requests, 'request')} with "
                f"{count(self.messages, 'message')}; send time {self.estimate.text()}")

    def summary(self) -> str:
        warn = f"; {count(len(self.warnings), 'price-jump warning')}" if len(self.warnings) else ""
        blocked = f"; a push stops here: {self.blocked}" if self.blocked else ""
        return self.headline() + warn + blocked

    def __repr__(self) -> str:
        return f"<RatesPlan for {platform_text(self.target)}: {self.summary()}>"

    def changes(self) -> pd.DataFrame:
        """One row per cell added or changed (``before`` → ``after`` with ``change_pct``), then the
        cells removed from the sheet, in :data:`CHANGE_COLUMNS`."""
        d, f = self.diff, self.frame
        moved = np.flatnonzero(d.change != 2)
        sheet = pd.DataFrame({
            "hotel_code": f["hotel_code"].to_numpy(np.int64)[moved],
            "inv_type_code": f["inv_type_code"].to_numpy(object)[moved],
            "rate_plan_code": f["rate_plan_code"].to_numpy(object)[moved],
            "date": f["date"].to_numpy("datetime64[D]")[moved],
            "guests": f["number_of_guests"].astype("Int64").to_numpy()[moved],
            "change": np.asarray(KINDS, dtype=object)[d.change[moved]],
            "before": d.before[moved], "after": d.after[moved],
            "source": f["source"].to_numpy(object)[moved], "sheet": f["sheet"].to_numpy(object)[moved],
            "row": f["row"].to_numpy()[moved], "column": f["amount_column"].to_numpy(object)[moved]})
        r = d.removed
        gone = pd.DataFrame({"hotel_code": r["hotel_code"].to_numpy(np.int64),
                             "inv_type_code": r["inv_type_code"].to_numpy(object),
                             "rate_plan_code": r["rate_plan_code"].to_numpy(object),
                             "date": r["date"].to_numpy("datetime64[D]"),
                             "guests": pd.array(np.where(r["guests"] == NO_GUESTS, None, r["guests"]), dtype="Int64"),
                             "change": REMOVED, "before": r["price"].to_numpy(object), "after": None,
                             "source": "", "sheet": "", "row": pd.NA, "column": ""})
        out = pd.concat([x for x in (sheet, gone) if len(x)], ignore_index=True) if len(sheet) or len(gone) \
            else sheet
        out["date"] = pd.to_datetime(out["date"])
        return _with_amounts(out)[CHANGE_COLUMNS]

    def ranges(self) -> pd.DataFrame:
        """The changes grouped by the compressor: one line per room-rate, guests, change and month
        range with a weekday mask (``room 101 / rate 5001: 120.00 → 135.00 EUR (+12.5%), 1–31 Mar
        2026, Fri–Sat``); ``nights`` counts the nights each line covers."""
        return change_ranges(self.changes())

    def _repr_html_(self) -> str:
        c = self.counts
        facts = [(f"{c[ADDED]:,}", ADDED), (f"{c[CHANGED]:,}", CHANGED), (f"{c[UNCHANGED]:,}", UNCHANGED),
                 (f"{c[REMOVED]:,}", "removed from the sheet"), fact(self.requests, "request", "requests"),
                 fact(self.messages, "message", "messages"), (self.estimate.text(), "send time:"),
                 fact(len(self.warnings), "price-jump warning", "price-jump warnings"), (platform_text(self.target), "platform:")]
        rr = self.room_rates
        moved = rr[(rr[ADDED] + rr[CHANGED] + rr[REMOVED]) > 0]
        tables = [Table("Room-rates with changes", moved.head(SUMMARY_ROWS),
                        note=_shown(min(len(moved), SUMMARY_ROWS), len(moved), "room-rates", "`.room_rates`"))]
        lines = self.ranges().head(SUMMARY_ROWS) if len(moved) else pd.DataFrame(columns=RANGE_COLUMNS)
        if len(lines):
            tables.append(Table("Changes as ranges", lines[["hotel_code", "text", "nights"]], wide=("text",),
                                note="the first lines; all of them: `.ranges()`"))
        if len(self.warnings):
            w = self.warnings.head(SUMMARY_ROWS)
            tables.append(Table("Price-jump warnings", w[["source", "sheet", "row", "column", "rule", "message"]],
                                wide=("message",), note=_shown(len(w), len(self.warnings), "warnings",
                                                                "`.warnings`")))
        verdict = (f"a push stops here: {self.blocked}" if self.blocked else
                   "nothing to send" if self.cells_to_send == 0 else f"{count(self.cells_to_send, 'price')} to send")
        tone = "error" if self.blocked else ("warning" if len(self.warnings) else "info")
        return Summary("Plan (nothing sent)", verdict, tone, facts, tables).html()


def _shown(n: int, total: int, what: str, where: str) -> str:
    return f"{n} of {total:,} {what} shown; all of them: {where}" if n < total else ""


def _with_amounts(out: pd.DataFrame) -> pd.DataFrame:
    """``before`` / ``after`` price keys as amounts people read (``135.00``), the currency and the change in %."""
    b, a = parse_price_keys(out["before"]), parse_price_keys(out["after"])
    pct = (a["amount_minor"].astype("float64") / 10.0 ** a["amount_scale"].astype("float64")) / (
        b["amount_minor"].astype("float64") / 10.0 ** b["amount_scale"].astype("float64")) * 100 - 100
    same = (a["currency_code"] == b["currency_code"]).fillna(False).to_numpy(bool)
    pct = pct.where(same & np.isfinite(pct.to_numpy(np.float64, na_value=np.nan))).round(1)
    return out.assign(before=amount_text(b["amount_minor"], b["amount_scale"], b["currency_code"]),
                      after=amount_text(a["amount_minor"], a["amount_scale"], a["currency_code"]),
                      currency_code=a["currency_code"].fillna(b["currency_code"]).fillna("").to_numpy(),
                      change_pct=pct.to_numpy())


def change_ranges(changes: pd.DataFrame) -> pd.DataFrame:
    """Cells of :meth:`RatesPlan.changes` as lines of date ranges with weekday masks, per room-rate,
    guests, change and prices (the compressor, per calendar month)."""
    if changes.empty:
        return pd.DataFrame(columns=RANGE_COLUMNS)
    c = changes.reset_index(drop=True)
    series_cols = ["hotel_code", "inv_type_code", "rate_plan_code", "guests"]
    value_cols = ["change", "before", "after", "currency_code"]
    sid, series = pd.factorize(pd.MultiIndex.from_frame(c[series_cols].astype({"guests": "float64"})
                                                        .fillna({"guests": -1.0})))
    vid, values = pd.factorize(pd.MultiIndex.from_frame(c[value_cols].fillna("")))
    pseudo = pd.DataFrame({"hotel_code": sid, "inv_type_code": "", "rate_plan_code": "", "date": c["date"],
                           "number_of_guests": pd.array([None] * len(c), dtype="Int64"), "amount_type": "",
                           "amount_minor": vid, "amount_scale": 0, "decimal_places": pd.array([None] * len(c),
                                                                                              dtype="Int64"),
                           "currency_code": "", "source": "", "sheet": "", "row": 0})
    packed = compress(pseudo)
    m = packed.messages.reset_index(drop=True)
    value_of_vector = packed.prices.set_index("vector")["amount_minor"]
    v = value_of_vector.reindex(m["vector"].to_numpy()).to_numpy(np.int64)
    nights = np.bincount(expand(m)["message"].to_numpy(np.int64), minlength=len(m))
    s = m["hotel_code"].to_numpy(np.int64)
    pct_of = c.groupby(vid, sort=True)["change_pct"].first()
    out = pd.DataFrame({
        "hotel_code": series.get_level_values(0)[s], "inv_type_code": series.get_level_values(1)[s],
        "rate_plan_code": series.get_level_values(2)[s],
        "guests": pd.array(np.where(series.get_level_values(3)[s] < 0, None, series.get_level_values(3)[s]),
                           dtype="Int64"),
        "change": values.get_level_values(0)[v], "before": values.get_level_values(1)[v],
        "after": values.get_level_values(2)[v], "currency_code": values.get_level_values(3)[v],
        "change_pct": pct_of.reindex(v).to_numpy(), "start": m["start"].to_numpy(), "end": m["end"].to_numpy(),
        "weekdays": [weekday_text(int(k)) for k in m["mask"]], "nights": nights})
    out = out.sort_values(["hotel_code", "inv_type_code", "rate_plan_code", "guests", "start", "change"],
                          kind="stable").reset_index(drop=True)
    out["text"] = [range_line(r) for r in out.itertuples(index=False)]
    return out[RANGE_COLUMNS]


def weekday_text(mask: int) -> str:
    """``0b0110000`` -> ``Fri–Sat``; ``Mon, Wed, Fri``; every day -> ``every night``."""
    if mask == ALL_DAYS:
        return "every night"
    days = [d for d in range(7) if mask >> d & 1]
    runs: list[list[int]] = []
    for d in days:
        if runs and d == runs[-1][-1] + 1:
            runs[-1].append(d)
        else:
            runs.append([d])
    return ", ".join(WEEKDAYS[r[0]] if len(r) == 1 else f"{WEEKDAYS[r[0]]}–{WEEKDAYS[r[-1]]}" for r in runs)


def range_line(r: Any) -> str:
    """One line of :func:`change_ranges` (a row of it, from ``itertuples``) as a person reads it."""
    start, end = pd.Timestamp(r.start), pd.Timestamp(r.end)
    dates = f"{start.day} {start:%b %Y}" if start == end else f"{start.day}–{end.day} {end:%b %Y}"
    wd = "" if r.weekdays == "every night" else f", {r.weekdays}"
    who = f"room {r.inv_type_code} / rate {r.rate_plan_code}" + ("" if pd.isna(r.guests) else f" / {guests_text(r.guests)}")
    if r.change == ADDED:
        what = f"new {r.after} {r.currency_code}"
    elif r.change == REMOVED:
        what = f"{r.before} {r.currency_code} no longer in the sheet (the platform keeps it)"
    else:
        pct = "" if pd.isna(r.change_pct) else f" ({r.change_pct:+.1f}%)"
        what = f"{r.before} → {r.after} {r.currency_code}{pct}"
    return f"{who}: {what}, {dates}{wd}"
