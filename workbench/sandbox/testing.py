"""Helpers for tests against the sandbox mounted in-process (``httpx.ASGITransport``): a
blocking caller and small ``OTA_HotelRateAmountNotifRQ``, ``OTA_HotelInvNotifRQ`` and
``OTA_HotelDescriptiveInfoRQ`` builders made with lxml.

The real request builders live in ``workbench.ota``; these exist so that the sandbox can be
tested independently of them (and can build deliberately wrong requests).
"""

from __future__ import annotations

import csv
import functools
import io
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

import httpx
from lxml import etree

from workbench.aio import blocking_portal
from workbench.ota import OTA_NS
from workbench.sandbox.platform.app import create_app
from workbench.sandbox.platform.calls import Family
from workbench.sandbox.platform.config import SandboxConfig
from workbench.sandbox.platform.pipeline import Sandbox

RATES_PATH = "/hotels/ota/OTA_HotelRateAmountNotif"
INV_NOTIF_PATH = "/hotels/ota/OTA_HotelInvNotif"
DESCRIPTIVE_INFO_PATH = "/hotels/ota/OTA_HotelDescriptiveInfo"
CONTENT_PATH = "/hotels/ota/OTA_HotelDescriptiveContentNotif"
XML_HEADERS = {"Content-Type": "application/xml"}


def rate_request(hotel: object, messages: Sequence[Mapping[str, Any]], *, namespace: bool = True,
                 root_hotel: bool = False) -> bytes:
    """Build a rate request. Each message is ``{"control": {attr: value}, "amounts": [{attr: value}, ...]}``;
    values are written as given (``None`` leaves an attribute out)."""
    def q(tag: str) -> str:
        return f"{{{OTA_NS}}}{tag}" if namespace else tag

    root = etree.Element(q("OTA_HotelRateAmountNotifRQ"), nsmap={None: OTA_NS} if namespace else None)
    root.set("Version", "1.0")
    group = etree.SubElement(root, q("RateAmountMessages"))
    if hotel is not None:
        (root if root_hotel else group).set("HotelCode", str(hotel))
    for m in messages:
        msg = etree.SubElement(group, q("RateAmountMessage"))
        etree.SubElement(msg, q("StatusApplicationControl"),
                         {k: str(v) for k, v in m.get("control", {}).items() if v is not None})
        amounts = m.get("amounts", [])
        if amounts:
            holder = etree.SubElement(etree.SubElement(etree.SubElement(msg, q("Rates")), q("Rate")),
                                      q("BaseByGuestAmts"))
            for a in amounts:
                etree.SubElement(holder, q("BaseByGuestAmt"), {k: str(v) for k, v in a.items() if v is not None})
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8")


def message(start: str, end: str, room: str, rate: str, *amounts: Mapping[str, Any], **flags: object) -> dict:
    """One RateAmountMessage for :func:`rate_request`; ``flags`` are weekday attributes (``Sat="true"``)."""
    control = {"Start": start, "End": end, "InvTypeCode": room, "RatePlanCode": rate, **flags}
    return {"control": control, "amounts": list(amounts)}


def product(kind: str | None = "Overlay", inv_code: object = None, *, room: Mapping[str, Any] | None = None,
            name: str | None = None, occupancy: Mapping[str, Any] | None = None,
            quantities: Mapping[str, Any] | None = None, amenities: Sequence[Mapping[str, Any]] | None = None,
            child_payable: object = None, tpa_occupancy: Mapping[str, Any] | None = None,
            sub_rooms: Sequence[Mapping[str, Any]] | None = None, **attrs: object) -> dict:
    """One SellableProduct for :func:`inv_notif_request`. Parts left ``None`` are not sent;
    ``sub_rooms`` items are ``{"attrs": {...}, "amenities": [{...}]}``; ``child_payable`` is a
    shortcut for ``tpa_occupancy={"MaxChildPayableOccupancy": N}``."""
    if child_payable is not None:
        tpa_occupancy = {"MaxChildPayableOccupancy": child_payable}
    return {"attrs": {"InvNotifType": kind, "InvCode": inv_code, **attrs}, "room": room, "name": name,
            "occupancy": occupancy, "quantities": quantities, "amenities": amenities,
            "tpa_occupancy": tpa_occupancy, "sub_rooms": sub_rooms}


def _set(el: etree._Element, values: Mapping[str, Any] | None) -> etree._Element:
    for k, v in (values or {}).items():
        if v is not None:
            el.set(k, str(v))
    return el


def inv_notif_request(hotel: object, products: Sequence[Mapping[str, Any]], *, namespace: bool = True) -> bytes:
    """Build an ``OTA_HotelInvNotifRQ`` (GuestRoom children in the OTA 2014B order)."""
    def q(tag: str) -> str:
        return f"{{{OTA_NS}}}{tag}" if namespace else tag

    def sub(parent: etree._Element, tag: str, values: Mapping[str, Any] | None = None) -> etree._Element:
        return _set(etree.SubElement(parent, q(tag)), values)

    root = etree.Element(q("OTA_HotelInvNotifRQ"), nsmap={None: OTA_NS} if namespace else None)
    root.set("Version", "1.0")
    holder = sub(root, "SellableProducts", {"HotelCode": hotel})
    for p in products:
        guest = sub(sub(holder, "SellableProduct", p["attrs"]), "GuestRoom")
        if p.get("room") is not None:
            sub(guest, "Room", p["room"])
        if p.get("quantities") is not None:
            sub(guest, "Quantities", p["quantities"])
        if p.get("occupancy") is not None:
            sub(guest, "Occupancy", p["occupancy"])
        if p.get("amenities") is not None:
            amenities = sub(guest, "Amenities")
            for a in p["amenities"]:
                sub(amenities, "Amenity", a)
        if p.get("name") is not None:
            sub(sub(guest, "Description"), "Text").text = p["name"]
        if p.get("tpa_occupancy") is not None or p.get("sub_rooms") is not None:
            tpa = sub(guest, "TPA_Extensions")
            if p.get("tpa_occupancy") is not None:
                sub(tpa, "Occupancy", p["tpa_occupancy"])
            if p.get("sub_rooms") is not None:
                subs = sub(tpa, "SubRooms")
                for s in p["sub_rooms"]:
                    el = sub(subs, "SubRoom", s.get("attrs"))
                    if s.get("amenities"):
                        amenities = sub(el, "Amenities")
                        for a in s["amenities"]:
                            sub(amenities, "Amenity", a)
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8")


def descriptive_info_request(*hotels: object, namespace: bool = True) -> bytes:
    def q(tag: str) -> str:
        return f"{{{OTA_NS}}}{tag}" if namespace else tag

    root = etree.Element(q("OTA_HotelDescriptiveInfoRQ"), nsmap={None: OTA_NS} if namespace else None)
    root.set("Version", "1.0")
    infos = etree.SubElement(root, q("HotelDescriptiveInfos"))
    for h in hotels:
        etree.SubElement(infos, q("HotelDescriptiveInfo"), HotelCode=str(h))
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8")


class InProcess:
    """A sandbox app and a blocking way to call it, without sockets (for fast rule tests);
    ``families`` are served beside the platform's own (a family under test)."""

    def __init__(self, config: SandboxConfig | None = None, host: str = "127.0.0.1",
                 families: Iterable[Family] = ()) -> None:
        self.app = create_app(config or SandboxConfig(password="pw"), families=families)
        self.sandbox: Sandbox = self.app.state.sandbox
        self.base_url = f"https://{host}"
        self._portal_cm = blocking_portal()
        self._portal = self._portal_cm.__enter__()
        self._client = httpx.AsyncClient(transport=httpx.ASGITransport(app=self.app), base_url=self.base_url)

    @property
    def auth(self) -> tuple[str, str]:
        return self.sandbox.username, self.sandbox.password

    def request(self, method: str, path: str, body: bytes = b"", headers: Mapping[str, str] | None = None,
                auth: tuple[str, str] | httpx.Auth | None | Literal["default"] = "default") -> httpx.Response:
        use_auth = self.auth if auth == "default" else auth
        return self._portal.call(functools.partial(
            self._client.request, method, path, content=body, headers=dict(headers or {}),
            auth=use_auth))

    def post(self, path: str, body: bytes = b"", headers: Mapping[str, str] | None = None, **kw: Any) -> httpx.Response:
        return self.request("POST", path, body, XML_HEADERS if headers is None else headers, **kw)

    def push(self, body: bytes, **headers: str) -> httpx.Response:
        """POST a rate request with the right headers (``headers`` add or replace, e.g. ``Accept_Version``)."""
        h = {**XML_HEADERS, **{k.replace("_", "-"): v for k, v in headers.items()}}
        return self.post(RATES_PATH, body, h)

    def json(self, method: str, path: str, body: Any = None) -> httpx.Response:
        """Call a modular JSON API (``body`` encoded as JSON; None: no body)."""
        import json

        raw = b"" if body is None else json.dumps(body).encode("utf-8")
        return self.request(method, path, raw, {"Content-Type": "application/json"} if body is not None else {})

    def rates(self) -> list[dict[str, str]]:
        """The accepted calendar (``/_sandbox/rates.csv``) as rows."""
        return list(csv.DictReader(io.StringIO(self.request("GET", "/_sandbox/rates.csv").text)))

    def inv_notif(self, body: bytes) -> httpx.Response:
        return self.post(INV_NOTIF_PATH, body)

    def descriptive_info(self, *hotels: object, namespace: bool = True) -> httpx.Response:
        return self.post(DESCRIPTIVE_INFO_PATH, descriptive_info_request(*hotels, namespace=namespace))

    def content(self, body: bytes) -> httpx.Response:
        """POST an ``OTA_HotelDescriptiveContentNotifRQ`` (written by the test: the sandbox has no builder for it)."""
        return self.post(CONTENT_PATH, body)

    def table(self, kind: str) -> list[dict[str, str]]:
        """``rooms``, ``subrooms``, ``amenities``, ``properties`` or ``content/<part>`` (``/_sandbox/<kind>.csv``)
        as rows."""
        return list(csv.DictReader(io.StringIO(self.request("GET", f"/_sandbox/{kind}.csv").text)))

    def requests(self) -> list[dict[str, str]]:
        return list(csv.DictReader(io.StringIO(self.request("GET", "/_sandbox/requests.csv").text)))

    def close(self) -> None:
        try:
            self._portal.call(self._client.aclose)
        finally:
            self._portal_cm.__exit__(None, None, None)
        self.sandbox.store.close()
