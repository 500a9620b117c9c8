"""The roomrates family: ``/hotels/xml/roomrates``, the rooms of a property and their rate plans
(the facts it leaves out are in ``/_sandbox/room_rates.csv``, :mod:`workbench.sandbox.platform.tables`)."""

from __future__ import annotations

from lxml import etree

from workbench.ota import localname
from workbench.sandbox.platform.calls import Call, Family, PlatformState, Reply
from workbench.sandbox.platform.endpoints import bxml
from workbench.sandbox.platform.protocol import bxml_body, bxml_error
from workbench.sandbox.platform.seed import Registry

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


async def roomrates_handler(sb: PlatformState, call: Call) -> Reply:
    try:
        root = roomrates(sb.registry, requested_hotel(call.root))
    except LookupError_ as exc:  # the platform answers these in a 200: <error>text</error>
        return Reply(200, bxml_error(exc.text, call.ruid), "errors")
    return Reply(200, bxml_body(root, call.ruid), "success")


ROOMRATES = bxml("roomrates", "rooms")
FAMILY = Family("roomrates", (ROOMRATES,), {ROOMRATES.name: roomrates_handler})
