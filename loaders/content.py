"""Content workbooks (spec E4) -> one canonical frame per part (``loaders.content_schema``).

A workbook has one sheet per part, named like the part (``Property``, ``Contacts``, ``Fees``...);
a CSV file is a part when its file name is (``contacts.csv``). Every row names its property by
``HotelCode`` (an existing property) or ``ID`` (the partner's id of one to create); the frames
join on ``property`` (the HotelCode as text, else the ID). Cells are typed here; a cell that
cannot be read becomes an issue on that cell (its value left blank); the platform's rules are
``expectations.validate_content``'s. A file that cannot be used at all raises
:class:`~loaders.errors.LoadError`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd

from loaders import normalize as norm
from loaders.blank_cells import problem_cells
from loaders.content_canon import canonical_frame
from loaders.content_money import check_amount_marks
from loaders.content_schema import CONTENT_COLUMNS, PARTS, ContentField, fields_of
from loaders.errors import LoadError
from loaders.header_rows import TableKind
from loaders.headers import header_key, match_headers, missing_columns_error
from loaders.issues import combine, issues_from_records
from loaders.rooms import NOTE_SHEETS
from loaders.schemas import empty_frame
from loaders.sheets import RawSheet, read_tables

_ALL = {f.name + f.field.ota: f for part in PARTS for f in fields_of(part)}
#: every column is asked of the fast reader as text (codes keep their zeros, a boolean is never 1 or 0)
CONTENT_KIND = TableKind("content", tuple(f.field for f in _ALL.values()),
                         numbers=frozenset(f.name for f in _ALL.values() if f.kind != "list"))
_PART_OF = {header_key(p): p for p in PARTS} | {"contact": "Contacts", "contactinfos": "Contacts",
                                                 "policy": "Policies", "tax": "Taxes", "fee": "Fees",
                                                 "service": "Services", "restaurant": "Restaurants",
                                                 "attraction": "Attractions", "payment": "Payments",
                                                 "invoicedetails": "Invoice", "phrase": "Phrases",
                                                 "standardphrases": "Phrases", "award": "Awards"}
_TIME = re.compile(r"^(?:1899-12-3[01][ T])?(\d{1,2}):(\d{2})(?::00)?$")  # a time cell: Excel's day 0
_DIGIT_PUNCT = re.compile(r"[.\-/\s]")


class ContentLoaded(NamedTuple):
    """What :func:`read_content` returns: one frame per part (every part present) and the issues found."""

    parts: dict[str, pd.DataFrame]
    issues: pd.DataFrame


def read_content(paths: str | Path | Iterable[str | Path], sheet: str | Sequence[str] | None = None, *,
                 encoding: str | None = None, header_row: int | None = None) -> ContentLoaded:
    """Read a content workbook (or one CSV per part) into canonical frames, one per part.

    Hidden sheets are not read unless named; ``encoding`` forces the encoding of CSV files;
    ``header_row`` gives the Excel row number of the header (default: found within the first 20 rows).
    """
    if isinstance(paths, (str, Path)):
        paths = [paths]
    tables = read_tables(list(paths), sheet, kind=CONTENT_KIND, encoding=encoding, header_row=header_row)
    records: list[dict] = tables.hidden_records()
    frames: dict[str, list[pd.DataFrame]] = {p: [] for p in PARTS}
    marked: list[dict] = []  # amounts written with a currency mark, checked once every part is read
    headers: dict[tuple[str, str], dict[str, str]] = {}
    for raw in tables.sheets:
        name = raw.sheet or Path(raw.source).stem
        if header_key(name) in NOTE_SHEETS:
            continue
        part = _PART_OF.get(header_key(name))
        if part is None:
            if not raw.sheet:
                raise LoadError(f"`{raw.source}` is not a content part: name the file after its part, one of "
                                + ", ".join(f"`{p.lower()}.csv`" for p in PARTS) + " (see docs/content.md).",
                                source=raw.source)
            records.append({"source": raw.source, "sheet": raw.sheet, "row": raw.header_row, "column": "",
                            "value": raw.sheet, "rule": "sheet_ignored", "severity": "warning",
                            "message": f"sheet `{raw.sheet}` is not a content part and was not read; the parts are "
                                       + ", ".join(f"`{p}`" for p in PARTS)})
            continue
        frame, cols, marks = _read_part(raw, part, records)
        offset = sum(len(f) for f in frames[part])
        marked += [{**m, "part": part, "at": m["at"] + offset} for m in marks]
        frames[part].append(frame)
        headers[(raw.source, raw.sheet)] = {"kind": part, **cols}
    if not headers:
        source = tables.sheets[0].source if tables.sheets else ""
        raise LoadError("no content sheet found: name the sheets after the parts, e.g. `Property`, `Contacts`, "
                        "`Policies` (see docs/content.md).", source=source)
    parts: dict[str, pd.DataFrame] = {}
    for part in PARTS:
        columns = CONTENT_COLUMNS[part]
        frame = pd.concat(frames[part], ignore_index=True) if frames[part] else empty_frame(columns)
        frame = frame.astype(columns)[list(columns)]
        frame.attrs["headers"] = headers
        parts[part] = frame
    check_amount_marks(parts, marked, records)
    return ContentLoaded(parts, combine([issues_from_records(records)]))


def _read_part(raw: RawSheet, part: str, records: list[dict]) -> tuple[pd.DataFrame, dict[str, str], list[dict]]:
    """The part's frame, its header names by column, and its amounts written with a currency mark."""
    fields = fields_of(part)
    by_name = {f.name: f for f in fields}
    cols = match_headers(raw.header, [f.field for f in fields], source=raw.source, sheet=raw.sheet)
    if "hotel_code" not in cols and "custom_id" not in cols:
        raise missing_columns_error([by_name["hotel_code"].field], source=raw.source, sheet=raw.sheet,
                                    header=raw.header,
                                    extra="Every content row names its property by `HotelCode` (an existing "
                                          "property) or `ID` (your id of a property to create)."
                                    + (f" {raw.hint}" if raw.hint else ""))
    body, rows = raw.body, raw.rows
    header = {name: raw.header[pos] for name, pos in cols.items()}
    problems = problem_cells(raw, {pos: raw.header[pos] for pos in cols.values()})
    for (row, pos), (rule, value, message) in problems.items():
        records.append({"source": raw.source, "sheet": raw.sheet, "row": row, "column": raw.header[pos],
                        "value": value, "rule": rule, "severity": "error", "message": message})

    def flag(bad: pd.Series, name: str, values: pd.Series, rule: str, message: pd.Series | str) -> None:
        column = header.get(name, by_name[name].field.ota)
        for i in np.flatnonzero(np.asarray(bad.fillna(False), dtype=bool)):
            val = values.iloc[i]
            records.append({"source": raw.source, "sheet": raw.sheet, "row": int(rows.iloc[i]), "column": column,
                            "value": "" if pd.isna(val) else str(val), "rule": rule, "severity": "error",
                            "message": message if isinstance(message, str) else message.iloc[i]})

    out: dict[str, pd.Series] = {}
    marks: list[dict] = []
    for f in fields:
        if f.name not in cols:
            continue
        text = body[cols[f.name]].astype("string").str.strip().replace("", pd.NA)
        currencies: dict[str, pd.Series] = {}
        out[f.name] = _typed(f, text, flag, currencies)
        for name, codes in currencies.items():
            marks += [{"column": name, "header": header.get(name, f.field.ota), "at": int(i), "text": str(text.iloc[i]),
                       "codes": str(codes.iloc[i]), "source": raw.source, "sheet": raw.sheet, "row": int(rows.iloc[i])}
                      for i in np.flatnonzero(codes.notna().to_numpy())]
    frame = pd.DataFrame(out, index=body.index)
    for c, t in CONTENT_COLUMNS[part].items():
        if c not in frame:
            frame[c] = (pd.Series([[] for _ in range(len(frame))], index=frame.index, dtype=object) if t == "object"
                        else pd.Series(None, index=frame.index, dtype=t))
    canonical_frame(part, frame)
    hotel = frame["hotel_code"].astype("Int64")
    bad = hotel.notna() & (hotel < 1)
    flag(bad, "hotel_code", hotel.astype("string"), "not_a_value", "HotelCode is the platform's property id: "
         "a whole number from 1")
    frame["hotel_code"] = hotel.mask(bad)
    frame["custom_id"] = norm.parse_codes(frame["custom_id"])
    frame["property"] = frame["hotel_code"].astype("string").fillna(frame["custom_id"])
    nameless = frame["property"].isna() & ~bad
    flag(nameless, "hotel_code" if "hotel_code" in cols else "custom_id", frame["hotel_code"].astype("string"),
         "missing_value", "the row names no property: give its HotelCode (an existing property) or its ID "
                          "(your id of a property to create)")
    frame["source"], frame["sheet"], frame["row"] = raw.source, raw.sheet, rows.to_numpy()
    columns = CONTENT_COLUMNS[part]
    return frame.astype(columns)[list(columns)].reset_index(drop=True), header, marks


Flag = Callable[..., None]


def _typed(f: ContentField, text: pd.Series, flag: Flag, currencies: dict[str, pd.Series]) -> pd.Series:
    """One column's text cells -> its kind; unreadable cells become issues and are left blank. A number
    written with a currency mark (``30 EUR``) puts the codes it can mean in ``currencies``."""
    name, ota = f.name, f.field.ota
    if f.kind == "int":
        values, err = norm.parse_ints(text.dropna(), f"a whole number ({ota})")
        err = err.reindex(text.index)
        flag(err.notna(), name, text, "not_a_number", err)
        return values.reindex(text.index).astype("Int64")
    if f.kind == "flag":
        flags, err = norm.parse_flags(text.dropna())
        err = err.reindex(text.index)
        flag(err.notna(), name, text, "not_a_flag", err.str.replace("yes/no flag", f"yes/no flag ({ota})"))
        return flags.reindex(text.index).astype("Int64")
    if f.kind == "float":
        amounts, err = norm.parse_amounts(text.dropna())
        err = err.reindex(text.index)
        flag(err.notna(), name, text, "not_a_number", err)
        marks = amounts["currencies"].reindex(text.index)
        if marks.notna().any():
            currencies[name] = marks
        return amounts["value"].reindex(text.index).astype("float64")
    if f.kind == "date":
        dates, err = norm.parse_dates(text.dropna())
        err = err.reindex(text.index)
        flag(err.notna(), name, text, "not_a_date", err)
        return dates.reindex(text.index)
    if f.kind == "list":
        return pd.Series([[] if pd.isna(t) else [p.strip() for p in str(t).split(";") if p.strip()] for t in text],
                         index=text.index, dtype=object)
    if f.kind == "time":
        return text.map(_time_text, na_action="ignore").astype("string")
    if f.kind == "digits":
        digits = text.str.replace(_DIGIT_PUNCT, "", regex=True)
        digits = digits.str.replace(r"^(\d+)\.0+$", r"\1", regex=True)
        bad = digits.notna() & ~digits.str.fullmatch(r"\d+").fillna(False)
        flag(bad, name, text, "not_a_number", f"{ota} is a number of digits only (`.`, `-` and `/` may separate "
                                              "them): remove the other characters")
        return digits.mask(bad)
    return text


def _time_text(text: str) -> str:
    """A time as written; a time cell (read as ``1899-12-31 14:00:00``, ``14:00:00`` or as Excel's day
    fraction 0.5833…) is ``14:00``."""
    m = _TIME.match(text)
    if m:
        return f"{int(m[1]):02d}:{m[2]}"
    try:
        fraction = float(text)
    except ValueError:
        return text
    if 0 <= fraction < 1:
        minutes = round(fraction * 24 * 60)
        return f"{minutes // 60:02d}:{minutes % 60:02d}"
    return text
