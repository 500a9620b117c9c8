"""The waivers file: warnings a person has looked at and accepted, for a while.

One row per waiver, in CSV or Excel (every sheet is read), the headers matched like a rates sheet's
(case, spaces, hyphens and underscores ignored):

``rule, property, room, rate, start, end, reason, who, expires``

``rule`` (the issue's rule, e.g. ``duplicate_key``), ``reason``, ``who`` and ``expires``
(``YYYY-MM-DD``, the last day the waiver holds) are required on every row; a blank ``property``,
``room``, ``rate``, ``start`` or ``end`` means "any". A file that cannot be used raises
:class:`~loaders.LoadError` naming every bad cell by file, sheet, row and column.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pandas as pd

from loaders import normalize as norm
from loaders.errors import LoadError
from loaders.headers import match_headers, missing_columns_error, where
from loaders.schemas import Field
from loaders.sheets import RawSheet, read_tables

WAIVER_FIELDS: tuple[Field, ...] = (
    Field("rule", "rule", ("rule", "issue", "check"), "the rule of the issues waived (e.g. `duplicate_key`)"),
    Field("hotel_code", "property", ("property", "HotelCode", "hotel_code", "hotel", "property_id"),
          "property id; blank: any"),
    Field("inv_type_code", "room", ("room", "InvTypeCode", "room_id", "InvCode"), "room type id; blank: any"),
    Field("rate_plan_code", "rate", ("rate", "RatePlanCode", "rate_plan", "rate_plan_id", "rate_id"),
          "rate plan id; blank: any"),
    Field("start", "start", ("start", "from", "start_date", "date_from", "first_night"),
          "first night waived (inclusive); blank: from any night"),
    Field("end", "end", ("end", "to", "until", "end_date", "date_to", "last_night"),
          "last night waived (inclusive); blank: to any night"),
    Field("reason", "reason", ("reason", "why", "comment"), "why the warning is accepted"),
    Field("who", "who", ("who", "by", "waived_by", "approved_by", "owner"), "who accepted it"),
    Field("expires", "expires", ("expires", "expiry", "expires_on", "valid_until"),
          "the last day the waiver holds (YYYY-MM-DD)"),
)
REQUIRED = ("rule", "reason", "who", "expires")

#: The waivers frame: one row per waiver, with where it was read (``source, sheet, row`` as Excel shows them).
WAIVER_COLUMNS: dict[str, str] = {
    "rule": "string", "hotel_code": "Int64", "inv_type_code": "string", "rate_plan_code": "string",
    "start": "datetime64[ns]", "end": "datetime64[ns]", "reason": "string", "who": "string",
    "expires": "datetime64[ns]", "source": "string", "sheet": "string", "row": "Int64",
    "expires_column": "string",  # the header of the ``expires`` cell, for issues about the waiver
}
MAX_LISTED = 10  # bad cells named in one error


def empty_waivers() -> pd.DataFrame:
    return pd.DataFrame({c: pd.Series(dtype=t) for c, t in WAIVER_COLUMNS.items()})


def read_waivers(paths: str | Path | Iterable[str | Path]) -> pd.DataFrame:
    """Read waivers files into the waivers frame (see the module docstring)."""
    files = [Path(paths)] if isinstance(paths, (str, Path)) else [Path(p) for p in paths]
    frames = []
    problems: list[str] = []
    for raw in read_tables(files).sheets:
        if raw.body.empty and not any(raw.header):
            continue
        frame, bad = _read_sheet(raw)
        frames.append(frame)
        problems += bad
    if problems:
        shown = problems[:MAX_LISTED]
        more = f"; and {len(problems) - len(shown)} more" if len(problems) > len(shown) else ""
        raise LoadError("the waivers file cannot be used: " + "; ".join(shown) + more
                        + ". Each row needs `rule`, `reason`, `who` and `expires` (YYYY-MM-DD); `property` is a "
                        "number; `start`/`end` are dates (blank = any).", source=files[0].name)
    if not frames:
        return empty_waivers()
    return pd.concat(frames, ignore_index=True).astype(WAIVER_COLUMNS)


def _read_sheet(raw: RawSheet) -> tuple[pd.DataFrame, list[str]]:
    cols = match_headers(raw.header, WAIVER_FIELDS, source=raw.source, sheet=raw.sheet)
    missing = [f for f in WAIVER_FIELDS if f.name in REQUIRED and f.name not in cols]
    if missing:
        raise missing_columns_error(missing, source=raw.source, sheet=raw.sheet, header=raw.header,
                                    extra="A waivers file has the columns rule, property, room, rate, start, end, "
                                          "reason, who, expires.")
    body, rows = raw.body, raw.rows.to_numpy()
    bad: list[str] = []

    def cell(name: str) -> pd.Series:
        if name not in cols:
            return pd.Series(pd.NA, index=body.index, dtype="string")
        return body[cols[name]].astype("string").str.strip().replace("", pd.NA)

    def note(errors: pd.Series, name: str) -> None:
        for i in errors.dropna().index:
            bad.append(f"{where(raw.source, raw.sheet)} row {int(rows[i])}, column `{raw.header[cols[name]]}`: "
                       f"{errors[i]}")

    out: dict[str, object] = {}
    for name in ("rule", "reason", "who"):
        out[name] = cell(name)
    hotels, err = norm.parse_ints(cell("hotel_code").dropna(), "a property id (a whole number)")
    note(err, "hotel_code")
    out["hotel_code"] = hotels.reindex(body.index)
    out["inv_type_code"] = norm.parse_codes(cell("inv_type_code"))
    out["rate_plan_code"] = norm.parse_codes(cell("rate_plan_code"))
    for name in ("start", "end", "expires"):
        text = cell(name)
        days, err = norm.parse_dates(text.dropna())
        note(err, name)
        out[name] = days.reindex(body.index)
    for name in REQUIRED:
        blank = pd.Series(out[name]).isna() & cell(name).isna()
        for i in blank[blank].index:
            bad.append(f"{where(raw.source, raw.sheet)} row {int(rows[i])}, column `{raw.header[cols[name]]}`: "
                       f"is blank (every waiver needs `{name}`)")
    start, end = pd.Series(out["start"]), pd.Series(out["end"])
    backwards = start.notna() & end.notna() & (end < start)
    for i in backwards[backwards].index:
        bad.append(f"{where(raw.source, raw.sheet)} row {int(rows[i])}: `end` {end[i]:%Y-%m-%d} is before `start` "
                   f"{start[i]:%Y-%m-%d}")
    frame = pd.DataFrame(out, index=body.index)
    frame["source"] = raw.source
    frame["sheet"] = raw.sheet
    frame["row"] = rows
    frame["expires_column"] = raw.header[cols["expires"]]
    return frame[list(WAIVER_COLUMNS)].reset_index(drop=True), sorted(set(bad), key=bad.index)
