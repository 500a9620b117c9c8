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
from functools import cache
from pathlib import Path

from workbench.cli.console import fail

ROWS = 20  # the rows a header is looked for in


#: the header names (any spelling ``loaders.headers.header_key`` folds together) that tell each kind
NAMES = {
    "prices": ("AmountAfterTax", "AmountBeforeTax", "amount_after_tax", "amount_before_tax", "price"),
    "rate_plan": ("RatePlanCode", "rate_plan_id", "rate_id"),
    "hotel": ("HotelCode", "hotel_id", "property_id", "ID"),
    "availability": ("RoomsToSell", "ClosedToArrival", "ClosedToDeparture", "MinStayArrival", "MaxStayArrival",
                     "MinStayThrough", "MaxStayThrough"),
    "registry": ("Active", "IsChildRate", "ParentRatePlanCode", "FollowsPrice", "ReadOnly"),
    "pricing": ("PricingModel", "PricingType"),
    "waivers": ("rule", "reason", "expires"),
    "room_sheets": ("Rooms", "SubRooms", "Amenities"),
    "room_headers": ("RoomTypeName", "MaxOccupancy", "AmenityCode", "RoomID"),
    "content_sheets": ("Property", "Contacts", "Languages", "Policies", "Taxes", "Fees", "Services", "Restaurants",
                       "Attractions", "Transport", "Payments", "Invoice", "Phrases", "Awards"),
}


@cache
def _keys() -> dict[str, frozenset[str]]:
    """:data:`NAMES` folded (``loaders`` is imported on first use: ``workbench --help`` stays light)."""
    from loaders.headers import header_key

    return {k: frozenset(header_key(n) for n in names) for k, names in NAMES.items()}


#: when sheets of several kinds are found, the first kind of this order is the workbook's
_ORDER = ("content", "rates", "availability", "registry", "waivers", "rooms")
_COMMANDS = ("rates", "rooms", "content", "availability")
_OPTIONS = {"registry": "give it with `--registry`", "waivers": "give it with `--waivers`"}


def sheet_kind(name: str, header: Sequence[str]) -> str | None:
    """The kind one sheet (or CSV file, ``name`` its stem) holds, from its name and header cells."""
    from loaders.headers import header_key

    k = _keys()
    keys = {header_key(h) for h in header if h}
    named = header_key(name)
    if named in k["content_sheets"] and keys & k["hotel"]:
        return "content"
    if keys & k["rate_plan"] and keys & k["prices"]:
        return "rates"
    if keys & k["availability"] and keys & k["hotel"]:
        return "availability"
    if (keys & k["registry"] and keys & k["rate_plan"]) or (keys & k["pricing"] and keys & k["hotel"]):
        return "registry"
    if k["waivers"] <= keys:
        return "waivers"
    if keys & k["hotel"] and (named in k["room_sheets"] or keys & k["room_headers"]):
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
    from loaders.headers import header_key

    k = _keys()
    known = frozenset().union(*(k[n] for n in ("prices", "rate_plan", "hotel", "availability", "registry", "pricing",
                                               "waivers", "room_headers")))
    scored = [(sum(1 for c in row if c and header_key(str(c)) in known), [str(c) for c in row]) for row in rows]
    return max(scored, key=lambda s: s[0], default=(0, []))[1]
