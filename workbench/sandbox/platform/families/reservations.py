"""The reservations family: retrieval (``/xml/reservations``, answered with no reservations) and
confirmation (``OTA_HotelResNotif``, answered ``Success``) on the PCI host only; the
``reservationssummary`` read is catalogued (its limit counts) but not served (501)."""

from __future__ import annotations

from lxml import etree

from workbench.sandbox.platform.calls import Call, Family, PlatformState, Reply
from workbench.sandbox.platform.endpoints import PCI, bxml, ota
from workbench.sandbox.platform.protocol import bxml_body, ota_body

SUMMARY = bxml("reservationssummary", "reservations", 700)
RESERVATIONS = bxml("reservations", "reservations", host=PCI)
RES_NOTIF = ota("OTA_HotelResNotif", host=PCI)


async def reservations(sb: PlatformState, call: Call) -> Reply:
    return Reply(200, bxml_body(etree.Element("reservations"), call.ruid), "success")


async def res_notif(sb: PlatformState, call: Call) -> Reply:
    return Reply(200, ota_body(call.endpoint.name + "RS", call.ruid), "success")


FAMILY = Family("reservations", (SUMMARY, RESERVATIONS, RES_NOTIF),
                {RESERVATIONS.name: reservations, RES_NOTIF.name: res_notif})
