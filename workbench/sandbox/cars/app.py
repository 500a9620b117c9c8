"""The car-search stand-in, for the car search host ({demand_base_url}): a Starlette app with synthetic inventory.

Endpoints (all POST, JSON in and out; ``{v}`` is the configured version, ``3.1`` by default):

- ``/{v}/search``            offers for a pick-up place and time; paginated
- ``/common/languages``      supported language tags (also under ``/{v}/common/languages``)
- ``/{v}/suppliers``         rental companies, each with its own id; paginated
- ``/{v}/depots``            rental desks, each with its own id and its supplier's id; paginated

Every answer carries ``request_id``. Pages: ``metadata.next_page`` is a signed token the client
sends back as the whole body ``{"page": <token>}`` (or, with ``pagination="offset"``,
``metadata.next_offset`` to send with the first body). Errors are ``{request_id, errors: [{id,
message}]}`` with every problem found. ``Authorization: Bearer <key>`` and ``X-Affiliate-Id`` are
checked (Basic/legacy credentials refused); more requests than ``rate_limit_per_minute`` in a
rolling minute get 429 with ``Retry-After``. Inventory is deterministic: the same search always
gives the same offers, sorted by price. Suppliers are fictional.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import math
import random
import secrets
import threading
import uuid
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

if TYPE_CHECKING:
    from workbench.config import Settings

LANGUAGES = {"en-gb": "English (UK)", "en-us": "English (US)", "nl": "Nederlands", "de": "Deutsch",
             "fr": "Français", "es": "Español", "it": "Italiano", "pt-pt": "Português (PT)",
             "pt-br": "Português (BR)", "pl": "Polski", "sv": "Svenska", "da": "Dansk", "no": "Norsk",
             "fi": "Suomi", "cs": "Čeština", "el": "Ελληνικά", "tr": "Türkçe", "ja": "日本語", "zh-cn": "简体中文"}
OR_SIMILAR = {"en": "or similar", "nl": "of vergelijkbaar", "de": "oder ähnlich", "fr": "ou similaire",
              "es": "o similar", "it": "o simile", "pt": "ou similar"}
CURRENCY_PER_EUR = {"EUR": 1.0, "USD": 1.08, "GBP": 0.85, "CHF": 0.95, "SEK": 11.4, "NOK": 11.6, "DKK": 7.46,
                    "PLN": 4.3, "CZK": 25.0, "JPY": 162.0}
SUPPLIERS = [(101, "Tulip Rentals", 1.00), (102, "Northwind Cars", 1.12), (103, "Harbour Hire", 0.92),
             (104, "Bluebird Auto", 1.05), (105, "Polder Drive", 0.88), (106, "Meridian Motors", 1.25),
             (107, "Kite Car Hire", 0.95), (108, "Orange Wheels", 0.98)]
AIRPORTS = {  # IATA: (city, country, latitude, longitude) -- public facts
    "AMS": ("Amsterdam", "nl", 52.3105, 4.7683), "RTM": ("Rotterdam", "nl", 51.9569, 4.4372),
    "EIN": ("Eindhoven", "nl", 51.4501, 5.3745), "LHR": ("London", "gb", 51.4700, -0.4543),
    "EDI": ("Edinburgh", "gb", 55.9500, -3.3725), "CDG": ("Paris", "fr", 49.0097, 2.5479),
    "BCN": ("Barcelona", "es", 41.2974, 2.0833), "FCO": ("Rome", "it", 41.8003, 12.2389),
    "LIS": ("Lisbon", "pt", 38.7742, -9.1342), "FRA": ("Frankfurt", "de", 50.0379, 8.5622),
    "MAD": ("Madrid", "es", 40.4983, -3.5676), "DUB": ("Dublin", "ie", 53.4264, -6.2499),
    "BRU": ("Brussels", "be", 50.9010, 4.4856), "ZRH": ("Zurich", "ch", 47.4582, 8.5555),
}
VEHICLES = [  # name, category, transmission, seats, doors, EUR per day
    ("Fiat 500", "mini", "manual", 4, 3, 27), ("Toyota Aygo X", "mini", "manual", 4, 5, 29),
    ("Volkswagen Polo", "economy", "manual", 5, 5, 34), ("Renault Clio", "economy", "automatic", 5, 5, 38),
    ("Volkswagen Golf", "compact", "manual", 5, 5, 42), ("Ford Focus", "compact", "automatic", 5, 5, 46),
    ("Skoda Octavia Estate", "intermediate", "manual", 5, 5, 52), ("Peugeot 3008", "suv", "automatic", 5, 5, 64),
    ("Volkswagen Touran", "people carrier", "manual", 7, 5, 71), ("BMW 3 Series", "premium", "automatic", 5, 4, 89),
    ("Tesla Model 3", "premium", "automatic", 5, 4, 95), ("Ford Transit", "van", "manual", 9, 4, 110),
]
MISSING, INVALID = "missing_parameter", "invalid_parameter"


@dataclass
class DemandSandboxConfig:
    """What the sandbox accepts and how it pages; ``clock`` is injectable for rate-limit tests."""

    api_key: str
    affiliate_id: str
    version: str = "3.1"
    page_size: int = 25
    static_page_size: int = 20
    pagination: Literal["token", "offset"] = "token"
    rate_limit_per_minute: int | None = None
    results_range: tuple[int, int] = (40, 160)  # offers per search, chosen per query
    overlap: int = 0  # repeat this many offers of the previous page at the top of the next
    seed: int = 7
    clock: Callable[[], datetime] = field(default=lambda: datetime.now(UTC))


class SandboxError(Exception):
    def __init__(self, status: int, errors: list[tuple[str, str]], headers: dict[str, str] | None = None):
        self.status, self.errors, self.headers = status, errors, headers or {}


class DemandSandbox:
    """The sandbox's state: config, request log (method, path, status) and injected faults."""

    def __init__(self, config: DemandSandboxConfig) -> None:
        self.config = config
        self.log: list[tuple[str, str, int]] = []
        self._faults: deque[tuple[int, float | None]] = deque()
        self._window: deque[datetime] = deque()
        self._lock = threading.Lock()
        self._secret = hashlib.sha256(f"demand-sandbox-{config.seed}".encode()).digest()
        self.depots = _depots()
        self._inventory: dict[str, list[dict[str, Any]]] = {}  # recent searches' offers, oldest first

    def inject_faults(self, *statuses: int, retry_after: float | None = None) -> None:
        """Answer the next requests with these statuses (e.g. ``503, 502``), once each."""
        with self._lock:
            self._faults.extend((s, retry_after) for s in statuses)

    def paths(self) -> list[str]:
        with self._lock:
            return [p for _, p, _ in self.log]

    def app(self) -> Starlette:
        return Starlette(routes=[Route("/{path:path}", self._dispatch, methods=["GET", "POST", "PUT", "DELETE"])])

    # plumbing ------------------------------------------------------------------------------

    async def _dispatch(self, request: Request) -> JSONResponse:
        rid = uuid.uuid4().hex
        path = "/" + request.path_params["path"]
        try:
            answer = await self._handle(request, path)
            status, body, headers = 200, {"request_id": rid, **answer}, {}
        except SandboxError as exc:
            status, headers = exc.status, exc.headers
            body = {"request_id": rid, "errors": [{"id": i, "message": m} for i, m in exc.errors]}
        with self._lock:
            self.log.append((request.method, path, status))
        return JSONResponse(body, status_code=status, headers=headers)

    async def _handle(self, request: Request, path: str) -> dict[str, Any]:
        with self._lock:
            fault = self._faults.popleft() if self._faults else None
        if fault is not None:
            status, after = fault
            raise SandboxError(status, [("service_unavailable" if status >= 500 else "injected", "injected fault")],
                               {"Retry-After": str(after)} if after is not None else None)
        self._check_auth(request)
        self._check_rate()
        v = self.config.version
        routes = {f"/{v}/search": self._search, "/common/languages": self._languages,
                  f"/{v}/common/languages": self._languages, f"/{v}/suppliers": self._suppliers,
                  f"/{v}/depots": self._depots}
        handler = routes.get(path.rstrip("/"))
        if handler is None:
            first = path.strip("/").split("/")[0]
            hint = f"; this host serves version {v}" if first.replace(".", "").isdigit() and first != v else ""
            raise SandboxError(404, [("not_found", f"no endpoint `{path}`{hint}")])
        if request.method != "POST":
            raise SandboxError(405, [("method_not_allowed", f"`{path}` takes POST, not {request.method}")])
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            raise SandboxError(400, [("invalid_request", "Content-Type must be application/json")])
        try:
            body = json.loads(await request.body() or b"{}")
        except ValueError:
            raise SandboxError(400, [("invalid_request", "the body is not valid JSON")]) from None
        if not isinstance(body, dict):
            raise SandboxError(400, [("invalid_request", "the body must be a JSON object")])
        return handler(body)

    def _check_auth(self, request: Request) -> None:
        auth = request.headers.get("authorization", "")
        scheme, _, token = auth.partition(" ")
        if not auth:
            raise SandboxError(401, [("missing_credentials", "send `Authorization: Bearer <API key>`")])
        if scheme.lower() == "basic":
            raise SandboxError(401, [("legacy_credentials", "legacy XML credentials are not valid for car search; "
                                                            "send the API key as `Authorization: Bearer <key>`")])
        if scheme.lower() != "bearer" or not hmac.compare_digest(token.strip(), self.config.api_key):
            raise SandboxError(401, [("invalid_api_key", "the API key is not valid")])
        aid = request.headers.get("x-affiliate-id")
        if not aid:
            raise SandboxError(400, [(MISSING, "header `X-Affiliate-Id` is required")])
        if aid != self.config.affiliate_id:
            raise SandboxError(403, [("invalid_affiliate_id", "this API key does not belong to that affiliate id")])

    def _check_rate(self) -> None:
        limit = self.config.rate_limit_per_minute
        if limit is None:
            return
        now = self.config.clock()
        with self._lock:
            while self._window and (now - self._window[0]).total_seconds() >= 60:
                self._window.popleft()
            if len(self._window) >= limit:
                wait = max(1, math.ceil(60 - (now - self._window[0]).total_seconds()))
                raise SandboxError(429, [("too_many_requests", f"more than {limit} requests per minute")],
                                   {"Retry-After": str(wait)})
            self._window.append(now)

    # pages ---------------------------------------------------------------------------------

    def _token(self, state: dict[str, Any]) -> str:
        raw = base64.urlsafe_b64encode(json.dumps(state, sort_keys=True, separators=(",", ":")).encode()).decode()
        return raw + "." + hmac.new(self._secret, raw.encode(), "sha256").hexdigest()[:20]

    def _untoken(self, token: object) -> dict[str, Any]:
        raw, _, sig = str(token).rpartition(".")
        good = hmac.new(self._secret, raw.encode(), "sha256").hexdigest()[:20]
        if not raw or not hmac.compare_digest(sig, good):
            raise SandboxError(400, [(INVALID, "`page` is not a page token issued by this service")])
        return dict(json.loads(base64.urlsafe_b64decode(raw)))

    def _paginate(self, items: list[dict[str, Any]], offset: int, size: int, state: dict[str, Any]) -> dict[str, Any]:
        start = max(0, offset - self.config.overlap) if offset else 0
        end = offset + size
        meta: dict[str, Any] = {"total_results": len(items)}
        more = end < len(items)
        if self.config.pagination == "offset":
            meta["next_offset"] = end if more else None
        else:
            meta["next_page"] = self._token({**state, "o": end}) if more else None
        return {"data": items[start:end], "metadata": meta}

    def _offset_of(self, body: dict[str, Any]) -> tuple[dict[str, Any], int]:
        """The search body and offset a request stands for (token, offset or a first page)."""
        if "page" in body:
            state = self._untoken(body["page"])
            return state["q"], int(state["o"])
        offset = body.get("offset", 0)
        if isinstance(offset, bool) or not isinstance(offset, int) or offset < 0:
            raise SandboxError(400, [(INVALID, "`offset` must be a whole number >= 0")])
        return {k: v for k, v in body.items() if k != "offset"}, offset

    # endpoints -----------------------------------------------------------------------------

    def _languages(self, body: dict[str, Any]) -> dict[str, Any]:
        return {"data": [{"code": c, "name": n} for c, n in LANGUAGES.items()], "metadata": {"next_page": None}}

    def _static(self, body: dict[str, Any], kind: str, items: list[dict[str, Any]]) -> dict[str, Any]:
        query, offset = self._offset_of(body)
        if "page" in body and query != {"kind": kind}:
            raise SandboxError(400, [(INVALID, f"`page` is a token of another listing, not of {kind}")])
        return self._paginate(items, offset, self.config.static_page_size, {"q": {"kind": kind}})

    def _suppliers(self, body: dict[str, Any]) -> dict[str, Any]:
        items = [{"id": sid, "name": name, "logo_url": f"https://cars.sandbox.example/logos/{sid}.png",
                  "rating": {"average": round(6.5 + 3 * (sid % 5) / 4, 1)}} for sid, name, _ in SUPPLIERS]
        return self._static(body, "suppliers", items)

    def _depots(self, body: dict[str, Any]) -> dict[str, Any]:
        return self._static(body, "depots", self.depots)

    def _search(self, body: dict[str, Any]) -> dict[str, Any]:
        query, offset = self._offset_of(body)
        offers = self._offers(query)
        return self._paginate(offers, offset, self.config.page_size, {"q": query})

    # inventory -----------------------------------------------------------------------------

    def _offers(self, q: dict[str, Any]) -> list[dict[str, Any]]:
        s = validate_search(q, self.config.clock())
        key = json.dumps([s["pickup_at"], s["dropoff_at"], s["pickup"], s["dropoff"], s["age"], s["currency"],
                          s["languages"][0], s["filters"], self.config.seed], sort_keys=True)
        with self._lock:
            cached = self._inventory.get(key)
        if cached is None:
            cached = self._generate(s)
            with self._lock:
                if len(self._inventory) >= 64:
                    self._inventory.pop(next(iter(self._inventory)))
                self._inventory[key] = cached
        return cached

    def _generate(self, s: dict[str, Any]) -> list[dict[str, Any]]:
        # the same trip gives the same offers in every currency, language and filter
        key = json.dumps([s["pickup_at"], s["dropoff_at"], s["pickup"], s["dropoff"], s["age"], self.config.seed])
        rng = random.Random(hashlib.sha256(key.encode()).hexdigest())
        here = [d for d in self.depots if d["location"]["airport"] == s["pickup"]]
        there = [d for d in self.depots if d["location"]["airport"] == s["dropoff"]]
        if not here or not there:
            return []
        days = max(1, math.ceil((s["dropoff_dt"] - s["pickup_dt"]).total_seconds() / 86400))
        age_factor = 1.3 if s["age"] < 25 else 1.15 if s["age"] > 70 else 1.0
        rate = CURRENCY_PER_EUR[s["currency"]]
        lang = s["languages"][0].split("-")[0]
        factors = {sid: f for sid, _, f in SUPPLIERS}
        offers = []
        for i in range(rng.randint(*self.config.results_range)):
            depot = rng.choice(here)
            same = [d for d in there if d["supplier"] == depot["supplier"]]
            name, cat, gear, seats, doors, per_day = rng.choice(VEHICLES)
            ret = depot if s["pickup"] == s["dropoff"] else (same[0] if same else None)
            if ret is None:  # a one-way rental needs the same supplier at both ends
                continue
            price = round(per_day * days * factors[depot["supplier"]] * age_factor * rng.uniform(0.85, 1.25) * rate, 2)
            oid = f"{s['pickup']}-{hashlib.sha256(f'{key}{i}'.encode()).hexdigest()[:10]}"
            web = (f"https://cars.sandbox.example/{s['languages'][0]}/book?offer={oid}&aid={self.config.affiliate_id}"
                   f"&currency={s['currency']}&prefs=air%20con%2Bgps")
            offers.append({
                "id": oid, "supplier": depot["supplier"],
                "pickup": {"depot": depot["id"], "datetime": s["pickup_at"]},
                "dropoff": {"depot": ret["id"], "datetime": s["dropoff_at"]},
                "vehicle": {"name": f"{name} {OR_SIMILAR.get(lang, OR_SIMILAR['en'])}", "category": cat,
                            "transmission": gear, "seats": seats, "doors": doors, "air_conditioning": cat != "van"},
                # amounts arrive as strings or numbers, as the real service sends them
                "price": {"total": f"{price:.2f}" if i % 3 == 0 else price, "currency": s["currency"]},
                "url": {"web": web, "app": f"carsandbox://offer/{oid}?affiliate_id={self.config.affiliate_id}"
                                           f"&lang={s['languages'][0]}"},
                "mileage": {"unlimited": i % 4 != 0, "limit_km": None if i % 4 else 200 * days},
                "fuel_policy": "full_to_full" if i % 5 else "same_to_same",
            })
        f = s["filters"]
        offers = [o for o in offers if (not f.get("transmission") or o["vehicle"]["transmission"] == f["transmission"])
                  and (not f.get("suppliers") or str(o["supplier"]) in f["suppliers"])
                  and (not f.get("categories") or o["vehicle"]["category"] in f["categories"])]
        return sorted(offers, key=lambda o: (float(o["price"]["total"]), o["id"]))


def _depots() -> list[dict[str, Any]]:
    depots, n = [], 5000
    for a, (iata, (city, country, lat, lon)) in enumerate(AIRPORTS.items()):
        for j, (sid, name, _) in enumerate(SUPPLIERS):
            if (a + j) % 3 == 2:  # not every supplier is at every airport
                continue
            n += 1
            depots.append({"id": n, "supplier": sid, "name": f"{name} {city} Airport",
                           "location": {"airport": iata, "city": city, "country": country,
                                        "address": f"Arrivals hall, desk {j + 1}",
                                        "coordinates": {"latitude": round(lat + 0.001 * j, 4),
                                                        "longitude": round(lon + 0.001 * j, 4)}},
                           "opening_hours": "06:00-23:00" if j % 2 else "00:00-24:00"})
    return depots


def _nearest_airport(loc: dict[str, Any]) -> str | None:
    lat, lon = float(loc["latitude"]), float(loc["longitude"])
    best = min(AIRPORTS, key=lambda k: (AIRPORTS[k][2] - lat) ** 2 + (AIRPORTS[k][3] - lon) ** 2)
    dist = math.hypot(AIRPORTS[best][2] - lat, (AIRPORTS[best][3] - lon) * math.cos(math.radians(lat))) * 111
    return best if dist <= 50 else None


def validate_search(q: dict[str, Any], now: datetime) -> dict[str, Any]:
    """The search as the sandbox understands it, or a 400 listing every problem."""
    errs: list[tuple[str, str]] = []
    country = (q.get("booker") or {}).get("country") if isinstance(q.get("booker"), dict) else None
    if not country:
        errs.append((MISSING, "`booker.country` is required"))
    elif not (isinstance(country, str) and len(country) == 2 and country.isalpha()):
        errs.append((INVALID, f"`booker.country` `{country}` is not a two-letter country code"))
    langs = q.get("languages")
    if not langs:
        errs.append((MISSING, "`languages` is required (one or more language tags)"))
        langs = ["en-gb"]
    elif not isinstance(langs, list) or not all(isinstance(x, str) for x in langs):
        errs.append((INVALID, "`languages` must be an array of language tags"))
        langs = ["en-gb"]
    else:
        errs += [(INVALID, f"language `{x}` is not supported") for x in langs if x.lower() not in LANGUAGES]
    out: dict[str, Any] = {"languages": [x.lower() for x in langs], "filters": {}}
    for side in ("pickup", "dropoff"):
        raw_part = q.get(side)
        part: dict[str, Any] = raw_part if isinstance(raw_part, dict) else {}
        at = part.get("datetime")
        if not at:
            errs.append((MISSING, f"`{side}.datetime` is required"))
        else:
            try:
                dt = datetime.fromisoformat(str(at))
                out[f"{side}_dt"] = dt if dt.tzinfo else dt.replace(tzinfo=UTC)
                out[f"{side}_at"] = str(at)
            except ValueError:
                errs.append((INVALID, f"`{side}.datetime` `{at}` is not an ISO date-time"))
        loc = part.get("location") if isinstance(part.get("location"), dict) else None
        if loc is None and side == "dropoff":
            loc = (q.get("pickup") or {}).get("location") if isinstance(q.get("pickup"), dict) else None
        if not loc:
            errs.append((MISSING, f"`{side}.location` is required"))
        elif "airport" in loc:
            code = str(loc["airport"]).upper()
            if len(code) != 3 or not code.isalpha():
                errs.append((INVALID, f"`{side}.location.airport` `{loc['airport']}` is not an IATA code"))
            out[side] = code
        elif "coordinates" in loc and isinstance(loc["coordinates"], dict):
            try:
                out[side] = _nearest_airport(loc["coordinates"])
            except (KeyError, TypeError, ValueError):
                errs.append((INVALID, f"`{side}.location.coordinates` needs numeric latitude and longitude"))
        elif "depot" in loc:
            match = [d for d in _depots() if str(d["id"]) == str(loc["depot"])]
            if not match:
                errs.append((INVALID, f"`{side}.location.depot` `{loc['depot']}` is not a known depot"))
            out[side] = match[0]["location"]["airport"] if match else None
        else:
            errs.append((INVALID, f"`{side}.location` needs `airport`, `coordinates` or `depot`"))
    if "pickup_dt" in out and out["pickup_dt"] <= now:
        errs.append((INVALID, "`pickup.datetime` must be in the future"))
    if "pickup_dt" in out and "dropoff_dt" in out and out["dropoff_dt"] <= out["pickup_dt"]:
        errs.append((INVALID, "`dropoff.datetime` must be after `pickup.datetime`"))
    age = (q.get("driver") or {}).get("age", 30) if isinstance(q.get("driver", {}), dict) else None
    if isinstance(age, bool) or not isinstance(age, int) or not 18 <= age <= 99:
        errs.append((INVALID, f"`driver.age` `{age}` must be a whole number 18..99"))
    out["age"] = age if isinstance(age, int) else 30
    currency = str(q.get("currency", "EUR")).upper()
    if currency not in CURRENCY_PER_EUR:
        errs.append((INVALID, f"`currency` `{currency}` is not supported here; one of {', '.join(CURRENCY_PER_EUR)}"))
    out["currency"] = currency
    filters = q.get("filters") or {}
    if not isinstance(filters, dict):
        errs.append((INVALID, "`filters` must be an object"))
        filters = {}
    if filters.get("transmission") not in (None, "automatic", "manual"):
        errs.append((INVALID, "`filters.transmission` must be `automatic` or `manual`"))
    out["filters"] = {"transmission": filters.get("transmission"),
                      "suppliers": [str(x) for x in filters.get("suppliers") or []],
                      "categories": list(filters.get("categories") or [])}
    if errs:
        raise SandboxError(400, errs)
    return out


def create_demand_app(config: DemandSandboxConfig) -> Starlette:
    """The ASGI app; its :class:`DemandSandbox` (log, faults) is ``app.state.sandbox``."""
    sandbox = DemandSandbox(config)
    app = sandbox.app()
    app.state.sandbox = sandbox
    return app


def write_env(state_dir: str | Path, url: str, ca_bundle: str | Path, config: DemandSandboxConfig) -> Path:
    """Write ``demand.env`` (owner-only) so ``workbench cars … --env-file <dir>/demand.env`` reaches the sandbox."""
    path = Path(state_dir) / "demand.env"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"WORKBENCH_DEMAND_BASE_URL={url}\nWORKBENCH_DEMAND_CA_BUNDLE={Path(ca_bundle).resolve()}\n"
                    f"WORKBENCH_AFFILIATE_ID={config.affiliate_id}\nWORKBENCH_API_KEY={config.api_key}\n"
                    f"WORKBENCH_DEMAND_API_VERSION={config.version}\n", encoding="utf-8")
    path.chmod(0o600)
    return path


def sandbox_config(state_dir: str | Path, **overrides: Any) -> DemandSandboxConfig:
    """Credentials kept across restarts in ``<state_dir>/demand.env`` (made up on first start)."""
    from workbench.config import Settings

    env = Path(state_dir) / "demand.env"
    old = Settings.from_file(env) if env.is_file() else None
    key = old.api_key.reveal() if old and old.api_key else secrets.token_urlsafe(24)
    aid = old.affiliate_id if old and old.affiliate_id else str(secrets.randbelow(9_000_000) + 1_000_000)
    return DemandSandboxConfig(api_key=key, affiliate_id=aid, **overrides)


@dataclass
class RunningDemandSandbox:
    """A car-search sandbox being served: its URL, ``demand.env`` and ready :class:`Settings`."""

    url: str
    env_file: Path
    sandbox: DemandSandbox

    @property
    def settings(self) -> Settings:
        from workbench.config import Settings

        return Settings.from_file(self.env_file)


@contextmanager
def run_demand_sandbox(state_dir: str | Path, **overrides: Any) -> Iterator[RunningDemandSandbox]:
    """Serve the car-search sandbox over HTTPS on loopback for the block (notebooks, tests)."""
    from workbench.serving import ensure_test_ca, serve_in_thread

    tls = ensure_test_ca(state_dir)
    config = sandbox_config(state_dir, **overrides)
    app = create_demand_app(config)
    with serve_in_thread(app, tls) as server:
        yield RunningDemandSandbox(server.url, write_env(state_dir, server.url, tls.ca_bundle, config),
                                   app.state.sandbox)
