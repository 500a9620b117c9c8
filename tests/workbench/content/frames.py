"""Content frames built by hand with the contract's columns (the loader lands on another branch), and a
``ContentCheck``-like object (``parts``, ``issues``, ``files``) for the flows."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from loaders import ISSUE_COLUMNS
from workbench.ota.content_notif import KEY_COLUMNS, PART_COLUMNS, PARTS

PROVENANCE = {"source": "string", "sheet": "string", "row": "Int64"}


def frame(part: str, rows: list[dict], source: str = "content.xlsx") -> pd.DataFrame:
    """One part's frame: ``rows`` give ``hotel_code`` or ``custom_id`` and the part's columns; the rest is blank;
    rows are numbered as in Excel (2, 3, ...) on the sheet named like the part."""
    columns = {**KEY_COLUMNS, **PART_COLUMNS[part], **PROVENANCE}
    data: dict[str, list] = {c: [] for c in columns}
    for n, r in enumerate(rows, start=2):
        for c, t in columns.items():
            if c == "property":
                v = str(r["hotel_code"]) if r.get("hotel_code") is not None else r.get("custom_id")
            elif c == "source":
                v = source
            elif c == "sheet":
                v = part
            elif c == "row":
                v = r.get("row", n)
            else:
                v = r.get(c)
                if t == "object" and v is None:
                    v = []
            data[c].append(v)
    out = {}
    for c, t in columns.items():
        if t == "object":
            out[c] = pd.Series(data[c], dtype=object)
        elif t.startswith("datetime"):
            out[c] = pd.to_datetime(pd.Series(data[c], dtype=object)).astype("datetime64[ns]")
        elif t == "float64":
            out[c] = pd.Series([float("nan") if v is None else v for v in data[c]], dtype="float64")
        else:
            out[c] = pd.Series([pd.NA if v is None else v for v in data[c]], dtype=t)
    result = pd.DataFrame(out)
    result.attrs["headers"] = {}
    return result


def parts(**rows: list[dict]) -> dict[str, pd.DataFrame]:
    """Every part (empty ones too), as ``loaders.read_content`` gives them."""
    return {p: frame(p, rows.get(p, [])) for p in PARTS}


NEW_ID = "PARTNER-7"
EXISTING = 1000001


def new_property(**extra: object) -> dict[str, list[dict]]:
    """The minimum to create a property (spec E4), and a few parts besides."""
    key = {"custom_id": NEW_ID}
    contact = {**key, "address_language": "en", "city": "Amsterdam", "postcode": "1011 AB", "country": "NL",
               "given_name": "Anna", "surname": "Jansen", "email": "anna@example.com", "phone": "+31201234567",
               "phone_tech_type": 1}
    return {
        "Property": [{**key, "hotel_name": "Canal House", "language_code": "en", "currency_code": "EUR",
                      "target": "Test", "property_class_code": 20, "sellable_units": 12, "latitude": 52.3731,
                      "longitude": 4.8922, "legal_entity_id": 4711, "check_in_time": "14:00-22:00",
                      "check_out_time": "11:00", "star_rating": 4, "booking_model": "IB", **extra}],
        "Contacts": [{**contact, "profile_type": "PhysicalLocation", "address_line": "Prinsengracht 1",
                      "address_hotel_name": "Grachtenhuis"},
                     {**contact, "profile_type": "general"}, {**contact, "profile_type": "invoices"},
                     {**key, "profile_type": "general", "email": "desk@example.com"}],
        "Languages": [{**key, "language_code": "en"}, {**key, "language_code": "nl"}],
        "Fees": [{**key, "code": 5009, "amount": 25.0, "type": "Conditional",
                  "conditions": ["guest_smokes", "guest_brings_pet"]}],
    }


def existing_property(**parts_rows: list[dict]) -> dict[str, list[dict]]:
    key = {"hotel_code": EXISTING}
    base: dict[str, list[dict]] = {
        "Property": [{**key, "hotel_name": "Old Harbour Hotel", "language_code": "en", "target": "Test",
                      "check_in_time": "15:00", "check_out_time": "10:00"}],
        "Taxes": [{**key, "code": 36, "percent": 9.0, "type": "Inclusive"}],
        "Fees": [{**key, "code": 5035, "amount": 5.0, "type": "Exclusive", "internet_type": "wifi"}],
    }
    base.update({p: [{**key, **r} for r in rows] for p, rows in parts_rows.items()})
    return base


@dataclass
class Check:
    """What ``workbench.flows.content.ContentCheck`` gives a push: ``parts``, ``issues``, ``files``."""

    parts: dict[str, pd.DataFrame]
    issues: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=ISSUE_COLUMNS))
    files: list[Path] = field(default_factory=lambda: [Path("content.xlsx")])


def check_of(*properties: dict[str, list[dict]], issues: pd.DataFrame | None = None) -> Check:
    rows: dict[str, list[dict]] = {}
    for prop in properties:
        for p, rs in prop.items():
            rows.setdefault(p, []).extend(rs)
    c = Check(parts(**rows))
    if issues is not None:
        c.issues = issues
    return c
