"""Which kind of workbook a file is (rates, rooms, content, registry, availability, waivers), told
from its sheet names and headers alone, so a command given the wrong one says so before reading it.

>>> workbook_kind("data/samples/content.xlsx")
'content'

Only the first rows of each sheet are looked at (the header may sit below title rows). A file
whose sheets say nothing certain is ``None``: it is then read as the command asked, as before.
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterable, Sequence
from pathlib import Path

from loaders.errors import LoadError
from loaders.header_rows import HEADER_SEARCH_ROWS, looks_like_date
from loaders.headers import header_key
from loaders.own_sheets import is_lock_file, own_sheets

KINDS = ("rates", "rooms", "content", "registry", "availability", "waivers")


def _keys(*names: str) -> frozenset[str]:
    return frozenset(header_key(n) for n in names)


_PRICES = _keys("AmountAfterTax", "AmountBeforeTax", "amount_after_tax", "amount_before_tax", "price_after_tax",
                "price_before_tax", "amount", "price")
_CURRENCY = _keys("CurrencyCode", "currency", "currency_code")
_RATE_PLAN = _keys("RatePlanCode", "rate_plan_id", "rate_id", "rate_plan")
_HOTEL = _keys("HotelCode", "hotel_id", "hotel", "property_id", "property", "ID")
_AVAILABILITY = _keys("RoomsToSell", "Closed", "ClosedToArrival", "ClosedToDeparture", "MinStayArrival",
                      "MaxStayArrival", "MinStayThrough", "MaxStayThrough")
_REGISTRY_RATES = _keys("Active", "is_active", "IsChildRate", "ChildRate", "is_child_rate", "ParentRatePlanCode",
                        "parent_rate_id", "FollowsPrice", "ReadOnly", "RateName", "rate_name")
_REGISTRY_PROPERTIES = _keys("PricingModel", "PricingType", "pricing_model", "pricing")
_WAIVER_RULE = _keys("rule", "issue", "check")
_WAIVER_REASON = _keys("reason", "why", "comment")
_WAIVER_OTHER = _keys("who", "waived_by", "approved_by", "expires", "expiry", "expires_on", "valid_until")
_ROOM_SHEETS = _keys("Rooms", "RoomTypes", "SubRooms", "Amenities", "RoomAmenities")
_ROOM_HEADERS = _keys("RoomType", "RoomTypeName", "MaxOccupancy", "SubRoom", "AmenityCode", "RoomAmenityCode",
                      "InvCode", "RoomID")
_NOTES = _keys("About", "Notes", "ReadMe")
_CONTENT_PARTS = _keys("Property", "Contacts", "Languages", "Policies", "Taxes", "Fees", "Services", "Restaurants",
                       "Attractions", "Transport", "Payments", "Invoice", "Phrases", "Awards", "Contact",
                       "ContactInfos", "Policy", "Tax", "Fee", "Service", "Restaurant", "Attraction", "Payment")
#: when sheets of several kinds are found, the first kind of this order is the workbook's
_ORDER = ("content", "availability", "rates", "registry", "waivers", "rooms")
#: a number Excel stores for a date header (2009 to 2064)
_SERIAL = re.compile(r"^[45]\d{4}(\.0+)?$")

#: how to read each kind, for the command line and for Python
_COMMANDS = ("rates", "rooms", "content", "availability")
_OPTIONS = {"registry": "give it with `--registry`", "waivers": "give it with `--waivers`"}
_PYTHON = {"rates": "use `check_rates`", "rooms": "use `check_rooms`", "content": "use `check_content`",
           "availability": "use `check_availability`", "registry": "give it as `registry=`",
           "waivers": "give it as `waivers=`"}


def sheet_kind(name: str, header: Sequence[str]) -> str | None:
    """The kind of data one sheet (or CSV file, ``name`` its file stem) holds, from its name and
    header cells; ``None`` when they say nothing certain."""
    keys = {header_key(h) for h in header if h}
    named = header_key(name)
    dates = sum(1 for h in header if h and (looks_like_date(h) or _SERIAL.match(h.strip())))
    if named in _CONTENT_PARTS and keys & _HOTEL:
        return "content"
    if keys & _HOTEL and (keys & _AVAILABILITY or (named in _AVAILABILITY and dates >= 1)):
        return "availability"  # a wide availability sheet is named after its value (``RoomsToSell``)
    if keys & _RATE_PLAN and (keys & _PRICES or (dates >= 3 and keys & _CURRENCY)):
        return "rates"
    if keys & _RATE_PLAN and keys & _REGISTRY_RATES:
        return "registry"
    if keys & _HOTEL and keys & _REGISTRY_PROPERTIES:
        return "registry"
    if keys & _WAIVER_RULE and keys & _WAIVER_REASON and keys & _WAIVER_OTHER:
        return "waivers"
    if keys & _HOTEL and (named in _ROOM_SHEETS or keys & _ROOM_HEADERS):
        return "rooms"
    return None


def kind_of_sheets(sheets: Iterable[tuple[str, Sequence[str]]]) -> str | None:
    """The kind of a workbook from its ``(sheet name, header cells)``: the kinds its sheets hold,
    the first of :data:`_ORDER` winning (a registry's ``Rooms`` sheet does not make it a rooms workbook)."""
    found = {k for name, header in sheets if (k := sheet_kind(name, header)) is not None}
    return next((k for k in _ORDER if k in found), None)


def workbook_kinds(path: str | Path) -> set[str]:
    """Every kind the sheets of ``path`` hold (a folder: its files' one kind when they agree); empty when
    nothing is certain or the file cannot be opened (its reader then says why)."""
    path = Path(path)
    if path.is_dir():
        kinds = {workbook_kind(p) for p in sorted(path.rglob("*")) if p.is_file() and not _hidden(p, path)}
        kinds.discard(None)
        return {k for k in kinds if k is not None} if len(kinds) == 1 else set()
    try:
        return {k for name, header in _headers(path) if (k := sheet_kind(name, header)) is not None}
    except (OSError, ValueError, KeyError, zipfile.BadZipFile, LoadError):
        return set()
    except Exception:  # noqa: BLE001 - a damaged file: the reader reports it with its own words
        return set()


def workbook_kind(path: str | Path) -> str | None:
    """``rates``, ``rooms``, ``content``, ``registry``, ``availability``, ``waivers`` or ``None``
    (not certain, a folder of mixed files, a file that cannot be opened: the reader says why)."""
    found = workbook_kinds(path)
    return next((k for k in _ORDER if k in found), None)


def other_kind(path: str | Path, wanted: str) -> str | None:
    """The kind ``path`` certainly is when that is not ``wanted`` (the workbook's kind, :func:`workbook_kind`:
    a registry's ``Rooms`` sheet does not make it a rooms workbook); ``None`` when it may be read as ``wanted``."""
    found = workbook_kind(path)
    return None if found == wanted else found


def _hidden(p: Path, root: Path) -> bool:
    return any(part.startswith((".", "_")) for part in p.relative_to(root).parts) or is_lock_file(p)


def _headers(path: Path) -> list[tuple[str, list[str]]]:
    """Each sheet's name and its likeliest header row (the first of its first rows naming most
    known fields); a CSV file is one sheet named after its file."""
    suffix = path.suffix.lower()
    if is_lock_file(path):
        return []
    if suffix in {".csv", ".txt", ".tsv"}:
        from loaders import text_files

        data = path.read_bytes()[:256 * 1024]
        text = text_files.decode(data, text_files.detect(data), path.name)
        return [(path.stem, _best_row(text_files.first_rows(text, HEADER_SEARCH_ROWS)))]
    if suffix in {".parquet", ".pq"}:
        import pyarrow.parquet as pq

        return [(path.stem, list(pq.read_schema(path).names))]
    if suffix in {".xlsx", ".xlsm"}:
        from loaders import xlsx_bounds, xlsx_xml
        from loaders.sheets import sheet_states

        xlsx_bounds.check_archive(path)  # a bomb is refused by the reader, in its words, never opened here
        skip = own_sheets(path)
        out = []
        for name, state in _sheet_names(path, sheet_states(path)):
            if state != "visible" or name in skip or header_key(name) in _NOTES:
                continue
            xlsx_bounds.check_sheet(path, name)
            rows = xlsx_xml.first_rows(path, name, HEADER_SEARCH_ROWS).rows
            out.append((name, _best_row([[r.cells[c] for c in sorted(r.cells)] for r in rows])))
        return out
    import fastexcel

    skip = own_sheets(path)
    reader = fastexcel.read_excel(str(path))
    out = []
    for name in reader.sheet_names:
        if name in skip or header_key(name) in _NOTES:
            continue
        table = reader.load_sheet(name, header_row=None, n_rows=HEADER_SEARCH_ROWS).to_arrow()
        cells = [[("" if v is None else str(v)) for v in row.values()] for row in table.to_pylist()]
        out.append((name, _best_row(cells)))
    return out


def _sheet_names(path: Path, states: dict[str, str]) -> list[tuple[str, str]]:
    if states:
        return list(states.items())
    import fastexcel

    return [(n, "visible") for n in fastexcel.read_excel(str(path)).sheet_names]


def _best_row(rows: Sequence[Sequence[str]]) -> list[str]:
    """The row of ``rows`` that names the most known fields (the first on a tie)."""
    known = (_PRICES | _RATE_PLAN | _HOTEL | _AVAILABILITY | _REGISTRY_RATES | _REGISTRY_PROPERTIES | _WAIVER_RULE
             | _WAIVER_REASON | _ROOM_HEADERS)
    best: list[str] = []
    score = 0
    for row in rows:
        cells = [str(c).strip() for c in row]
        n = sum(1 for c in cells if c and header_key(c) in known)
        if n > score:
            best, score = cells, n
    return best


def wrong_kind_message(found: str, source: str = "", *, command: str = "validate", python: bool = False) -> str:
    """``this is a content workbook: use `workbench validate content``` (``command``: the verb the
    analyst typed, ``validate`` or ``push``; ``python``: name the function to call instead)."""
    article = "an" if found[0] in "aeiou" else "a"
    it = f"`{source}`" if source else "this"
    if python:  # the flows are called from notebooks and from the commands alike
        how = _PYTHON[found] + (f" (on the command line: `workbench {command} {found}`)" if found in _COMMANDS
                                else "")
    else:
        how = f"use `workbench {command} {found}`" if found in _COMMANDS else _OPTIONS[found]
    return f"{it} is {article} {found} workbook: {how}"


def check_workbook_kind(paths: Iterable[str | Path], wanted: str, *, command: str = "validate",
                        python: bool = False) -> None:
    """``LoadError`` when one of ``paths`` is certainly a workbook of another kind than ``wanted``."""
    for p in paths:
        found = other_kind(p, wanted)
        if found is not None:
            raise LoadError(wrong_kind_message(found, Path(p).name, command=command, python=python),
                            source=Path(p).name)
