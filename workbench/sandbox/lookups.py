"""Read operations: ``/hotels/xml/roomrates`` (rooms and their rate plans), ``/xml/currencies``
and ``/xml/countries`` (code lists from CLDR via babel), and the sandbox-only CSVs of the facts
the platform keeps to itself (``/_sandbox/room_rates.csv``; ``/_sandbox/properties.csv`` is
:mod:`workbench.sandbox.content_state`'s, with the properties content created)."""

from __future__ import annotations

import csv
import io
from functools import lru_cache

from babel import Locale
from babel.numbers import get_currency_name, get_currency_precision, list_currencies
from lxml import etree

from workbench.ota.ns import localname
from workbench.sandbox.seed import Registry

#: Shown on every rate (the fully flexible policy the spec applies when none is given).
DEFAULT_POLICY = ("General", "152")


class LookupError_(ValueError):
    """A read request the platform answers with a B.XML ``<error>text</error>`` (HTTP 200)."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


def requested_hotel(root: etree._Element | None) -> int:
    """``<request><hotel_id>N</hotel_id></request>`` (also ``hotel_id="N"`` on the root)."""
    if root is None or localname(root) != "request":
        raise LookupError_("the request must be <request><hotel_id>...</hotel_id></request>")
    raw = root.get("hotel_id")
    for child in root:
        if isinstance(child.tag, str) and localname(child) == "hotel_id":
            raw = (child.text or "").strip()
    if not raw or not raw.isdigit():
        raise LookupError_("hotel_id is missing or not a number")
    return int(raw)


def roomrates(registry: Registry, hotel_id: int) -> etree._Element:
    """Rooms of one property with their active rate plans, in the shape real partners receive
    (spec E5 shows nothing beyond ``hotel_id``): ``<rooms><room id hotel_id hotel_name max_children
    room_name><rates><rate id rate_name max_persons policy policy_id [is_child_rate="1"]
    [readonly="1"]/>``. Nothing more: no parent rate, no FollowsPrice, no currency, no pricing model
    (the platform sends none of them; :func:`room_rates_csv` and ``/_sandbox/properties.csv`` serve them
    to tests under ``/_sandbox/``). A property not connected: ``<error>…</error>``.
    """
    prop = next((p for p in registry.properties if p.hotel_code == hotel_id), None)
    if prop is None:
        raise LookupError_(f"reading room rates hasn't been enabled for hotel {hotel_id}")
    root = etree.Element("rooms")
    for room in (r for r in registry.rooms if r.hotel_code == hotel_id):
        el = etree.SubElement(root, "room", id=room.inv_type_code, hotel_id=str(hotel_id), hotel_name=prop.name,
                              max_children=str(room.max_children), room_name=room.name)
        rates = etree.SubElement(el, "rates")
        for link in registry.room_rates:
            if link.hotel_code != hotel_id or link.inv_type_code != room.inv_type_code or not link.active:
                continue
            r = etree.SubElement(rates, "rate", id=link.rate_plan_code, rate_name=link.rate_name,
                                 max_persons=str(room.max_occupancy), policy=DEFAULT_POLICY[0],
                                 policy_id=DEFAULT_POLICY[1])
            if link.parent_rate_plan_code:
                r.set("is_child_rate", "1")
            if link.read_only:
                r.set("readonly", "1")
    return root


def csv_text(header: list[str], rows: list[list[object]]) -> str:
    """A CSV document (header row, then ``rows``) as the `/_sandbox/` reads answer it."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    return out.getvalue()


def room_rates_csv(registry: Registry) -> str:
    """Every room-rate link, inactive ones too, with the facts ``roomrates`` does not send
    (``ParentRatePlanCode``, ``FollowsPrice``): the headers of a registry's room-rates sheet."""
    return csv_text(["HotelCode", "InvTypeCode", "RatePlanCode", "RateName", "Active", "ParentRatePlanCode",
                 "FollowsPrice", "ReadOnly"],
                [[r.hotel_code, r.inv_type_code, r.rate_plan_code, r.rate_name, int(r.active),
                  r.parent_rate_plan_code or "", int(r.follows_price), int(r.read_only)] for r in registry.room_rates])


@lru_cache(maxsize=1)
def currencies() -> bytes:
    root = etree.Element("currencies")
    for code in sorted(list_currencies()):
        if len(code) == 3 and code.isalpha():
            etree.SubElement(root, "currency", code=code, name=get_currency_name(code, locale="en"),
                             decimal_places=str(get_currency_precision(code)))
    return etree.tostring(root, encoding="utf-8")


@lru_cache(maxsize=1)
def countries() -> bytes:
    root = etree.Element("countries")
    for code, name in sorted(Locale("en").territories.items()):
        if len(code) == 2 and code.isalpha() and code not in ("ZZ", "XA", "XB", "EU", "EZ", "UN", "QO"):
            etree.SubElement(root, "country", code=code, name=name)
    return etree.tostring(root, encoding="utf-8")
