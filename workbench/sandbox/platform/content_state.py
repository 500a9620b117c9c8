"""Property content as the sandbox stores it (SQLite, next to the rates calendar): one row per
property that content was sent for — its HotelCode, custom ``ID``, status (Open or Closed), the
facts shown in ``/_sandbox/properties.csv`` and the last accepted ``HotelDescriptiveContent`` as
XML — and the CSV views of that content, one per part (``/_sandbox/content/<part>.csv``).

An ``Overlay`` replaces the stored content as a whole. A ``New`` hit by ``BuildHotel`` keeps a row
(HotelCode reserved, ``built`` 0, Closed) so the resend of the same request completes that one
property instead of making a second.
"""

from __future__ import annotations

import hashlib
from dataclasses import astuple, dataclass, fields
from datetime import UTC, datetime

from lxml import etree

from workbench.ota import localname, parse_xml
from workbench.sandbox.platform.content_rules import path_all
from workbench.sandbox.platform.seed import Registry
from workbench.sandbox.platform.store import Store
from workbench.sandbox.platform.tables import csv_text

SCHEMA = """
CREATE TABLE IF NOT EXISTS content_properties (hotel_code INTEGER PRIMARY KEY, custom_id TEXT, build_key TEXT,
    built INTEGER, status TEXT, name TEXT, language TEXT, currency TEXT, target TEXT, country TEXT, city TEXT,
    latitude REAL, longitude REAL, booking_model TEXT, build_failures INTEGER, ruid TEXT, updated_at TEXT,
    content TEXT);
CREATE INDEX IF NOT EXISTS content_properties_custom_id ON content_properties (custom_id);
"""

OPEN, CLOSED = "Open", "Closed"
#: ``GET /_sandbox/properties.csv``: the registry's columns first (unchanged), then the content facts.
PROPERTIES_CSV_COLUMNS = ("HotelCode", "HotelName", "CurrencyCode", "PricingModel", "CountryCode", "CustomID",
                          "Status", "Source", "LanguageCode", "Target", "CityName", "Latitude", "Longitude",
                          "BookingModel", "BuildHotelFailures", "Ruid")
#: ``GET /_sandbox/content/<part>.csv``: the elements each part lists, one row per element.
PARTS: dict[str, str] = {
    "contacts": "ContactInfos/ContactInfo",
    "languages": "HotelInfo/Languages/Language",
    "policies": "Policies/Policy/PolicyInfo",
    "cancel_penalties": "Policies/Policy/CancelPolicy/CancelPenalty",
    "guarantee_payments": "Policies/Policy/GuaranteePaymentPolicy/GuaranteePayment",
    "pets": "Policies/Policy/PetsPolicies",
    "taxes": "Policies/Policy/TaxPolicies/TaxPolicy",
    "fees": "Policies/Policy/FeePolicies/FeePolicy",
    "services": "HotelInfo/Services/Service",
    "restaurants": "FacilityInfo/Restaurants/Restaurant",
    "attractions": "AreaInfo/Attractions/Attraction",
    "transport": "HotelInfo/RelativePositions/RelativePosition/Transportations/Transportation/TPA_Extensions/Route/Leg",
    "payments": "HotelInfo/TPA_Extensions/AcceptedPayments/AcceptedPayment",
    "invoice": "HotelInfo/TPA_Extensions/InvoiceDetails",
    "phrases": "TPA_Extensions/StandardPhrases/StandardPhrase",
    "awards": "AffiliationInfo/Awards/Award",
    "tax_info": "TPA_Extensions/PropertyTaxInfo",
}


@dataclass
class ContentProperty:
    hotel_code: int
    custom_id: str | None
    build_key: str
    built: int
    status: str
    name: str | None = None
    language: str | None = None
    currency: str | None = None
    target: str | None = None
    country: str | None = None
    city: str | None = None
    latitude: float | None = None
    longitude: float | None = None
    booking_model: str | None = None
    build_failures: int = 0
    ruid: str = ""
    updated_at: str = ""
    content: str = ""


_COLUMNS = tuple(f.name for f in fields(ContentProperty))


def build_key(hdc: etree._Element) -> str:
    """What makes a resend "the same request": the custom ID, else a digest of the content."""
    custom = next((str(v) for k, v in hdc.attrib.items() if str(k).rsplit("}", 1)[-1] == "ID"), "").strip()
    if custom:
        return f"id:{custom}"
    return "sha256:" + hashlib.sha256(etree.tostring(hdc, method="c14n")).hexdigest()


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class ContentStore:
    """The ``content_properties`` table behind the content handler (tables made on start when missing)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        with store.locked() as db:
            db.executescript(SCHEMA)

    def _select(self, where: str, args: tuple[object, ...]) -> list[ContentProperty]:
        with self.store.locked() as db:
            rows = db.execute(f"SELECT {', '.join(_COLUMNS)} FROM content_properties WHERE {where} "
                              "ORDER BY hotel_code", args).fetchall()
        return [ContentProperty(*r) for r in rows]

    def get(self, hotel_code: int) -> ContentProperty | None:
        found = self._select("hotel_code = ?", (hotel_code,))
        return found[0] if found else None

    def by_custom_id(self, custom_id: str) -> ContentProperty | None:
        found = self._select("custom_id = ?", (custom_id,))
        return found[0] if found else None

    def pending(self, key: str) -> ContentProperty | None:
        """A ``New`` whose build failed (BuildHotel) and that a resend with the same key completes."""
        found = self._select("build_key = ? AND built = 0", (key,))
        return found[0] if found else None

    def created(self, hotel_code: int | None) -> bool:
        """Whether content created this property and its build succeeded (room types can be added to it)."""
        return hotel_code is not None and bool(self._select("hotel_code = ? AND built = 1", (hotel_code,)))

    def all(self) -> list[ContentProperty]:
        return self._select("1 = 1", ())

    def next_hotel_code(self, registry: Registry) -> int:
        with self.store.locked() as db:
            top = db.execute("SELECT MAX(hotel_code) FROM content_properties").fetchone()[0]
        return max([top or 0, *(p.hotel_code for p in registry.properties), 1000000]) + 1

    def save(self, prop: ContentProperty) -> None:
        prop.updated_at = _now()
        with self.store.locked() as db:
            db.execute(f"INSERT OR REPLACE INTO content_properties ({', '.join(_COLUMNS)}) "
                       f"VALUES ({', '.join('?' * len(_COLUMNS))})", astuple(prop))

    # --- CSV views --------------------------------------------------------------------------------
    def properties_csv(self, registry: Registry) -> str:
        """Every property: the registry's (Open unless content closed them) and those made by content."""
        content = {p.hotel_code: p for p in self.all()}
        rows: list[list[object]] = []
        for p in registry.properties:
            c = content.pop(p.hotel_code, None)
            rows.append([p.hotel_code, (c.name if c and c.name else p.name), p.currency, p.pricing_model,
                         (c.country if c and c.country else p.country), *_content_cells(c, "registry")])
        for c in content.values():
            rows.append([c.hotel_code, c.name or "", c.currency or "", "", c.country or "",
                         *_content_cells(c, "content")])
        return csv_text(list(PROPERTIES_CSV_COLUMNS), rows)

    def part_csv(self, part: str) -> str:
        """One row per element of ``part`` in every stored content: ``HotelCode``, then the element's
        attributes, then its descendants' as ``Child/Path@Attribute`` (text as ``Child/Path``; several
        values joined with ``;``)."""
        rows: list[dict[str, str]] = []
        for prop in self.all():
            if not prop.content:
                continue
            hdc = parse_xml(prop.content.encode("utf-8"))
            for el in path_all(hdc, PARTS[part]):
                rows.append({"HotelCode": str(prop.hotel_code), **flatten(el)})
        columns: list[str] = ["HotelCode"]
        for row in rows:
            columns += [k for k in row if k not in columns]
        return csv_text(columns, [[row.get(k, "") for k in columns] for row in rows])


def _content_cells(c: ContentProperty | None, source: str) -> list[object]:
    if c is None:
        return ["", "Open", source, "", "", "", "", "", "", 0, ""]
    return [c.custom_id or "", c.status, source, c.language or "", c.target or "", c.city or "",
            "" if c.latitude is None else c.latitude, "" if c.longitude is None else c.longitude,
            c.booking_model or "", c.build_failures, c.ruid]


def flatten(el: etree._Element) -> dict[str, str]:
    """An element and its descendants as one flat row (see :meth:`ContentStore.part_csv`)."""
    row: dict[str, list[str]] = {}

    def add(key: str, value: str) -> None:
        row.setdefault(key, []).append(value)

    def walk(node: etree._Element, prefix: str) -> None:
        for k, v in node.attrib.items():
            add(f"{prefix}@{str(k).rsplit('}', 1)[-1]}" if prefix else str(k).rsplit("}", 1)[-1], str(v))
        text = (node.text or "").strip()
        if prefix and text:
            add(prefix, text)
        for kid in node:
            if isinstance(kid.tag, str):
                walk(kid, f"{prefix}/{localname(kid)}" if prefix else localname(kid))

    walk(el, "")
    return {k: ";".join(v) for k, v in row.items()}
