"""Reading a notification body (spec, E6 and Events): ``{metadata: {uuid, type, payloadVersion}, payload}``.

Tolerant where the spec asks for tolerance - unknown fields and unknown types are kept, the
whole body is stored as received - and strict only where storage needs it: the body must be a
UTF-8 JSON object with a usable ``metadata.uuid`` (the de-duplication key). A leading UTF-8 byte
order mark is dropped before storing: what is stored must read back as JSON (:func:`stored_document`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from workbench.errors import InputError

MAX_UUID_LENGTH = 256
MAX_LABEL_LENGTH = 256
MAX_DEPTH = 64           # deeper documents could not be read back by every reader (recursion limits)
BOM = "\ufeff"


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
    text: str              # the body as received (decoded, without a leading byte order mark)
    document: dict[str, Any]


def parse_envelope(body: bytes) -> Envelope:
    """The envelope of ``body``; :class:`BadEnvelope` when it has no usable ``metadata.uuid``."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadEnvelope(f"body is not UTF-8 (byte {exc.start})") from None
    text = text.removeprefix(BOM)  # stored without it, so every reader can parse what is stored
    try:
        document = json.loads(text, parse_constant=_refuse_constant)
    except (ValueError, RecursionError) as exc:
        raise BadEnvelope(f"body is not valid JSON: {str(exc)[:120]}") from None
    if not isinstance(document, dict):
        raise BadEnvelope(f"body must be a JSON object, not {_kind(document)}")
    if _depth(document) > MAX_DEPTH:
        raise BadEnvelope(f"body nests objects and arrays more than {MAX_DEPTH} levels deep")
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


class UnreadableBody(ValueError):
    """A stored body that is not a JSON object (stored by an older version, or changed by hand)."""


def stored_document(body: str) -> dict[str, Any]:
    """The JSON object of a stored body (a leading byte order mark is tolerated); :class:`UnreadableBody` else."""
    try:
        document = json.loads(body.removeprefix(BOM))
    except (ValueError, RecursionError, TypeError, AttributeError) as exc:
        raise UnreadableBody(f"not valid JSON ({str(exc)[:120]})") from None
    if not isinstance(document, dict):
        raise UnreadableBody(f"a JSON document that is {_kind(document)}, not an object")
    return document


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


def _depth(document: Any) -> int:
    """How deeply ``document`` nests objects and arrays (without recursion)."""
    deepest, stack = 0, [(document, 1)]
    while stack:
        value, level = stack.pop()
        children = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
        deepest = max(deepest, level)
        if deepest > MAX_DEPTH:
            break
        stack.extend((child, level + 1) for child in children if isinstance(child, (dict, list)))
    return deepest


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _kind(value: Any) -> str:
    return {dict: "an object", list: "an array", str: "a string", bool: "a boolean",
            type(None): "null"}.get(type(value), "a number")
