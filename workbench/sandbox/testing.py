"""Helpers for tests against the sandbox mounted in-process (``httpx.ASGITransport``): a
blocking caller and a small ``OTA_HotelRateAmountNotifRQ`` builder made with lxml.

The real request builder is ``workbench.ota.rate_amount``; this one exists so that the sandbox
can be tested independently of it (and can build deliberately wrong requests).
"""

from __future__ import annotations

import asyncio
import csv
import io
from collections.abc import Mapping, Sequence
from typing import Any

import httpx
from lxml import etree

from workbench.ota.ns import OTA_NS
from workbench.sandbox.app import Sandbox, SandboxConfig, create_app

RATES_PATH = "/hotels/ota/OTA_HotelRateAmountNotif"
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


class InProcess:
    """A sandbox app and a blocking way to call it, without sockets (for fast rule tests)."""

    def __init__(self, config: SandboxConfig | None = None, host: str = "127.0.0.1") -> None:
        self.app = create_app(config or SandboxConfig(password="pw"))
        self.sandbox: Sandbox = self.app.state.sandbox
        self.base_url = f"https://{host}"
        self._loop = asyncio.new_event_loop()
        self._client = httpx.AsyncClient(transport=httpx.ASGITransport(app=self.app), base_url=self.base_url)

    @property
    def auth(self) -> tuple[str, str]:
        return self.sandbox.username, self.sandbox.password

    def request(self, method: str, path: str, body: bytes = b"", headers: Mapping[str, str] | None = None,
                auth: object = "default") -> httpx.Response:
        use_auth = self.auth if auth == "default" else auth
        return self._loop.run_until_complete(self._client.request(
            method, path, content=body, headers=dict(headers or {}), auth=use_auth))  # type: ignore[arg-type]

    def post(self, path: str, body: bytes = b"", headers: Mapping[str, str] | None = None, **kw: Any) -> httpx.Response:
        return self.request("POST", path, body, XML_HEADERS if headers is None else headers, **kw)

    def push(self, body: bytes, **headers: str) -> httpx.Response:
        """POST a rate request with the right headers (``headers`` add or replace, e.g. ``Accept_Version``)."""
        h = {**XML_HEADERS, **{k.replace("_", "-"): v for k, v in headers.items()}}
        return self.post(RATES_PATH, body, h)

    def rates(self) -> list[dict[str, str]]:
        """The accepted calendar (``/_sandbox/rates.csv``) as rows."""
        return list(csv.DictReader(io.StringIO(self.request("GET", "/_sandbox/rates.csv").text)))

    def requests(self) -> list[dict[str, str]]:
        return list(csv.DictReader(io.StringIO(self.request("GET", "/_sandbox/requests.csv").text)))

    def close(self) -> None:
        self._loop.run_until_complete(self._client.aclose())
        self._loop.close()
        self.sandbox.store.close()
