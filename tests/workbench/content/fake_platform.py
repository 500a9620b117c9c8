"""A small stand-in of the platform's E4 side, answering in the published shapes (tests/fixtures/content):
``New`` creates a property once and answers ``UniqueID Type="10"``; ``BuildHotel`` is an injectable fault
(per custom ID: how many sends fail before one succeeds, the property Closed meanwhile); ``Overlay``
replaces the stored content; the request is refused by date from the sunset (CET) like the spec says."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import httpx
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from workbench.ota.content_notif import NEW, parse_content, part_rows

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "content"
PATH = "/hotels/ota/OTA_HotelDescriptiveContentNotif"


def _fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


class FakeContentPlatform:
    def __init__(self) -> None:
        self.ids = itertools.count(2000001)
        self.ruids = itertools.count(1)
        self.properties: dict[int, dict] = {}   # HotelCode -> {"custom_id", "status", "content"}
        self.build_hotel: dict[str, int] = {}    # custom ID -> BuildHotel answers still to give
        self.closed: set[str] = set()            # custom IDs whose build failed (Closed until a resend succeeds)
        self.sent: list[bytes] = []
        self.creations = 0
        self.warn_on_create = False
        self.status: int | None = None           # answer every call with this HTTP status instead

    def _answer(self, name: str, **swap: str) -> tuple[int, bytes]:
        text = _fixture(name)
        ruid = f"fake-ruid-{next(self.ruids)}"
        text = re.sub(r"RUID: \[[^\]]*\]", f"RUID: [{ruid}]", text)
        for old, new in swap.items():
            text = text.replace(old, new)
        return 200, text.encode("utf-8")

    def handler(self, request: httpx.Request) -> httpx.Response:
        """For ``httpx.MockTransport``."""
        status, body = self.respond(request.url.path, request.headers.get("content-type", ""), request.content)
        return httpx.Response(status, content=body, headers={"Content-Type": "application/xml"})

    def app(self) -> Starlette:
        """The same, as an app to serve over HTTPS on loopback."""

        async def endpoint(request: Request) -> Response:
            status, body = self.respond(request.url.path, request.headers.get("content-type", ""),
                                        await request.body())
            return Response(body, status_code=status, media_type="application/xml")

        return Starlette(routes=[Route(PATH, endpoint, methods=["POST"])])

    def respond(self, path: str, content_type: str, body: bytes) -> tuple[int, bytes]:
        assert path == PATH, path
        assert content_type in ("application/xml", "text/xml"), content_type
        self.sent.append(body)
        if self.status is not None:
            return self.status, b"<html>no</html>"
        parts = parse_content(body)
        prop = parts["Property"].iloc[0]
        notif = str(prop["notif_type"])
        if notif == NEW:
            cid = str(prop["custom_id"])
            if self.build_hotel.get(cid, 0) > 0:
                self.build_hotel[cid] -= 1
                self.closed.add(cid)
                return self._answer("build_hotel.xml")
            self.closed.discard(cid)
            code = next(self.ids)
            self.creations += 1
            self.properties[code] = {"custom_id": cid, "status": "Open",
                                     "content": {p: part_rows(f) for p, f in parts.items()}}
            return self._answer("success_warnings.xml" if self.warn_on_create else "success_unique_id.xml",
                                **{'ID="1000123"': f'ID="{code}"', 'ID="1000124"': f'ID="{code}"'})
        code = int(prop["hotel_code"])
        if code not in self.properties:
            return self._answer("errors.xml", **{"Invalid coordinates": "Unknown property",
                                                 "The country of the coordinates (BE) differs from the property "
                                                 "country (NL)": f"Property {code} does not exist"})
        self.properties[code]["content"] = {p: part_rows(f) for p, f in parts.items()}
        return self._answer("success_unique_id.xml", **{'ID="1000123"': f'ID="{code}"'})
