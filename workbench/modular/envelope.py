"""The answer envelope every modular API shares, parsed once: ``{data, warnings[], errors[], meta{ruid}}``.

Error items are ``{message, code, description?, details{fields[]}}``. ``code`` is an integer in the
Property, Facilities, Charges and Rooms-bulk descriptions and a string in the Contacts and Rooms
(v1.2) ones, so it is read leniently; ``details`` may carry more than ``fields`` (the Facilities
answers add ``facility_id`` and ``instance_id``), kept in :attr:`ApiError.details`.

What a caller can do about each code (:func:`classify`), from the Contacts troubleshooting page and
the Property, Facilities, Charges and Rooms-bulk descriptions (docs/modular.md, "Errors"):

- ``320`` invalid value, ``321`` required field missing, ``394`` unknown field: fix the data;
- ``150`` change not permitted: refused (the data is fine, the platform will not take the change);
- ``448`` system error, ``450`` unable to process: retry later;
- any other code: rejected, fix the data (never retried blindly).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = ["ApiError", "Envelope", "EnvelopeParseError", "FIX_DATA", "KINDS", "REFUSED", "RETRY_LATER",
           "classify", "parse_envelope"]

#: what to do about an error code
FIX_DATA, REFUSED, RETRY_LATER = "fix_data", "refused", "retry_later"
KINDS = (FIX_DATA, REFUSED, RETRY_LATER)
_KIND_OF_CODE = {320: FIX_DATA, 321: FIX_DATA, 394: FIX_DATA, 150: REFUSED, 448: RETRY_LATER, 450: RETRY_LATER}
_WORST = {FIX_DATA: 2, REFUSED: 1, RETRY_LATER: 0}


class EnvelopeParseError(ValueError):
    """The body is not a modular API answer (not JSON, not an object, or a member of the wrong type)."""


def _code(value: object) -> int | str | None:
    """The code as an integer when it is one (``320`` and ``"320"`` alike), else the text as sent."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    text = str(value).strip()
    return int(text) if text.lstrip("-").isdigit() else (text or None)


def classify(code: int | str | None) -> str:
    """:data:`FIX_DATA`, :data:`REFUSED` or :data:`RETRY_LATER` for an error code (unknown codes: fix the data)."""
    number = _code(code)
    return _KIND_OF_CODE.get(number, FIX_DATA) if isinstance(number, int) else FIX_DATA


@dataclass(frozen=True)
class ApiError:
    """One item of ``errors`` or ``warnings`` as the platform sent it."""

    message: str = ""
    code: int | str | None = None
    description: str | None = None
    fields: tuple[str, ...] = ()
    details: Mapping[str, object] = field(default_factory=dict)

    @property
    def kind(self) -> str:
        return classify(self.code)

    def text(self) -> str:
        """Message and description, for people."""
        parts = [p for p in (self.message, self.description) if p]
        return ": ".join(dict.fromkeys(parts)) or str(self.code or "")


@dataclass(frozen=True)
class Envelope:
    """A parsed answer. ``data`` is the decoded JSON member (``None`` when absent or ``null``)."""

    data: object = None
    warnings: tuple[ApiError, ...] = ()
    errors: tuple[ApiError, ...] = ()
    ruid: str | None = None

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def kind(self) -> str | None:
        """``None`` when there is no error, else what to do about the worst of them (fix > refused > retry)."""
        if not self.errors:
            return None
        return max((e.kind for e in self.errors), key=_WORST.__getitem__)


def _items(raw: Mapping[str, object], member: str) -> tuple[ApiError, ...]:
    items = raw.get(member)
    if items is None:
        return ()
    if not isinstance(items, list):
        raise EnvelopeParseError(f"`{member}` is not a list in the answer")
    out = []
    for item in items:
        if not isinstance(item, Mapping):
            out.append(ApiError(message=str(item)))
            continue
        details = item.get("details")
        details = details if isinstance(details, Mapping) else {}
        fields = details.get("fields")
        fields = fields if isinstance(fields, list) else [fields] if isinstance(fields, str) else []
        desc = item.get("description")
        out.append(ApiError(message=str(item.get("message") or ""), code=_code(item.get("code")),
                            description=None if desc is None else str(desc),
                            fields=tuple(str(f) for f in fields if f is not None), details=dict(details)))
    return tuple(out)


def parse_envelope(body: bytes | str | Mapping[str, object]) -> Envelope:
    """The envelope of an answer (bytes or text as received, or already decoded).

    Members the platform adds are ignored; a ``ruid`` at the top level (some descriptions show one
    beside ``meta``) is used when ``meta.ruid`` is absent.
    """
    if isinstance(body, Mapping):
        raw: object = body
    else:
        try:
            raw = json.loads(body)
        except (ValueError, UnicodeDecodeError) as exc:
            raise EnvelopeParseError(f"the answer is not JSON: {exc}") from None
    if not isinstance(raw, Mapping):
        raise EnvelopeParseError("the answer is not a JSON object")
    meta = raw.get("meta")
    ruid = meta.get("ruid") if isinstance(meta, Mapping) else None
    ruid = ruid if ruid is not None else raw.get("ruid")
    return Envelope(data=raw.get("data"), warnings=_items(raw, "warnings"), errors=_items(raw, "errors"),
                    ruid=None if ruid is None else str(ruid))
