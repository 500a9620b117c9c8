"""Reading a notification body (spec, E6 and Events): ``{metadata: {uuid, type, payloadVersion}, payload}``.

Tolerant where the spec asks for tolerance - unknown fields and unknown types are kept, the
whole body is stored as received - and strict only where storage needs it: the body must be a
UTF-8 JSON object with a usable ``metadata.uuid`` (the de-duplication key).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from workbench.errors import InputError

MAX_UUID_LENGTH = 256
MAX_LABEL_LENGTH = 256


class BadEnvelope(InputError, ValueError):
    """The body cannot be stored as a notification; ``reason`` says why (sent back with the 400)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Envelope:
    uuid: str
    type: str | None
    payload_version: str | None
    text: str              # the body exactly as received (decoded)
    document: dict[str, Any]


def parse_envelope(body: bytes) -> Envelope:
    """The envelope of ``body``; :class:`BadEnvelope` when it has no usable ``metadata.uuid``."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadEnvelope(f"body is not UTF-8 (byte {exc.start})") from None
    try:
        document = json.loads(text.removeprefix("\ufeff"), parse_constant=_refuse_constant)
    except (ValueError, RecursionError) as exc:
        raise BadEnvelope(f"body is not valid JSON: {str(exc)[:120]}") from None
    if not isinstance(document, dict):
        raise BadEnvelope(f"body must be a JSON object, not {_kind(document)}")
    metadata = document.get("metadata")
    if not isinstance(metadata, dict):
        raise BadEnvelope("`metadata` is missing or not an object" if metadata is None
                          else f"`metadata` must be an object, not {_kind(metadata)}")
    uuid = metadata.get("uuid")
    if not isinstance(uuid, str):
        raise BadEnvelope("`metadata.uuid` is missing" if uuid is None
                          else f"`metadata.uuid` must be a string, not {_kind(uuid)}")
    if not uuid.strip():
        raise BadEnvelope("`metadata.uuid` is empty")
    if len(uuid) > MAX_UUID_LENGTH:
        raise BadEnvelope(f"`metadata.uuid` is longer than {MAX_UUID_LENGTH} characters")
    if any(ord(c) < 32 or ord(c) == 127 or 0xD800 <= ord(c) <= 0xDFFF for c in uuid):
        raise BadEnvelope("`metadata.uuid` contains control characters")
    return Envelope(uuid, _label(metadata.get("type")), _label(metadata.get("payloadVersion")), text, document)


def printable_body(body: bytes) -> str:
    """Any body as storable text (for dead letters): invalid bytes and NULs replaced."""
    return body.decode("utf-8", "replace").replace("\x00", "\ufffd")


def _label(value: Any) -> str | None:
    """``type``/``payloadVersion`` as text for their columns (whatever was sent stays in the body)."""
    if value is None:
        return None
    text = value if isinstance(value, str) else json.dumps(value)
    text = "".join(c if c.isprintable() or c == " " else "\ufffd" for c in text)
    return text[:MAX_LABEL_LENGTH]


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _kind(value: Any) -> str:
    return {dict: "an object", list: "an array", str: "a string", bool: "a boolean",
            type(None): "null"}.get(type(value), "a number")
