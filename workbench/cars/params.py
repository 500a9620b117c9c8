"""Typed car-search parameters, checked before anything is sent, and the JSON body they become.

Date-times without an offset are the local time at the pick-up/drop-off place (as rental
desks quote them). Such a pick-up is refused as "in the past" only once it has passed in every
time zone (UTC-12), because the place's offset is not known here; a date-time with an offset
is compared exactly. The service has the last word either way.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any

from workbench.cars._codes import (
    country_problem,
    currency_problem,
    language_tag_problem,
    normalise_language,
    suggest,
)
from workbench.cars.errors import Problem, SearchParamsError

MIN_DRIVER_AGE, MAX_DRIVER_AGE = 18, 99
TRANSMISSIONS = ("automatic", "manual")
_LATEST_OFFSET = timedelta(hours=12)  # UTC-12: the last place where a local time is still ahead
_IATA = re.compile(r"^[A-Za-z]{3}$")
_COORDS = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$")


# Main airport per booker country: the pick-up place used when none is given (the CLI says so).
MAIN_AIRPORTS = {"nl": "AMS", "gb": "LHR", "fr": "CDG", "de": "FRA", "es": "MAD", "it": "FCO", "pt": "LIS",
                 "be": "BRU", "ie": "DUB", "ch": "ZRH", "at": "VIE", "dk": "CPH", "se": "ARN", "no": "OSL",
                 "us": "JFK", "ca": "YYZ", "au": "SYD"}


def default_location(country: str) -> str | None:
    """The main airport of ``country`` (IATA), or ``None`` when there is no default for it."""
    return MAIN_AIRPORTS.get(str(country).strip().lower())


@dataclass(frozen=True)
class Location:
    """Where the car is picked up or dropped off: an airport (IATA), coordinates, or a depot id."""

    airport: str | None = None
    latitude: float | None = None
    longitude: float | None = None
    depot_id: str | None = None

    @classmethod
    def parse(cls, text: str) -> Location:
        """``AMS`` (airport), ``52.31,4.76`` (latitude,longitude) or ``depot:D123``."""
        text = text.strip()
        if text.lower().startswith("depot:"):
            return cls(depot_id=text.split(":", 1)[1].strip())
        m = _COORDS.match(text)
        if m:
            return cls(latitude=float(m.group(1)), longitude=float(m.group(2)))
        return cls(airport=text)

    def problems(self, name: str) -> list[Problem]:
        given = [k for k, v in (("airport", self.airport), ("coordinates", self.latitude),
                                ("depot", self.depot_id)) if v is not None]
        if len(given) != 1:
            return [Problem(name, "give exactly one of an airport code (`AMS`), coordinates "
                                  "(`52.31,4.76`) or a depot (`depot:<id>`)")]
        if self.airport is not None and not _IATA.match(self.airport):
            return [Problem(f"{name}.airport", f"`{self.airport}` is not a three-letter IATA airport code (e.g. `AMS`)")]
        if self.latitude is not None:
            lat, lon = self.latitude, self.longitude
            if lon is None or not all(isinstance(v, int | float) and math.isfinite(v) for v in (lat, lon)):
                return [Problem(f"{name}.coordinates", "give both latitude and longitude as numbers")]
            if not (-90 <= lat <= 90 and -180 <= lon <= 180):
                return [Problem(f"{name}.coordinates", f"`{lat},{lon}` is outside latitude -90..90 / longitude -180..180 "
                                                       "(latitude comes first)")]
        if self.depot_id is not None and not str(self.depot_id).strip():
            return [Problem(f"{name}.depot", "the depot id is empty")]
        return []

    def to_json(self) -> dict[str, Any]:
        if self.airport is not None:
            return {"airport": self.airport.upper()}
        if self.depot_id is not None:
            return {"depot": str(self.depot_id)}
        return {"coordinates": {"latitude": self.latitude, "longitude": self.longitude}}


def _as_location(value: Location | str | None) -> Location | None:
    return Location.parse(value) if isinstance(value, str) else value


def _as_datetime(value: object, name: str, problems: list[Problem]) -> datetime | None:
    if isinstance(value, datetime):
        return value
    if isinstance(value, date):
        problems.append(Problem(name, f"`{value}` has no time of day; give e.g. `{value}T10:00`"))
        return None
    if isinstance(value, str):
        text = value.strip()
        try:
            parsed = datetime.fromisoformat(text.replace(" ", "T", 1))
        except ValueError:
            problems.append(Problem(name, f"`{value}` is not a date-time; write it as `YYYY-MM-DDTHH:MM`"))
            return None
        if "T" not in text and " " not in text:
            problems.append(Problem(name, f"`{value}` has no time of day; give e.g. `{text}T10:00`"))
            return None
        return parsed
    problems.append(Problem(name, f"expected a date-time, got {type(value).__name__} `{value!r}`"))
    return None


@dataclass(frozen=True)
class SearchParams:
    """One car search. Construct freely; :meth:`check` says everything that is wrong at once."""

    country: str
    languages: tuple[str, ...] | list[str] | str
    pickup: datetime | str
    dropoff: datetime | str
    pickup_location: Location | str | None
    dropoff_location: Location | str | None = None  # None: return to the pick-up place
    driver_age: int = 30
    currency: str = "EUR"
    transmission: str | None = None
    suppliers: tuple[str, ...] = ()
    categories: tuple[str, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)  # more body fields, sent as given

    @property
    def language_list(self) -> list[str]:
        raw = [self.languages] if isinstance(self.languages, str) else list(self.languages)
        return list(dict.fromkeys(normalise_language(str(x)) for x in raw))

    def problems(self, now: datetime | None = None,
                 supported_languages: Collection[str] | None = None) -> list[Problem]:
        """Every problem found; languages are checked against ``supported_languages`` when given."""
        now = now or datetime.now(UTC)
        found: list[Problem] = []
        if (p := country_problem(str(self.country))) is not None:
            found.append(Problem("booker.country", p))
        found += self._language_problems(supported_languages)
        found += self._time_problems(now)
        for name, loc in (("pickup.location", _as_location(self.pickup_location)),
                          ("dropoff.location", _as_location(self.dropoff_location))):
            if loc is None and name == "pickup.location":
                found.append(Problem(name, "a pick-up location is required (airport, coordinates or depot)"))
            elif loc is not None:
                found += loc.problems(name)
        if isinstance(self.driver_age, bool) or not isinstance(self.driver_age, int):
            found.append(Problem("driver.age", f"`{self.driver_age!r}` is not a whole number of years"))
        elif not MIN_DRIVER_AGE <= self.driver_age <= MAX_DRIVER_AGE:
            found.append(Problem("driver.age", f"`{self.driver_age}` is outside {MIN_DRIVER_AGE}..{MAX_DRIVER_AGE}"))
        if (p := currency_problem(str(self.currency))) is not None:
            found.append(Problem("currency", p))
        if self.transmission is not None and self.transmission.lower() not in TRANSMISSIONS:
            found.append(Problem("filters.transmission", f"`{self.transmission}` is not one of {', '.join(TRANSMISSIONS)}"))
        for key in self.extra:
            if key in {"booker", "languages", "pickup", "dropoff", "driver", "currency", "filters", "page"}:
                found.append(Problem(f"extra.{key}", "set this through its own parameter, not `extra`"))
        return found

    def _language_problems(self, supported: Collection[str] | None) -> list[Problem]:
        langs = self.language_list
        if not langs:
            return [Problem("languages", "give at least one language tag (e.g. `en-gb`)")]
        found = [Problem("languages", p) for x in langs if (p := language_tag_problem(x)) is not None]
        if supported is not None and not found:
            known = {normalise_language(s) for s in supported}
            for x in langs:
                if x not in known:
                    found.append(Problem("languages", f"`{x}` is not supported by the service{suggest(x, known)}; "
                                                      "list them with `workbench cars languages`"))
        return found

    def _time_problems(self, now: datetime) -> list[Problem]:
        found: list[Problem] = []
        pickup = _as_datetime(self.pickup, "pickup.datetime", found)
        dropoff = _as_datetime(self.dropoff, "dropoff.datetime", found)
        if pickup is not None and not _is_future(pickup, now):
            found.append(Problem("pickup.datetime", f"`{pickup.isoformat()}` is in the past; pick-up must be in the future"))
        if pickup is not None and dropoff is not None:
            if (pickup.tzinfo is None) != (dropoff.tzinfo is None):
                found.append(Problem("dropoff.datetime", "give both date-times with an offset, or neither"))
            elif dropoff <= pickup:
                found.append(Problem("dropoff.datetime", f"drop-off `{dropoff.isoformat()}` must be after pick-up "
                                                         f"`{pickup.isoformat()}`"))
        return found

    def check(self, now: datetime | None = None, supported_languages: Collection[str] | None = None) -> None:
        """Raise :class:`SearchParamsError` listing every problem; return quietly when all is well."""
        found = self.problems(now, supported_languages)
        if found:
            raise SearchParamsError(found)

    def to_body(self) -> dict[str, Any]:
        """The JSON body of the first search request (call :meth:`check` first)."""
        errors: list[Problem] = []
        pickup = _as_datetime(self.pickup, "pickup.datetime", errors)
        dropoff = _as_datetime(self.dropoff, "dropoff.datetime", errors)
        pick_loc = _as_location(self.pickup_location)
        drop_loc = _as_location(self.dropoff_location) or pick_loc
        if errors or pickup is None or dropoff is None or pick_loc is None or drop_loc is None:
            raise SearchParamsError(errors or [Problem("pickup", "incomplete search parameters")])
        body: dict[str, Any] = {
            "booker": {"country": str(self.country).strip().lower()},
            "languages": self.language_list,
            "currency": str(self.currency).strip().upper(),
            "driver": {"age": self.driver_age},
            "pickup": {"datetime": _iso(pickup), "location": pick_loc.to_json()},
            "dropoff": {"datetime": _iso(dropoff), "location": drop_loc.to_json()},
        }
        filters: dict[str, Any] = {}
        if self.transmission:
            filters["transmission"] = self.transmission.lower()
        if self.suppliers:
            filters["suppliers"] = [str(s) for s in _as_tuple(self.suppliers)]
        if self.categories:
            filters["categories"] = [str(c) for c in _as_tuple(self.categories)]
        if filters:
            body["filters"] = filters
        body.update(self.extra)
        return body


def _as_tuple(value: Iterable[str] | str) -> tuple[str, ...]:
    return (value,) if isinstance(value, str) else tuple(value)


def _iso(value: datetime) -> str:
    return value.isoformat(timespec="seconds")


def _is_future(pickup: datetime, now: datetime) -> bool:
    now_utc = now.astimezone(UTC) if now.tzinfo else now.replace(tzinfo=UTC)
    if pickup.tzinfo is not None:
        return pickup > now_utc
    return pickup > (now_utc - _LATEST_OFFSET).replace(tzinfo=None)
