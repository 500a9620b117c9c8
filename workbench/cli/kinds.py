"""The wrong workbook, recognised before it is read: ``workbench validate rates content.xlsx`` says
"this is a content workbook: use `workbench validate content`" (exit 2) instead of a page of issues.

:func:`workbook_kind` tells a file's kind from its sheet names and the headers in its first rows only
(the header may sit below title rows). It has the signature of ``loaders.workbook_kind`` (being written
with the analyst pages); when that lands, :func:`refuse_other_kind` calls it instead and this reading
goes. A file whose sheets say nothing certain, a folder, or a file that cannot be opened is ``None``:
it is then read as the command asked, and its reader says what is wrong.
"""

from __future__ import annotations

import zipfile
from collections.abc import Iterable, Sequence
from pathlib import Path

from loaders.headers import header_key
from workbench.cli.console import fail

ROWS = 20  # the rows a header is looked for in


def _keys(*names: str) -> frozenset[str]:
    return frozenset(header_key(n) for n in names)


_PRICES = _keys("AmountAfterTax", "AmountBeforeTax", "amount_after_tax", "amount_before_tax", "price")
_RATE_PLAN = _keys("RatePlanCode", "rate_plan_id", "rate_id")
_HOTEL = _keys("HotelCode", "hotel_id", "property_id", "ID")
_AVAILABILITY = _keys("RoomsToSell", "ClosedToArrival", "ClosedToDeparture", "MinStayArrival", "MaxStayArrival",
                      "MinStayThrough", "MaxStayThrough")
_REGISTRY = _keys("Active", "IsChildRate", "ParentRatePlanCode", "FollowsPrice", "ReadOnly")
_PRICING = _keys("PricingModel", "PricingType")
_WAIVERS = _keys("rule", "reason", "expires")
_ROOM_SHEETS = _keys("Rooms", "SubRooms", "Amenities")
_ROOM_HEADERS = _keys("RoomTypeName", "MaxOccupancy", "AmenityCode", "RoomID")
_CONTENT_SHEETS = _keys("Property", "Contacts", "Languages", "Policies", "Taxes", "Fees", "Services", "Restaurants",
                        "Attractions", "Transport", "Payments", "Invoice", "Phrases", "Awards")
#: when sheets of several kinds are found, the first kind of this order is the workbook's
_ORDER = ("content", "rates", "availability", "registry", "waivers", "rooms")
_COMMANDS = ("rates", "rooms", "content", "availability")
_OPTIONS = {"registry": "give it with `--registry`", "waivers": "give it with `--waivers`"}


def sheet_kind(name: str, header: Sequence[str]) -> str | None:
    """The kind one sheet (or CSV file, ``name`` its stem) holds, from its name and header cells."""
    keys = {header_key(h) for h in header if h}
    if header_key(name) in _CONTENT_SHEETS and keys & _HOTEL:
        return "content"
    if keys & _RATE_PLAN and keys & _PRICES:
        return "rates"
    if keys & _AVAILABILITY and keys & _HOTEL:
        return "availability"
    if (keys & _REGISTRY and keys & _RATE_PLAN) or (keys & _PRICING and keys & _HOTEL):
        return "registry"
    if _WAIVERS <= keys:
        return "waivers"
    if keys & _HOTEL and (header_key(name) in _ROOM_SHEETS or keys & _ROOM_HEADERS):
        return "rooms"
    return None


def sheet_kinds(path: str | Path) -> set[str]:
    """The kinds the sheets of ``path`` hold (empty: none certain, or the file cannot be opened)."""
    try:
        return {k for name, header in _headers(Path(path)) if (k := sheet_kind(name, header)) is not None}
    except (OSError, ValueError, KeyError, zipfile.BadZipFile):
        return set()
    except Exception:  # noqa: BLE001 - a damaged file: its reader reports it in its own words
        return set()


def workbook_kind(path: str | Path) -> str | None:
    """``rates``, ``rooms``, ``content``, ``registry``, ``availability``, ``waivers`` or ``None``."""
    found = sheet_kinds(path) if Path(path).is_file() else set()
    return next((k for k in _ORDER if k in found), None)


def wrong_kind_message(found: str, source: str = "", *, command: str = "validate") -> str:
    """``this is a content workbook: use `workbench validate content``` (``command``: the verb typed)."""
    article = "an" if found[0] in "aeiou" else "a"
    how = f"use `workbench {command} {found}`" if found in _COMMANDS else _OPTIONS[found]
    return f"{f'`{source}`' if source else 'this'} is {article} {found} workbook: {how}"


def refuse_other_kind(paths: Iterable[Path], wanted: str, command: str) -> None:
    """One line, exit 2, when a file of ``paths`` is certainly a workbook of another kind than ``wanted``
    (a workbook holding a sheet of ``wanted`` is not refused)."""
    for path in paths:
        found = sheet_kinds(path) if Path(path).is_file() else set()
        if found and wanted not in found:
            kind = next(k for k in _ORDER if k in found)
            fail(wrong_kind_message(kind, Path(path).name, command=command))


def _headers(path: Path) -> list[tuple[str, list[str]]]:
    """Each visible sheet's name and the row of its first rows naming the most known fields."""
    suffix = path.suffix.lower()
    if suffix in {".csv", ".txt", ".tsv"}:
        from loaders import text_files

        data = path.read_bytes()[:256 * 1024]
        text = text_files.decode(data, text_files.detect(data), path.name)
        return [(path.stem, _best(text_files.first_rows(text, ROWS)))]
    if suffix in {".parquet", ".pq"}:
        import pyarrow.parquet as pq

        return [(path.stem, list(pq.read_schema(path).names))]
    if suffix not in {".xlsx", ".xlsm"}:
        return []
    from loaders import xlsx_bounds, xlsx_xml
    from loaders.sheets import sheet_states

    xlsx_bounds.check_archive(path)  # a workbook too big to read is said by its reader, not taken for a kind
    out = []
    for name, state in sheet_states(path).items():
        if state == "visible":
            xlsx_bounds.check_sheet(path, name)
            out.append((name, _best([[r.cells[c] for c in sorted(r.cells)]
                                     for r in xlsx_xml.first_rows(path, name, ROWS).rows])))
    return out


def _best(rows: Sequence[Sequence[str]]) -> list[str]:
    known = _PRICES | _RATE_PLAN | _HOTEL | _AVAILABILITY | _REGISTRY | _PRICING | _WAIVERS | _ROOM_HEADERS
    scored = [(sum(1 for c in row if c and header_key(str(c)) in known), [str(c) for c in row]) for row in rows]
    return max(scored, key=lambda s: s[0], default=(0, []))[1]
