"""The sandbox's own small readers of the modular APIs' JSON bodies, and their answers in the published envelope.

A body is checked against a shape written here from the published descriptions (platform-now.md 3.0-3.6), never
against the client's models (``workbench.modular`` is forbidden to the sandbox): :class:`Obj` (fields, the
required ones, unknown fields answered ``394``), :class:`Arr`, :class:`Enum`, :class:`Num`, :class:`Text`,
:data:`BOOL`, :data:`ANY`. What is wrong is collected in :class:`Problems` with the JSON path of each value
(``contacts[1].phones[0].phone_number``): ``320`` invalid value, ``321`` required field missing, ``394`` unknown
field, ``150`` change not permitted, ``450`` unable to process. :func:`reply` writes the envelope
``{data, warnings[], errors[], meta{ruid}}`` (HTTP 400 when there are errors, as the Contacts troubleshooting page
and the Facilities description say); ``code`` is an integer in the Property, Facilities, Charges and Rooms-bulk
descriptions and a string in the Contacts and Rooms (1.2) ones.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from workbench.sandbox.platform.calls import Call, PlatformState, Reply

INVALID, MISSING, UNKNOWN, NOT_PERMITTED, UNABLE, SYSTEM = 320, 321, 394, 150, 450, 448
_MESSAGES = {INVALID: "Invalid value", MISSING: "Required field missing", UNKNOWN: "Unknown field",
             NOT_PERMITTED: "Changes are not permitted", UNABLE: "Unable to process", SYSTEM: "System error"}
TIME = re.compile(r"^([01]\d|2[0-3]):(00|30)$")


@dataclass
class Item:
    """One error or warning: code, the path it is about, a description, and extra ``details`` members."""

    code: int
    path: str | None
    description: str
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class Problems:
    """What a body's check found, path by path."""

    errors: list[Item] = field(default_factory=list)
    warnings: list[Item] = field(default_factory=list)

    def add(self, code: int, path: str | None, description: str, **extra: Any) -> None:
        self.errors.append(Item(code, path, description, extra))

    def invalid(self, path: str | None, description: str, **extra: Any) -> None:
        self.add(INVALID, path, description, **extra)

    def __bool__(self) -> bool:
        return bool(self.errors)


def join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


class Shape:
    def check(self, value: Any, path: str, p: Problems) -> None:  # pragma: no cover - every shape overrides it
        raise NotImplementedError


@dataclass
class Obj(Shape):
    """A JSON object: its fields' shapes and the required ones; any other field is unknown (394)."""

    fields: Mapping[str, Shape]
    required: tuple[str, ...] = ()

    def check(self, value: Any, path: str, p: Problems) -> None:
        if not isinstance(value, dict):
            p.invalid(path or None, f"`{path or 'the body'}` must be a JSON object")
            return
        for key in value:
            if key not in self.fields:
                p.add(UNKNOWN, join(path, key), f"Unrecognized field \"{key}\"")
        for key in self.required:
            if value.get(key) is None:
                p.add(MISSING, join(path, key), "must not be null")
        for key, shape in self.fields.items():
            if value.get(key) is not None:
                shape.check(value[key], join(path, key), p)


@dataclass
class Arr(Shape):
    item: Shape
    min: int = 0
    max: int | None = None

    def check(self, value: Any, path: str, p: Problems) -> None:
        if not isinstance(value, list):
            p.invalid(path, f"`{path}` must be an array")
            return
        if len(value) < self.min or (self.max is not None and len(value) > self.max):
            high = "" if self.max is None else f" and at most {self.max}"
            p.invalid(path, f"`{path}` must have at least {self.min}{high} items, not {len(value)}")
        for i, v in enumerate(value):
            self.item.check(v, join(path, i), p)


@dataclass
class Enum(Shape):
    values: tuple[Any, ...]

    def check(self, value: Any, path: str, p: Problems) -> None:
        if value not in self.values:
            p.invalid(path, f"`{value}` is not one of {', '.join(map(str, self.values))}")


@dataclass
class Num(Shape):
    low: float | None = None
    high: float | None = None
    whole: bool = False

    def check(self, value: Any, path: str, p: Problems) -> None:
        ok = isinstance(value, int) if self.whole else isinstance(value, (int, float))
        if isinstance(value, bool) or not ok:
            p.invalid(path, f"`{value}` is not {'a whole number' if self.whole else 'a number'}")
        elif (self.low is not None and value < self.low) or (self.high is not None and value > self.high):
            p.invalid(path, f"{value} is outside {self.low}..{self.high}")


@dataclass
class Text(Shape):
    min: int = 0
    max: int | None = None
    pattern: re.Pattern[str] | None = None

    def check(self, value: Any, path: str, p: Problems) -> None:
        if not isinstance(value, str):
            p.invalid(path, f"`{value}` is not a text")
        elif len(value) < self.min or (self.max is not None and len(value) > self.max):
            p.invalid(path, f"the text must have {self.min} to {self.max} characters, not {len(value)}")
        elif self.pattern is not None and not self.pattern.match(value):
            p.invalid(path, f"`{value}` does not match {self.pattern.pattern}")


@dataclass
class Rule(Shape):
    """A check of its own: ``test(value)`` returns the description of what is wrong, or None."""

    test: Callable[[Any], str | None]

    def check(self, value: Any, path: str, p: Problems) -> None:
        problem = self.test(value)
        if problem:
            p.invalid(path, problem)


class _Bool(Shape):
    def check(self, value: Any, path: str, p: Problems) -> None:
        if not isinstance(value, bool):
            p.invalid(path, f"`{value}` is not true or false")


class _Any(Shape):
    def check(self, value: Any, path: str, p: Problems) -> None:
        return None


BOOL, ANY = _Bool(), _Any()
INT = Num(whole=True)
NUMBER = Num()
TEXT = Text()
HHMM = Text(pattern=TIME)


def check(shape: Shape, value: Any, path: str = "") -> Problems:
    p = Problems()
    shape.check(value, path, p)
    return p


# --- answers --------------------------------------------------------------------------------------

def _item(i: Item, text_codes: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"message": _MESSAGES.get(i.code, "Error"), "code": str(i.code) if text_codes else i.code}
    if i.description:
        out["description"] = i.description
    details: dict[str, Any] = {"fields": [i.path]} if i.path else {}
    details.update(i.extra)
    if details:
        out["details"] = details
    return out


def envelope(ruid: str, data: Any = None, problems: Problems | None = None, *, text_codes: bool = False) -> bytes:
    p = problems or Problems()
    return json.dumps({"data": data, "warnings": [_item(w, text_codes) for w in p.warnings],
                       "errors": [_item(e, text_codes) for e in p.errors], "meta": {"ruid": ruid}},
                      ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def reply(call: Call, data: Any = None, problems: Problems | None = None, *, text_codes: bool = False,
          status: int | None = None) -> Reply:
    """The answer: HTTP 400 with ``data: null`` when there are errors, else 200 with ``data``."""
    p = problems or Problems()
    bad = bool(p.errors)
    code = status if status is not None else (400 if bad else 200)
    outcome = "errors" if bad else ("warnings" if p.warnings else "success")
    return Reply(code, envelope(call.ruid, None if bad and status is None else data, p, text_codes=text_codes),
                 outcome)


def refuse(call: Call, code: int, path: str | None, description: str, *, status: int = 400,
           text_codes: bool = False, **extra: Any) -> Reply:
    p = Problems()
    p.add(code, path, description, **extra)
    return reply(call, None, p, text_codes=text_codes, status=status)


def path_id(call: Call, name: str) -> int | None:
    """A numeric id of the path (``property_id``), or None when it is not a whole number."""
    raw = str(call.path_params.get(name, "")).strip()
    return int(raw) if raw.isdigit() else None


def property_known(sb: PlatformState, property_id: int | None) -> bool:
    """A property of this account: the registry's, or one created (by the content operation or the Property API)."""
    return property_id is not None and (property_id in {p.hotel_code for p in sb.registry.properties}
                                        or sb.content.created(property_id))


def property_of(sb: PlatformState, call: Call, *, text_codes: bool = False) -> tuple[int | None, Reply | None]:
    """The path's ``property_id`` when it is a property of this account, else the answer refusing the call."""
    pid = path_id(call, "property_id")
    if property_known(sb, pid):
        return pid, None
    raw = call.path_params.get("property_id", "")
    return None, refuse(call, INVALID, "property_id", f"property {raw} does not exist or is not connected to this "
                        "account", status=404, text_codes=text_codes)


PropertyHandler = Callable[[PlatformState, Call, int], Awaitable[Reply]]


def for_property(*, text_codes: bool = False) -> Callable[[PropertyHandler], Callable[[PlatformState, Call],
                                                                                     Awaitable[Reply]]]:
    """A handler of ``.../properties/{property_id}/...``: called with the property's id once it is known to be a
    property of this account, else the call is refused (404, code 320 on ``property_id``)."""
    def wrap(handler: PropertyHandler) -> Callable[[PlatformState, Call], Awaitable[Reply]]:
        @functools.wraps(handler)
        async def checked(sb: PlatformState, call: Call) -> Reply:
            pid, refused = property_of(sb, call, text_codes=text_codes)
            if refused is not None or pid is None:
                assert refused is not None
                return refused
            return await handler(sb, call, pid)
        return checked
    return wrap
