"""B.XML ``roomrates`` answers (``<rooms>``) read into rows of the loaders' registry columns.

A pure parser: sending the request and building frames is :mod:`workbench.platform.roomrates`.
"""

from __future__ import annotations

from workbench.ota.ns import int_or_none, localname, parse_xml


def request_body(hotel_id: int) -> bytes:
    """The ``roomrates`` request for one property."""
    return f"<request><hotel_id>{int(hotel_id)}</hotel_id></request>".encode("ascii")


def _flag(value: str | None) -> int | None:
    return None if value is None else int(value.strip() in ("1", "true"))


def parse_roomrates(body: bytes, hotel_id: int | None = None) -> tuple[dict, list[dict], list[dict]]:
    """(property row, room rows, room-rate rows) from one ``<rooms>`` answer."""
    root = parse_xml(body)
    if localname(root) != "rooms":
        raise ValueError(f"expected a <rooms> answer, got <{localname(root)}>")
    hotel = int_or_none(root.get("hotel_id")) or hotel_id
    prop = {"hotel_code": hotel, "hotel_name": None, "currency_code": root.get("currency_code"),
            "pricing_model": root.get("pricing_model")}
    rooms, links = [], []
    for room in (c for c in root if isinstance(c.tag, str) and localname(c) == "room"):
        room_hotel = int_or_none(room.get("hotel_id")) or hotel
        prop["hotel_name"] = prop["hotel_name"] or room.get("hotel_name")
        rooms.append({"hotel_code": room_hotel, "inv_type_code": room.get("id"), "room_name": room.get("room_name"),
                      "max_occupancy": int_or_none(room.get("max_occupancy")),
                      "max_adult_occupancy": int_or_none(room.get("max_adults")),
                      "max_child_occupancy": int_or_none(room.get("max_children"))})
        for rate in room.iter("{*}rate"):
            child = rate.get("is_child_rate") == "1"
            links.append({"hotel_code": room_hotel, "inv_type_code": room.get("id"), "rate_plan_code": rate.get("id"),
                          "rate_name": rate.get("rate_name"), "active": 1,
                          "parent_rate_plan_code": rate.get("parent_rate_id") if child else None,
                          "follows_price": _flag(rate.get("follows_price")) if child else 0,
                          "read_only": 1 if rate.get("readonly") == "1" else 0,
                          "max_persons": int_or_none(rate.get("max_persons")), "policy_id": rate.get("policy_id")})
    return prop, rooms, links
