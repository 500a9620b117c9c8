"""Room-type workbooks -> canonical rooms, sub-rooms and room-amenities frames.

A workbook has up to three kinds of sheet, recognised by name (``Rooms``, ``SubRooms``,
``Amenities``) or, failing that, by their headers:

- **Rooms**: one row per room type. ``InvCode`` is the platform's id; a blank ``InvCode`` is a
  room type to create (``RoomID``, the partner's own id, then identifies it).
- **SubRooms**: bedrooms, living rooms and bathrooms of a room type, each with a key
  (``SubRoom``, e.g. ``Bedroom 1``) unique within its room.
- **Amenities**: RMA codes of a room type, or of one of its sub-rooms (beds only). ``Value`` 0
  or the word ``remove`` asks to remove the amenity from the platform.

Sub-rooms and amenities refer to their room by ``InvCode`` or ``RoomID``. A cell that cannot be
read becomes an issue on that cell (its value is left blank); a file that cannot be used at all
raises :class:`~loaders.errors.LoadError`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd

from loaders import normalize as norm
from loaders.blank_cells import problem_cells
from loaders.errors import LoadError
from loaders.header_rows import TableKind
from loaders.headers import header_key, match_headers, missing_columns_error, where
from loaders.issues import combine, issues_from_records
from loaders.schemas import (
    AMENITIES_COLUMNS,
    AMENITY_FIELDS,
    RATE_FIELDS,
    ROOM_TYPE_FIELDS,
    ROOMS_COLUMNS,
    SUBROOM_FIELDS,
    SUBROOMS_COLUMNS,
    Field,
    empty_frame,
)
from loaders.sheets import RawSheet, read_tables

REMOVE_WORDS = {"remove", "delete", "del", "-"}
SUBROOM_TYPES = {"bedroom": "Bedroom", "livingroom": "Living room", "lounge": "Living room",
                 "bathroom": "Bathroom"}
SIZE_UNITS = {"sqm": "sqm", "m2": "sqm", "m²": "sqm", "sqft": "sqft", "ft2": "sqft", "ft²": "sqft"}
_KINDS: dict[str, tuple[tuple[Field, ...], dict[str, str]]] = {
    "rooms": (ROOM_TYPE_FIELDS, ROOMS_COLUMNS),
    "subrooms": (SUBROOM_FIELDS, SUBROOMS_COLUMNS),
    "amenities": (AMENITY_FIELDS, AMENITIES_COLUMNS),
}
_ALL_FIELDS = tuple({f.name + f.ota: f for fs in (ROOM_TYPE_FIELDS, SUBROOM_FIELDS, AMENITY_FIELDS)
                     for f in fs}.values())
#: a rooms table's header, and its cells read as text (counts and codes: a boolean is never 1 or 0)
ROOMS_KIND = TableKind("rooms", _ALL_FIELDS, numbers=frozenset(f.name for f in _ALL_FIELDS))
_SHARED = frozenset({"hotel_code", "inv_code", "room_id"})  # fields a rates sheet has too
_RATES_ONLY = TableKind("rates", tuple(f for f in RATE_FIELDS if f.name not in (
    "hotel_code", "inv_type_code", "number_of_guests")))
_SHEET_NAMES = {"rooms": "rooms", "roomtypes": "rooms", "subrooms": "subrooms", "amenities": "amenities",
                "roomamenities": "amenities"}
#: sheets for people (``workbench fetch rooms --out`` writes ``About``): skipped without a warning
NOTE_SHEETS = frozenset({"about", "notes", "readme"})


class RoomsLoaded(NamedTuple):
    """What :func:`read_rooms` returns: three canonical frames and the issues found while reading."""

    rooms: pd.DataFrame
    subrooms: pd.DataFrame
    amenities: pd.DataFrame
    issues: pd.DataFrame


def read_rooms(paths: str | Path | Iterable[str | Path], sheet: str | Sequence[str] | None = None, *,
               encoding: str | None = None, header_row: int | None = None) -> RoomsLoaded:
    """Read Rooms / SubRooms / Amenities sheets (or CSV files) into canonical frames.

    Hidden sheets are not read unless named; ``encoding`` forces the encoding of CSV files;
    ``header_row`` gives the Excel row number of the header (default: found within the first 20 rows).
    """
    if isinstance(paths, (str, Path)):
        paths = [paths]
    parts: dict[str, list[pd.DataFrame]] = {k: [] for k in _KINDS}
    headers: dict[tuple[str, str], dict[str, str]] = {}
    tables = read_tables(list(paths), sheet, kind=ROOMS_KIND, encoding=encoding, header_row=header_row)
    records: list[dict] = tables.hidden_records()
    rates_like: list[RawSheet] = []
    for raw in tables.sheets:
        if raw.sheet and header_key(raw.sheet) in NOTE_SHEETS:  # e.g. a fetched workbook's About sheet
            continue
        kind = _kind_of(raw)
        if kind == "rates":
            rates_like.append(raw)
        if kind is None or kind == "rates":
            if not raw.sheet and kind is None:
                raise LoadError(f"{where(raw.source, raw.sheet)} is neither a Rooms, a SubRooms nor an Amenities "
                                "table: name the file's columns as in docs/rooms.md (e.g. `HotelCode`, `InvCode`, "
                                "`RoomType`; `SubRoom`; `AmenityCode`)." + (f" {raw.hint}" if raw.hint else ""),
                                source=raw.source)
            what = "a rates sheet" if kind == "rates" else "not a Rooms, SubRooms or Amenities sheet"
            records.append({"source": raw.source, "sheet": raw.sheet, "row": raw.header_row, "column": "",
                            "value": what, "rule": "sheet_ignored", "severity": "warning",
                            "message": f"sheet `{raw.sheet}` is {what} and was not read"
                                       + (" (check it with `workbench validate rates`)" if kind == "rates" else "")})
            continue
        frame, cols = _read_kind(raw, kind, records)
        parts[kind].append(frame)
        headers[(raw.source, raw.sheet)] = {"kind": kind, **cols}
    if not any(parts.values()) and not headers:
        source = tables.sheets[0].source if tables.sheets else ""
        if rates_like:
            names = ", ".join(f"`{r.sheet or r.source}`" for r in rates_like)
            raise LoadError(f"`{source}` is not a rooms workbook: {names} "
                            f"{'look' if len(rates_like) > 1 else 'looks'} like rates (columns such as "
                            "`RatePlanCode`, `Date`, `AmountAfterTax`); check rates with `workbench validate rates`. "
                            "A rooms workbook has `Rooms`, `SubRooms` or `Amenities` sheets (see docs/rooms.md).",
                            source=source)
        raise LoadError("no Rooms, SubRooms or Amenities sheet found: name the sheets `Rooms`, `SubRooms`, "
                        "`Amenities` (see docs/rooms.md).", source=source)
    out = []
    for kind, (_, columns) in _KINDS.items():
        frame = pd.concat(parts[kind], ignore_index=True) if parts[kind] else empty_frame(columns)
        frame = frame.astype(columns)[list(columns)]
        frame.attrs["headers"] = headers
        out.append(frame)
    rooms, subrooms, amenities = out  # one frame per entry of _KINDS, in order
    if not (len(rooms) or len(subrooms) or len(amenities)) and not any(r["severity"] == "error" for r in records):
        first = next(iter(headers))
        records.append({"source": first[0], "sheet": first[1], "row": 1, "column": "", "value": "",
                        "rule": "no_rows", "severity": "warning",
                        "message": "no room types, sub-rooms or amenities: the sheets have headers but no rows"})
    return RoomsLoaded(rooms, subrooms, amenities, combine([issues_from_records(records)]))


def header_of(frame: pd.DataFrame, source: str, sheet: str, name: str, fallback: str) -> str:
    """The header text a sheet used for canonical column ``name`` (``fallback`` when absent)."""
    return frame.attrs.get("headers", {}).get((source, sheet), {}).get(name, fallback)


def _kind_of(raw: RawSheet) -> str | None:
    """``rooms``, ``subrooms``, ``amenities``, ``rates`` (a rates sheet, not read here) or ``None``."""
    by_name = _SHEET_NAMES.get(header_key(raw.sheet)) if raw.sheet else None
    if by_name:
        return by_name
    keys = {header_key(h) for h in raw.header if h}
    named = ROOMS_KIND.named_fields(raw.header)
    if len(_RATES_ONLY.named_fields(raw.header)) >= 2 and not named - _SHARED:
        return "rates"

    def has(fields: tuple[Field, ...], name: str) -> bool:
        f = next(f for f in fields if f.name == name)
        return any(header_key(a) in keys for a in (f.name, f.ota, *f.aliases))
    if has(AMENITY_FIELDS, "amenity_code") or has(AMENITY_FIELDS, "room_amenity_code"):
        return "amenities"
    if has(SUBROOM_FIELDS, "subroom"):
        return "subrooms"
    if has(ROOM_TYPE_FIELDS, "hotel_code") and any(has(ROOM_TYPE_FIELDS, n) for n in (
            "room_type", "room_name", "max_occupancy", "room_id", "inv_code")):
        return "rooms"
    return None


def _read_kind(raw: RawSheet, kind: str, records: list[dict]) -> tuple[pd.DataFrame, dict[str, str]]:
    fields, columns = _KINDS[kind]
    by_name = {f.name: f for f in fields}
    cols = match_headers(raw.header, fields, source=raw.source, sheet=raw.sheet)
    missing = [by_name["hotel_code"]] if "hotel_code" not in cols else []
    if "inv_code" not in cols and "room_id" not in cols:
        missing.append(by_name["inv_code"])
    if kind == "subrooms":
        missing += [by_name[n] for n in ("subroom", "subroom_type") if n not in cols]
    if kind == "amenities" and "amenity_code" not in cols and "room_amenity_code" not in cols:
        missing.append(by_name["amenity_code"])
    if missing:
        raise missing_columns_error(missing, source=raw.source, sheet=raw.sheet, header=raw.header,
                                    extra="A room is referred to by `InvCode` or `RoomID`; one of them is enough."
                                    + (f" {raw.hint}" if raw.hint else ""))
    body, rows = raw.body, raw.rows
    header = {name: raw.header[pos] for name, pos in cols.items()}
    problems = problem_cells(raw, {pos: raw.header[pos] for pos in cols.values()})
    for (row, pos), (rule, value, message) in problems.items():
        records.append({"source": raw.source, "sheet": raw.sheet, "row": row, "column": raw.header[pos],
                        "value": value, "rule": rule, "severity": "error", "message": message})
    problem_at = {(row, raw.header[pos]) for row, pos in problems}

    def text(name: str) -> pd.Series:
        if name not in cols:
            return pd.Series(pd.NA, index=body.index, dtype="string")
        return body[cols[name]].astype("string")

    def flag(bad: pd.Series, name: str, values: pd.Series, rule: str, message: pd.Series | str) -> None:
        column = header.get(name, by_name[name].ota if name in by_name else name)
        for i in np.flatnonzero(np.asarray(bad.fillna(False), dtype=bool)):
            val = values.iloc[i]
            if rule == "missing_value" and (int(rows.iloc[i]), column) in problem_at:
                continue  # already reported as an Excel error or a formula without a value
            records.append({"source": raw.source, "sheet": raw.sheet, "row": int(rows.iloc[i]),
                            "column": column,
                            "value": "" if pd.isna(val) else str(val), "rule": rule, "severity": "error",
                            "message": message if isinstance(message, str) else message.iloc[i]})

    def ints(name: str, what: str, allowed: tuple[int, ...] | None = None, minimum: int | None = 0,
             skip: pd.Series | None = None) -> pd.Series:
        """Whole numbers; outside ``allowed`` (or below ``minimum``) is an issue and left blank."""
        t = text(name) if skip is None else text(name).mask(skip)
        values, err = norm.parse_ints(t.dropna(), what)
        values, err = values.reindex(body.index).astype("Int64"), err.reindex(body.index)
        flag(err.notna(), name, t, "not_a_number", err)
        if allowed is not None:
            bad = values.notna() & ~values.isin(allowed)
            flag(bad, name, t, "not_a_value", f"`{by_name[name].ota}` is {what}")
            values = values.mask(bad)
        elif minimum is not None:
            bad = values.notna() & (values < minimum)
            flag(bad, name, t, "not_a_value", f"`{by_name[name].ota}` cannot be below {minimum}")
            values = values.mask(bad)
        return values

    hotel_text = text("hotel_code")
    flag(hotel_text.isna(), "hotel_code", hotel_text, "missing_value", "the property id (HotelCode) is blank: fill it in")
    out: dict[str, pd.Series] = {"hotel_code": ints("hotel_code", "a property id (a whole number)", minimum=1),
                                 "inv_code": norm.parse_codes(text("inv_code"))}
    room_id = norm.parse_codes(text("room_id"))
    bad_id = room_id.notna() & ~room_id.str.fullmatch(r"\d{1,16}").fillna(False)
    flag(bad_id, "room_id", text("room_id"), "not_a_number",
         "RoomID is the partner's own id of the room type: a whole number of up to 16 digits")
    out["room_id"] = room_id.mask(bad_id)
    if kind == "rooms":
        _rooms(text, ints, flag, out)
    elif kind == "subrooms":
        _subrooms(text, ints, flag, out)
    else:
        _amenities(text, ints, flag, out)
    frame = pd.DataFrame(out, index=body.index)
    frame["source"], frame["sheet"], frame["row"] = raw.source, raw.sheet, rows.to_numpy()
    for c, t in columns.items():
        if c not in frame:
            frame[c] = pd.Series(pd.NA, index=frame.index, dtype=t)
    return frame.astype(columns)[list(columns)].reset_index(drop=True), header


def _rooms(text, ints, flag, out: dict[str, pd.Series]) -> None:
    out["room_type"] = norm.parse_codes(text("room_type"))
    out["room_name"] = text("room_name")
    for name in ("max_occupancy", "max_adult_occupancy", "max_child_occupancy", "max_child_payable_occupancy",
                 "max_infants", "max_infants_on_top", "quantity", "size_measurement", "maximum_additional_guests", "max_cribs", "max_rollaways",
                 "apartment_room_capacity", "subroom_count"):
        out[name] = ints(name, "a whole number")
    out["active"] = ints("active", "1 (active) or 0 (deactivated)", allowed=(0, 1))
    out["non_smoking"] = ints("non_smoking", "1 (non-smoking), 0 (smoking allowed) or 2 (both)", allowed=(0, 1, 2))
    unit_text = text("size_measurement_unit")
    unit = unit_text.str.replace(r"[\s._]", "", regex=True).str.casefold().map(SIZE_UNITS).astype("string")
    flag(unit_text.notna() & unit.isna(), "size_measurement_unit", unit_text, "not_a_value",
         "write `sqm` (square metres, the default) or `sqft` (square feet)")
    out["size_measurement_unit"] = unit


def _subrooms(text, ints, flag, out: dict[str, pd.Series]) -> None:
    key = text("subroom")
    flag(key.isna(), "subroom", key, "missing_value",
         "the sub-room key is blank: name each sub-room within its room, e.g. `Bedroom 1`")
    out["subroom"] = key
    kind_text = text("subroom_type")
    kind = kind_text.str.replace(r"[\s_\-]", "", regex=True).str.casefold().map(SUBROOM_TYPES).astype("string")
    flag(kind_text.isna() | kind.isna(), "subroom_type", kind_text, "not_a_value",
         "a sub-room's RoomType is `Bedroom`, `Living room` or `Bathroom`")
    out["subroom_type"] = kind
    out["max_guests"] = ints("max_guests", "a number of guests")
    out["number"] = ints("number", "a whole number")
    out["private_bathroom"] = ints("private_bathroom", "1 (own bathroom) or 0", allowed=(0, 1))
    flags, err = norm.parse_flags(text("remove").dropna())
    flags, err = flags.reindex(text("remove").index), err.reindex(text("remove").index)
    flag(err.notna(), "remove", text("remove"), "not_a_flag", err)
    out["remove"] = flags.fillna(False).astype("boolean")


def _amenities(text, ints, flag, out: dict[str, pd.Series]) -> None:
    out["subroom"] = text("subroom")
    out["amenity_code"] = ints("amenity_code", "an amenity (RMA) code", minimum=1)
    out["room_amenity_code"] = ints("room_amenity_code", "an amenity (RMA) code", minimum=1)
    both_blank = text("amenity_code").isna() & text("room_amenity_code").isna()
    flag(both_blank, "amenity_code", text("amenity_code"), "missing_value",
         "the amenity code is blank: give the RMA code (AmenityCode or RoomAmenityCode)")
    out["amenity_code"] = out["amenity_code"].fillna(out["room_amenity_code"])
    counts = {}
    removal = {}
    for name in ("value", "quantity"):
        t = text(name)
        is_word = t.str.strip().str.casefold().isin(REMOVE_WORDS).fillna(False)
        counts[name] = ints(name, "a count (or `remove`)", skip=is_word)
        removal[name] = is_word
    v, q = counts["value"], counts["quantity"]
    differ = v.notna() & q.notna() & (v != q)
    flag(differ, "quantity", text("quantity"), "value_mismatch",
         "`Value` and `Quantity` mean the same count and differ here: keep one of them")
    out["value"] = v.fillna(q)
    out["remove"] = (removal["value"] | removal["quantity"] | out["value"].eq(0).fillna(False)).astype("boolean")
    out["configuration"] = ints("configuration", "1 (standard arrangement) or 2 (alternative arrangement)",
                                 allowed=(1, 2))



def room_keys(rooms: pd.DataFrame, other: pd.DataFrame | None = None) -> pd.Series:
    """The room each row belongs to, as a key ``"HOTEL:INVCODE"`` or, for a room type not created
    yet, ``"HOTEL:RoomID=ID"``.

    With ``other`` (sub-rooms or amenities), each of its rows is matched to a Rooms row by
    ``InvCode`` first, then ``RoomID``; a row whose room is not on the Rooms sheet keeps its own
    InvCode key (an existing room), or ``"HOTEL:RoomID=ID"``; NA when it names no room at all.
    """
    def own(frame: pd.DataFrame) -> pd.Series:
        hotel = frame["hotel_code"].astype("string").fillna("?")
        by_inv = hotel + ":" + frame["inv_code"]
        by_id = hotel + ":RoomID=" + frame["room_id"]
        return by_inv.fillna(by_id).astype("string")

    if other is None:
        key = own(rooms)
        rows = "row" + rooms["row"].astype("string").fillna("?")
        return key.fillna(rooms["hotel_code"].astype("string").fillna("?") + ":" + rows).astype("string")
    room_key = room_keys(rooms)
    hotel = rooms["hotel_code"].astype("string")
    by_inv = {f"{h}:{i}": k for h, i, k in zip(hotel, rooms["inv_code"], room_key, strict=True) if not pd.isna(i)}
    by_id = {f"{h}:{i}": k for h, i, k in zip(hotel, rooms["room_id"], room_key, strict=True) if not pd.isna(i)}
    mine = own(other)
    out = []
    for h, inv, rid, fallback in zip(other["hotel_code"].astype("string"), other["inv_code"], other["room_id"], mine,
                                     strict=True):
        hit = by_inv.get(f"{h}:{inv}") if not pd.isna(inv) else None
        if hit is None and not pd.isna(rid):
            hit = by_id.get(f"{h}:{rid}")
        out.append(hit if hit is not None else fallback)
    return pd.Series(out, index=other.index, dtype="string")
