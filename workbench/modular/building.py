"""A body built from the workbook, checked against its model before anything could send it.

:func:`finish` validates the JSON a mapping assembled. A value the model refuses becomes an issue on
the cell it came from (``modular_value_refused``) and is left out, and the body is checked again;
when what is left out was required, the body is not built (``None``) and the issue says so. An
issue of severity ``error`` blocks the property's request, so what is built is always valid and
what would be sent is exactly what the issues frame says.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, TypeAdapter, ValidationError

from workbench.modular.cells import CellMap, issue
from workbench.modular.rules import MODULAR_VALUE_REFUSED

__all__ = ["Request", "finish", "loc_path"]

_ADAPTERS: dict[Any, TypeAdapter[Any]] = {}


@dataclass(frozen=True)
class Request:
    """One body for one property: which operation (``endpoints.OPERATIONS``), the JSON to send, its cells, and the
    ids of its path beyond the property's (``room_id``, ``unit_id``; ``correlation_id`` for a room created by a
    bulk request of the same run, whose room id the driver learns from that request's answer)."""

    property: str
    hotel_code: int | None
    custom_id: str | None
    operation: str
    payload: Any
    cells: CellMap = field(default_factory=CellMap)
    ids: Mapping[str, object] = field(default_factory=dict)


def loc_path(loc: Sequence[int | str], root: str = "") -> str:
    """A validation error's location as the platform writes a path: ``a.b[0].c`` (``root[0]...`` for arrays)."""
    out = root
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else part
    return out


def _adapter(model: Any) -> TypeAdapter[Any]:
    adapter = _ADAPTERS.get(model)
    if adapter is None:
        adapter = _ADAPTERS[model] = TypeAdapter(model)
    return adapter


def _drop(payload: Any, loc: Sequence[int | str]) -> bool:
    """Remove the value at ``loc`` (its container when it is a missing key); False when it is the whole body."""
    if not loc:
        return False
    node = payload
    for part in loc[:-1]:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return False
    last = loc[-1]
    if isinstance(node, dict) and last in node:
        del node[last]
        return True
    if isinstance(node, list) and isinstance(last, int) and 0 <= last < len(node):
        del node[last]
        return True
    return _drop(payload, loc[:-1])  # a missing key: its container goes


def finish(model: Any, payload: Any, cells: CellMap, issues: list[dict], *, api: str, root: str = "") -> Any:
    """``payload`` validated as ``model`` (a body class or ``list[...]``) and dumped as JSON, or ``None``.

    Refused values are reported (on their cells) and left out; what leaving them out breaks in turn (a required
    value gone, a list left empty) is not reported again. ``root`` names an array body in paths.
    """
    adapter = _adapter(model)
    dropped: list[str] = []
    for _ in range(16):
        try:
            value = adapter.validate_python(payload)
        except ValidationError as exc:
            errors = sorted(exc.errors(include_url=False), key=lambda e: [str(p) for p in e["loc"]], reverse=True)
            whole = False
            for err in errors:
                loc = [p for p in err["loc"] if isinstance(p, (int, str))]
                path = loc_path(loc, root)
                shown = "" if err["type"] == "missing" else err.get("input")
                what = f"`{path}`" if path else "the body"
                reason = err["msg"].removeprefix("Value error, ")
                text = (f"{what} is required by the {api} and has no value: fill in the cell" if err["type"] == "missing"
                        else f"this cannot be sent to the {api} as {what}: {reason[:1].lower()}{reason[1:]}; "
                             "correct the cell")
                shown_value = shown if isinstance(shown, (str, int, float)) else None
                if not any(d == path or d.startswith((f"{path}.", f"{path}[")) for d in dropped):
                    issues.append(issue(cells.locate(path), MODULAR_VALUE_REFUSED, text, value=shown_value))
                dropped.append(path)
                if len(loc) <= 1 and err["type"] == "missing" or not _drop(payload, loc):
                    whole = True
            if whole:
                return None
            continue
        return _json(value, adapter)
    return None


def _json(value: Any, adapter: TypeAdapter[Any]) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", by_alias=True, exclude_none=True)
    return adapter.dump_python(value, mode="json", by_alias=True, exclude_none=True)
