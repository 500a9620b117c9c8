"""The sandbox's own routes under ``/_sandbox/``: what tests and demos read (the accepted rates, the
request log, room types, content, the registry's hidden facts) and set (faults, a room type's
active flag), beside the platform's endpoints. No Basic auth, no request log."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from workbench.sandbox.platform.availability_state import AvailabilityStore
from workbench.sandbox.platform.content_state import PARTS
from workbench.sandbox.platform.modular_state import APIS, ModularStore
from workbench.sandbox.platform.modular_tables import (
    bathrooms_csv,
    modular_json,
    room_facilities_csv,
    unit_rooms_csv,
    units_csv,
)
from workbench.sandbox.platform.pipeline import Sandbox
from workbench.sandbox.platform.protocol import new_ruid
from workbench.sandbox.platform.tables import room_rates_csv
from workbench.sandbox.platform.unit_state import units_of

CSV_MEDIA = "text/csv; charset=utf-8"
View = Callable[[Request], Awaitable[Response]]


def _csv(render: Callable[[], str]) -> View:
    async def view(request: Request) -> Response:
        return PlainTextResponse(render(), media_type=CSV_MEDIA)
    return view


def admin_routes(sandbox: Sandbox) -> list[Route]:
    """The ``/_sandbox/`` routes of this sandbox."""

    def room_csv(kind: str) -> View:
        return _csv(lambda: sandbox.room_types.csv(kind))

    async def set_room_active(request: Request) -> Response:
        text = (await request.body()).decode("utf-8", "replace").strip()
        hotel, inv = request.path_params["hotel"], request.path_params["inv"]
        if text not in ("0", "1"):
            return JSONResponse({"error": "send `0` (deactivate) or `1` (activate) as the body", "ruid": new_ruid()},
                                status_code=400)
        if not sandbox.room_types.set_active(hotel, inv, text == "1"):
            return JSONResponse({"error": f"no room type `{inv}` at hotel `{hotel}`", "ruid": new_ruid()},
                                status_code=404)
        return JSONResponse({"hotel_code": hotel, "inv_code": inv, "active": text == "1", "ruid": new_ruid()})

    async def health(request: Request) -> Response:
        return JSONResponse({"status": "ok", "hosts": sandbox.hosts, "today": sandbox.today().isoformat(),
                             "limits": sandbox.limits.limits, "limit_window": sandbox.limits.window,
                             "faults": sandbox.faults.spec.text, "rtb_enabled": sandbox.config.rtb_enabled,
                             "ruid": new_ruid()})

    async def set_faults(request: Request) -> Response:
        text = (await request.body()).decode("utf-8", "replace").strip()
        try:
            sandbox.faults.configure(text)
        except ValueError as exc:
            return JSONResponse({"error": str(exc), "ruid": new_ruid()}, status_code=400)
        return JSONResponse({"faults": text, "ruid": new_ruid()})

    async def content_csv(request: Request) -> Response:
        part = request.path_params["part"]
        if part not in PARTS:
            return JSONResponse({"error": f"no content part `{part}` (known: {', '.join(PARTS)})", "ruid": new_ruid()},
                                status_code=404)
        return PlainTextResponse(sandbox.content.part_csv(part), media_type=CSV_MEDIA)

    async def seed_bookings(request: Request) -> Response:
        try:
            n = sandbox.own(AvailabilityStore).seed_bookings((await request.body()).decode("utf-8", "replace"))
        except ValueError as exc:
            return JSONResponse({"error": str(exc), "ruid": new_ruid()}, status_code=400)
        return JSONResponse({"bookings": n, "ruid": new_ruid()})

    async def modular(request: Request) -> Response:
        api, raw = request.path_params["api"], request.query_params.get("property", "")
        if api not in APIS:
            return JSONResponse({"error": f"no modular API `{api}` (known: {', '.join(APIS)})", "ruid": new_ruid()},
                                status_code=404)
        if not raw.strip().isdigit():
            return JSONResponse({"error": "give the property as ?property=ID", "ruid": new_ruid()}, status_code=400)
        return JSONResponse(modular_json(sandbox.own(ModularStore), sandbox.own(units_of), api, int(raw)))

    routes = [Route(f"/_sandbox/{kind}.csv", room_csv(kind)) for kind in ("rooms", "subrooms", "amenities")]
    routes += [Route("/_sandbox/availability.csv", _csv(lambda: sandbox.own(AvailabilityStore).csv())),
               Route("/_sandbox/bookings", seed_bookings, methods=["POST"])]
    routes += [Route("/_sandbox/modular/{api}.json", modular),
               Route("/_sandbox/units.csv", _csv(lambda: units_csv(sandbox.own(units_of)))),
               Route("/_sandbox/unit_rooms.csv", _csv(lambda: unit_rooms_csv(sandbox.own(units_of)))),
               Route("/_sandbox/room_facilities.csv", _csv(lambda: room_facilities_csv(sandbox.own(ModularStore)))),
               Route("/_sandbox/bathrooms.csv", _csv(lambda: bathrooms_csv(sandbox.own(ModularStore))))]
    routes += [Route("/_sandbox/rooms/{hotel:int}/{inv}/active", set_room_active, methods=["POST"])]
    routes += [Route("/_sandbox/properties.csv", _csv(lambda: sandbox.content.properties_csv(sandbox.registry))),
               Route("/_sandbox/content/{part}.csv", content_csv),
               # facts the platform keeps to itself: for tests only
               Route("/_sandbox/room_rates.csv", _csv(lambda: room_rates_csv(sandbox.registry)))]
    routes += [Route("/_sandbox/rates.csv", _csv(sandbox.store.rates_csv)),
               Route("/_sandbox/requests.csv", _csv(sandbox.store.requests_csv)),
               Route("/_sandbox/health", health), Route("/_sandbox/faults", set_faults, methods=["POST"])]
    return routes
