"""The platform sandbox as a Starlette app: :func:`create_app` (mount in-process with
``httpx.ASGITransport``, or serve over HTTPS with :mod:`workbench.sandbox.platform.server`).

The app serves the endpoints of the operation families (:data:`~workbench.sandbox.platform.families.FAMILIES`,
plus any given): one route per path pattern, the endpoint chosen by the request's method, every call
through the pipeline (:class:`~workbench.sandbox.platform.pipeline.Sandbox`); the token exchange
(``POST /token-based-authentication/exchange``, with ``auth="platform"``); and the sandbox's own
``/_sandbox/`` routes (:mod:`~workbench.sandbox.platform.admin`).
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from workbench.sandbox.platform.admin import admin_routes
from workbench.sandbox.platform.calls import Family, Handler
from workbench.sandbox.platform.config import SandboxConfig
from workbench.sandbox.platform.endpoints import JSON, Endpoint, routes_for
from workbench.sandbox.platform.families import FAMILIES
from workbench.sandbox.platform.issues import Issue
from workbench.sandbox.platform.pipeline import Sandbox
from workbench.sandbox.platform.protocol import JSON_MEDIA, XML_MEDIA, bxml_fault, json_body, new_ruid
from workbench.transport.operations import EXCHANGE_PATH


class _KeepRawSend:
    """Outermost ASGI layer: remembers the server's own ``send`` so a fault can drop the connection."""

    def __init__(self, app: Starlette) -> None:
        self.app = app
        self.state = app.state

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            scope["sandbox.raw_send"] = send
        await self.app(scope, receive, send)


def platform_routes(sandbox: Sandbox) -> list[Route]:
    """One route per path pattern of the sandbox's endpoints, answering the methods declared on it."""
    by_path: dict[str, dict[str, Endpoint]] = {}
    for endpoint in sandbox.endpoints:
        for path in routes_for(endpoint):
            by_path.setdefault(path, {})[endpoint.method] = endpoint

    def route(n: int, path: str, by_method: dict[str, Endpoint]) -> Route:
        async def view(request: Request) -> Response:
            method = "GET" if request.method == "HEAD" else request.method
            return await sandbox.handle(request, by_method[method])
        return Route(path, view, methods=list(by_method), name=f"platform{n}")

    return [route(n, path, by_method) for n, (path, by_method) in enumerate(by_path.items())]


def _prefix(path: str) -> str:
    """``/property-api/properties/{propertyId}`` -> ``/property-api/``."""
    return "/" + path.lstrip("/").split("/", 1)[0] + "/"


def create_app(config: SandboxConfig | None = None, handlers: Mapping[str, Handler] | None = None, *,
               families: Iterable[Family] = ()) -> _KeepRawSend:
    """The sandbox ASGI app; ``app.state.sandbox`` is its :class:`Sandbox`. ``families`` are served
    beside the platform's own; ``handlers`` (by endpoint name) replace or add handlers."""
    sandbox = Sandbox(config or SandboxConfig(), handlers, families=(*FAMILIES, *families))

    json_prefixes = {_prefix(e.path) for e in sandbox.endpoints if e.fmt == JSON}

    def json_api(request: Request) -> bool:
        """Whether the path is under a JSON API's prefix (``/property-api/``): answered in its envelope."""
        return _prefix(request.url.path) in json_prefixes

    async def not_found(request: Request, exc: Exception) -> Response:
        if json_api(request):
            known = sorted(f"{e.method} {e.path}" for e in sandbox.endpoints
                           if e.fmt == JSON and _prefix(e.path) == _prefix(request.url.path))
            body = json_body(new_ruid(), errors=[Issue("404", f"no endpoint `{request.url.path}` (known: "
                                                              f"{', '.join(known)})")])
            return Response(body, status_code=404, media_type=JSON_MEDIA)
        body = bxml_fault("404", f"no endpoint `{request.url.path}` (known: "
                          f"{', '.join(e.path for e in sandbox.endpoints)})", new_ruid())
        return Response(body, status_code=404, media_type=XML_MEDIA)

    async def not_allowed(request: Request, exc: Exception) -> Response:
        headers = exc.headers if isinstance(exc, HTTPException) else None
        if json_api(request):
            body = json_body(new_ruid(), errors=[Issue("405", f"`{request.url.path}` does not take {request.method}; "
                                                              f"it takes {(headers or {}).get('Allow', '')}")])
            return Response(body, status_code=405, media_type=JSON_MEDIA, headers=headers)
        return PlainTextResponse("Method Not Allowed", status_code=405, headers=headers)  # as Starlette answers

    exchange = [Route(EXCHANGE_PATH, sandbox.exchange, methods=["POST"])] if sandbox.tokens is not None else []
    app = Starlette(routes=[*platform_routes(sandbox), *exchange, *admin_routes(sandbox)],
                    exception_handlers={404: not_found, 405: not_allowed})
    app.state.sandbox = sandbox
    return _KeepRawSend(app)


def temporary_state_dir() -> Path:
    """A fresh directory for a sandbox that should not outlive the process's temp area."""
    return Path(tempfile.mkdtemp(prefix="workbench-sandbox-"))


__all__ = ["Sandbox", "SandboxConfig", "create_app", "platform_routes", "temporary_state_dir"]
