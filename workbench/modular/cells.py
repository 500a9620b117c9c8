"""From a JSON path in a body (or in an answer's error) back to the analyst's cell.

Every builder records, beside each body, which cell each value came from (:class:`CellMap`): the
path as the platform writes it in ``errors[].details.fields`` (``physical_address.postal_code``,
``property_facility_list[0].instances[0].parking_details.name``, ``units[1].correlation_id``; a
leading ``$.`` is dropped). An error's path is looked up as written, then by its parents, then by
the hints the Facilities answers give beside the path (``facility_id``), and last on the
property's own row, so every error lands on a cell a person can open.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from workbench.modular.envelope import FIX_DATA, REFUSED, ApiError, Envelope

__all__ = ["Cell", "CellMap", "issue", "issues_from_envelope", "normalize_path", "platform_rule"]

_PARENT = re.compile(r"(?:\.[^.\[\]]+|\[\d+\])$")
_RULES = {320: "platform_invalid_value", 321: "platform_required_missing", 394: "platform_unknown_field",
          150: "platform_not_permitted", 450: "platform_unable_to_process", 448: "platform_system_error"}
_HINTS = ("facility_id", "room_facility_id", "instance_id", "unit_id", "correlation_id")


class Cell(NamedTuple):
    """One cell of the analyst's workbook: file, sheet, Excel row, the header as written, and its value."""

    source: str
    sheet: str
    row: int
    column: str
    value: str = ""


def normalize_path(path: str) -> str:
    """``$.units[0].x`` -> ``units[0].x``; spaces around removed."""
    path = path.strip()
    if path.startswith("$"):
        path = path[1:]
    return path.lstrip(".")


@dataclass
class CellMap:
    """The cells behind one body: ``cells[path]``, the property's own cell, and hints such as ``facility_id=2``."""

    root: Cell | None = None
    cells: dict[str, Cell] = field(default_factory=dict)
    hints: dict[str, str] = field(default_factory=dict)

    def at(self, path: str, cell: Cell | None) -> None:
        if cell is not None:
            self.cells[path] = cell

    def hint(self, name: str, value: object, path: str) -> None:
        self.hints.setdefault(f"{name}={value}", path)

    def locate(self, path: str, details: Mapping[str, object] | None = None) -> Cell | None:
        """The cell of ``path``, of its nearest parent, of a hinted element, else the property's own cell."""
        p = normalize_path(path)
        while p:
            cell = self.cells.get(p)
            if cell is not None:
                return cell
            parent = _PARENT.sub("", p)
            if parent == p:
                break
            p = parent
        for name in _HINTS:
            value = (details or {}).get(name)
            if value is not None and f"{name}={value}" in self.hints:
                return self.locate(self.hints[f"{name}={value}"])
        return self.root

    def merged(self, other: CellMap, prefix: str = "") -> None:
        """Take ``other``'s cells under ``prefix`` (a body built from parts)."""
        for path, cell in other.cells.items():
            self.cells[f"{prefix}{path}"] = cell
        for hint, path in other.hints.items():
            self.hints.setdefault(hint, f"{prefix}{path}")


def issue(cell: Cell | None, rule: str, message: str, *, severity: str = "error", value: object = None) -> dict:
    """One issue record (``loaders.ISSUE_COLUMNS``) on ``cell``."""
    where = cell or Cell("", "", 0, "")
    shown = where.value if value is None else str(value)
    return {"source": where.source, "sheet": where.sheet, "row": where.row or None, "column": where.column,
            "value": shown, "rule": rule, "severity": severity, "message": message}


def platform_rule(error: ApiError) -> str:
    """The issue rule of an answer's error: ``platform_invalid_value`` for 320, and so on."""
    code = error.code
    return _RULES.get(code, "platform_error") if isinstance(code, int) else "platform_error"


def _advice(error: ApiError, ruid: str | None) -> str:
    kind = error.kind
    if kind == FIX_DATA:
        return "correct this cell and send again"
    if kind == REFUSED:
        return "the platform does not permit this change (the data may be right): change it in the extranet or ask support"
    return f"nothing to correct here: send again later (ruid {ruid or '-'})"


def issues_from_envelope(envelope: Envelope, cells: CellMap, api: str) -> list[dict]:
    """One issue per error and warning of ``envelope`` and per path it names, each on its cell."""
    out: list[dict] = []
    notices: Iterable[tuple[ApiError, str]] = [(e, "error") for e in envelope.errors] + \
        [(w, "warning") for w in envelope.warnings]
    for notice, severity in notices:
        for path in notice.fields or ("",):
            cell = cells.locate(path, notice.details)
            where = f" at `{normalize_path(path)}`" if path else ""
            text = f"the {api} answered {notice.code} ({notice.text()}){where}"
            message = (f"{text}: {_advice(notice, envelope.ruid)}" if severity == "error"
                       else f"{text} (warning; ruid {envelope.ruid or '-'})")
            out.append(issue(cell, platform_rule(notice) if severity == "error" else "platform_warning", message,
                             severity=severity))
    return out
