"""A platform answering the Rooms and Facilities APIs from the hand-written fixtures (tests/fixtures/modular, each
folder's SOURCE.md names what it transcribes), through ``httpx.MockTransport``: reads start from the fixtures'
answers, writes apply the published merge semantics (a unit's fields replaced, its ``rooms`` whole; a room
facilities PUT replaces each facility it names; bathrooms replaced whole) and are answered in the published
envelope. Every call is kept (method, path, body) so a test can say exactly what was sent."""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass, field
from typing import Any

import httpx

from tests.workbench.modular.conftest import FIXTURES, data
from workbench.config import Secret, Settings
from workbench.transport import SyncPlatformClient

HOTEL = 7
APARTMENT, DOUBLE = 1048000101, 1048000102
SETTINGS = Settings(base_url="https://platform.test", username="u", password=Secret("p"))


def _answer(payload: Any = None, status: int = 200, errors: list | None = None) -> httpx.Response:
    body = {"data": payload, "warnings": [], "errors": errors or [], "meta": {"ruid": f"ruid-{id(payload) % 10**6}"}}
    return httpx.Response(status, json=body)


@dataclass
class Call:
    method: str
    path: str
    body: Any


@dataclass
class FixturePlatform:
    """The fixtures' property 7: two units (an apartment, a double), the room facilities and bathrooms read."""

    units: dict[int, list[dict]] = field(default_factory=dict)
    facilities: dict[int, list[dict]] = field(default_factory=dict)
    bathrooms: dict[int, dict] = field(default_factory=dict)
    calls: list[Call] = field(default_factory=list)
    next_id: int = 1048000103
    lose_bulk_answer: bool = False  # apply a bulk creation, then drop the connection (the answer is lost)

    def __post_init__(self) -> None:
        if not self.units:
            self.units = {HOTEL: copy.deepcopy(data("rooms", "units_read_answer.json"))}
            self.units[HOTEL][0]["configuration"]["rooms"][1] = {"type": "LIVING_ROOM_SUBROOM", "bed_configurations": [
                {"beds": [{"bed_type_id": 5, "bed_count": 1}], "is_default_configuration": True}]}
            self.facilities = {APARTMENT: data("facilities", "room_read_answer.json"), DOUBLE: []}
            self.bathrooms = {APARTMENT: {"hotel_bathroom_details": {"private_bathroom_state": "PRESENT",
                                                                     "shared_bathroom_state": "MISSING",
                                                                     "number_of_bathrooms": 1}}}

    def writes(self) -> list[Call]:
        return [c for c in self.calls if c.method != "GET"]

    def unit(self, uid: int) -> dict:
        return next(u for us in self.units.values() for u in us if u["unit_id"] == uid)

    def handle(self, request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content) if request.content else None
        path, method = request.url.path, request.method
        self.calls.append(Call(method, path, body))
        meta = re.fullmatch(r"/(rooms|facilities)-api/meta", path)
        if meta:
            return httpx.Response(200, content=(FIXTURES / meta[1] / "meta_answer.json").read_bytes())
        if m := re.fullmatch(r"/property-api/properties/(\d+)", path):
            return _answer({"property_id": int(m[1]), "booking_property_category": 204})
        if m := re.fullmatch(r"/rooms-api/properties/(\d+)/units", path):
            return _answer(self.units.get(int(m[1]), []))
        if m := re.fullmatch(r"/rooms-api/properties/(\d+)/units/(\d+)", path):
            unit = self.unit(int(m[2]))
            unit.update(copy.deepcopy(body))  # the fields sent replace the stored ones, rooms as a whole
            return _answer(None)
        if path == "/rooms-api/units" and method == "POST":
            return self._bulk(body)
        if m := re.fullmatch(r"/facilities-api/properties/(\d+)/rooms/(\d+)", path):
            uid = int(m[2])
            if method == "GET":
                return _answer(self.facilities.get(uid, []))
            named = {f["room_facility_id"] for f in body}
            self.facilities[uid] = [f for f in self.facilities.get(uid, []) if f["room_facility_id"] not in named] + \
                [f for f in body if f["state"] == "PRESENT"]
            return _answer({"success": True})
        if m := re.fullmatch(r"/facilities-api/properties/(\d+)/rooms/(\d+)/bathrooms", path):
            uid = int(m[2])
            if method == "GET":
                return _answer(self.bathrooms.get(uid))
            self.bathrooms[uid] = body
            return _answer({"success": True})
        return _answer(None, 404, [{"message": "Not found", "code": 404}])

    def _bulk(self, body: dict) -> httpx.Response:
        made = []
        for unit in body["units"]:
            stored = {k: v for k, v in unit.items() if k not in ("property_id", "correlation_id", "unit_name_source")}
            stored["unit_id"] = self.next_id
            self.next_id += 1
            self.units.setdefault(unit["property_id"], []).append(stored)
            made.append({**unit, "unit_id": stored["unit_id"]})
        if self.lose_bulk_answer:
            self.lose_bulk_answer = False
            raise httpx.ReadError("connection dropped after the bulk creation was applied")
        return _answer({"units": made})

    def client(self) -> SyncPlatformClient:
        return SyncPlatformClient(SETTINGS, transport=httpx.MockTransport(self.handle))
