"""B.XML ``roomrates`` answers (``<rooms>``) read into rows of the loaders' registry columns.

A pure parser: sending the request and building frames is :mod:`workbench.platform.roomrates`.

Spec E5 shows the bodies of ``/hotels/xml/roomrates`` "not shown beyond hotel_id"; the shape real
partners receive is ``<rooms><room id hotel_id hotel_name max_children room_name><rates><rate id
rate_name max_persons policy policy_id [is_child_rate="1"] [readonly="1"]/></rates></room></rooms>``.
Every shape the platform is known to send is read (fixtures: ``tests/fixtures/roomrates/``):

- with or without a namespace, values as attributes or as child elements (``<id>5001</id>``),
  ``<rate>`` inside ``<rates>`` or directly in ``<room>``;
- flags written ``1``/``0``, ``true``/``false`` or ``yes``/``no``.

What the platform does not send stays unknown (``None``), never guessed: it says nothing about
``FollowsPrice``, the property's currency or its pricing model, and names no parent of a child
rate. Where an answer does carry them (``follows_price``, ``parent_rate_id``, ``currency_code``,
``pricing_model``, ``max_adults``, ``max_occupancy``) they are read, so nothing is lost.
"""

from __future__ import annotations

from lxml import etree

from workbench.ota.ns import int_or_none, localname, parse_xml

_TRUE = ("1", "true", "yes", "y")
_FALSE = ("0", "false", "no", "n", "")


def request_body(hotel_id: int) -> bytes:
    """The ``roomrates`` request for one property."""
    return f"<request><hotel_id>{int(hotel_id)}</hotel_id></request>".encode("ascii")


def bxml_value(el: etree._Element, name: str) -> str | None:
    """A B.XML answer's value: ``name`` as an attribute (any namespace) or, failing that, a child element's text."""
    for key, value in el.attrib.items():
        if key.rsplit("}", 1)[-1] == name:
            return value.strip()
    for c in el:
        if isinstance(c.tag, str) and localname(c) == name and len(c) == 0:
            return (c.text or "").strip()
    return None


def bxml_flag(value: str | None) -> int | None:
    """A B.XML flag: 1, 0, or None when not sent (or not a flag)."""
    if value is None:
        return None
    v = value.strip().casefold()
    return 1 if v in _TRUE else 0 if v in _FALSE else None


def _descendants(el: etree._Element, name: str, stop: str | None = None) -> list[etree._Element]:
    """Elements called ``name`` under ``el``, not looking inside elements called ``stop``."""
    out = []
    for c in el:
        if not isinstance(c.tag, str):
            continue
        local = localname(c)
        if local == name:
            out.append(c)
        elif local != stop:
            out.extend(_descendants(c, name, stop))
    return out


def _rooms_root(root: etree._Element) -> etree._Element:
    if localname(root) == "rooms":
        return root
    found = _descendants(root, "rooms")
    if not found:
        raise ValueError(f"expected a <rooms> answer, got <{localname(root) or '?'}>")
    return found[0]


def parse_roomrates(body: bytes, hotel_id: int | None = None) -> tuple[dict, list[dict], list[dict]]:
    """(property row, room rows, room-rate rows) from one ``<rooms>`` answer.

    ``hotel_id`` (the one asked for) is used when the answer does not name it. A rate listed is
    active for its room; ``is_child_rate`` is 1 when flagged (or when the answer names a parent),
    0 when not; ``follows_price`` and ``parent_rate_plan_code`` are None unless the answer says.
    """
    root = _rooms_root(parse_xml(body))
    hotel = int_or_none(bxml_value(root, "hotel_id")) or hotel_id
    prop = {"hotel_code": hotel, "hotel_name": bxml_value(root, "hotel_name"),
            "currency_code": (bxml_value(root, "currency_code") or None),
            "pricing_model": (bxml_value(root, "pricing_model") or None)}
    rooms, links = [], []
    for room in _descendants(root, "room"):
        room_hotel = int_or_none(bxml_value(room, "hotel_id")) or hotel
        room_id = bxml_value(room, "id")
        prop["hotel_code"] = prop["hotel_code"] or room_hotel
        prop["hotel_name"] = prop["hotel_name"] or bxml_value(room, "hotel_name")
        rooms.append({"hotel_code": room_hotel, "inv_type_code": room_id, "room_name": bxml_value(room, "room_name"),
                      "max_occupancy": int_or_none(bxml_value(room, "max_occupancy")),
                      "max_adult_occupancy": int_or_none(bxml_value(room, "max_adults")),
                      "max_child_occupancy": int_or_none(bxml_value(room, "max_children"))})
        for rate in _descendants(room, "rate", stop="room"):
            parent = bxml_value(rate, "parent_rate_id") or None
            child = bxml_flag(bxml_value(rate, "is_child_rate"))
            links.append({"hotel_code": room_hotel, "inv_type_code": room_id, "rate_plan_code": bxml_value(rate, "id"),
                          "rate_name": bxml_value(rate, "rate_name"), "active": 1,
                          "is_child_rate": 1 if child == 1 or parent else 0,
                          "parent_rate_plan_code": parent,
                          "follows_price": bxml_flag(bxml_value(rate, "follows_price")),
                          "read_only": bxml_flag(bxml_value(rate, "readonly")) or bxml_flag(bxml_value(rate, "read_only")) or 0,
                          "max_persons": int_or_none(bxml_value(rate, "max_persons")),
                          "policy_id": bxml_value(rate, "policy_id")})
    return prop, rooms, links
