"""The public faces are pinned: ``loaders``, ``expectations`` and ``workbench`` export exactly these
names (after httpx's ``tests/test_exported_members.py``), every one resolves, notebooks import
only these faces, no module reaches into another package's private names, and the packages ship
``py.typed``. A name added to a face is a decision: add it here too."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import expectations
import loaders
import workbench

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("loaders", "expectations", "workbench")

EXPORTED = {
    "loaders": [
        "AMENITIES_COLUMNS", "AVAILABILITY_COLUMNS", "CONTENT_COLUMNS", "CONTENT_PARTS", "ContentLoaded",
        "ISSUE_COLUMNS", "LoadError", "Loaded", "RATES_COLUMNS", "RESTRICTIONS", "ROOMS_COLUMNS", "Registry",
        "RoomsLoaded", "SUBROOMS_COLUMNS", "check_workbook_kind", "empty_issues", "read_availability", "read_content",
        "read_rates", "read_registry", "read_rooms", "read_waivers", "sheet_headers", "weekday_mask", "workbook_kind",
        "other_kind", "workbook_kinds", "wrong_kind_message",
    ],
    "expectations": [
        "ContentLookups", "FxTable", "ISSUE_COLUMNS", "bed_types", "cet_today", "country_outlines", "date_window",
        "has_errors", "read_fx_table", "room_type_name", "validate_availability", "validate_content",
        "validate_content_modular", "validate_rates", "validate_rooms", "validate_rooms_modular",
    ],
    "workbench": [
        "AvailabilityCheck", "AvailabilityDryRun", "AvailabilityPlan", "AvailabilityPushResult",
        "AvailabilityReconciliation", "BlockedByErrors", "CarSearch", "CnsClient", "CnsConfig", "ContentCheck",
        "ContentPushResult", "DATA", "DeprecatedOperationWarning", "DryRun",
        "InputError", "LateDecision", "LoadError", "ModularPushResult", "NotifyService", "OperationSunset",
        "PlatformReadError", "ModularRoomsPlan", "ModularRoomsPushResult", "check_rooms_modular", "default_rooms_api",
        "fetch_rooms_modular", "modular_rooms_frames", "plan_rooms_modular", "push_rooms_modular",
        "write_modular_rooms_workbook",
        "PlatformRooms", "PropertyHealth", "PushResult", "ROOT", "RatesCheck", "RatesPlan", "ReportContext", "RoomsCheck",
        "RoomsPushResult",
        "SAMPLES", "SearchParams", "SearchParamsError", "Secret", "Settings", "SettingsError", "TerminalError",
        "TransientError", "WorkbenchError", "affiliate_links", "check_availability", "check_content",
        "check_content_modular", "check_rates", "check_rooms",
        "create_notify_app", "fetch_content_modular", "plan_content_modular", "push_content_modular",
        "write_content_workbook",
        "dry_run", "ensure_test_ca", "expand_payload", "fetch_availability", "fetch_registry", "fetch_rooms",
        "notification", "notifications_frame", "plan_availability", "plan_rates", "PlatformAvailability",
        "preview_content", "preview_rooms", "property_health", "push_availability", "push_content",
        "push_rates", "push_rooms", "read_notifications", "reconcile_availability",
        "rooms_dry_run", "run_demand_sandbox", "run_sandbox", "search_cars", "serve_in_thread", "write_health_report",
        "write_letters", "write_plan_report", "write_push_report", "write_report", "write_rooms_workbook", "write_table",
        "xml_excerpt",
    ],
}
FACES = {"loaders": loaders, "expectations": expectations, "workbench": workbench}


@pytest.mark.parametrize("name", PACKAGES)
def test_exported_members_are_pinned_and_resolve(name: str) -> None:
    face = FACES[name]
    assert sorted(face.__all__) == sorted(EXPORTED[name]), f"{name}.__all__ changed: update EXPORTED if meant"
    assert len(set(face.__all__)) == len(face.__all__)
    for member in face.__all__:
        assert getattr(face, member) is not None, f"{name}.{member} does not resolve"
    assert set(face.__all__) <= set(dir(face))


def test_unknown_names_raise_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'check_ratez'"):
        workbench.check_ratez  # noqa: B018


def test_the_error_tree_groups_by_what_the_caller_can_do() -> None:
    from workbench.cars import CarsAuthError, CarsConfigError, CarsRateLimitError, CarsServerError
    from workbench.notify import NotifyConfigError, StoreError
    from workbench.transport import ConfigurationError

    for cls in (ConfigurationError, CarsConfigError, NotifyConfigError):
        assert issubclass(cls, workbench.SettingsError) and issubclass(cls, ValueError)
    for cls in (CarsRateLimitError, CarsServerError, StoreError):
        assert issubclass(cls, workbench.TransientError)
    for cls in (workbench.PlatformReadError, workbench.OperationSunset, CarsAuthError):
        assert issubclass(cls, workbench.TerminalError)
    for cls in (workbench.BlockedByErrors, workbench.SearchParamsError):
        assert issubclass(cls, workbench.InputError)
    for group in (workbench.InputError, workbench.SettingsError, workbench.TransientError, workbench.TerminalError):
        assert issubclass(group, workbench.WorkbenchError)


def test_importing_the_faces_and_the_cli_stays_light() -> None:
    code = ("import sys, workbench, workbench.cli; "
            "print(sorted(m for m in ('pandas', 'great_expectations', 'lxml', 'httpx') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("name", PACKAGES)
def test_packages_ship_py_typed(name: str) -> None:
    assert (ROOT / name / "py.typed").is_file()


def _notebook_imports(path: Path) -> list[str]:
    nb = json.loads(path.read_text(encoding="utf-8"))
    found = []
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        for node in ast.walk(ast.parse("".join(cell["source"]))):
            if isinstance(node, ast.ImportFrom) and node.module:
                found.append(node.module)
            elif isinstance(node, ast.Import):
                found += [a.name for a in node.names]
    return found


NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebooks_import_only_the_faces(path: Path) -> None:
    ours = [m for m in _notebook_imports(path) if m.split(".")[0] in PACKAGES]
    assert ours, f"{path.name} imports nothing of the project"
    assert set(ours) <= set(PACKAGES), f"{path.name} imports {sorted(set(ours) - set(PACKAGES))}: use the faces"


def _private_reaches(path: Path) -> list[str]:
    """Imports in ``path`` of another module's private name, or of a private module of another package."""
    here = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])  # the importing module's package
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.split(".")[0] not in PACKAGES:
                continue
            parts = node.module.split(".")
            private_at = next((i for i, p in enumerate(parts) if p.startswith("_")), None)
            owner = ".".join(parts[:private_at]) if private_at is not None else node.module
            names = [a.name for a in node.names if a.name.startswith("_")]
            if private_at is not None and owner != here:
                out.append(f"{path.relative_to(ROOT)}: from {node.module} import ...")
            elif names:  # a module's private names are its own, even within its package
                out.append(f"{path.relative_to(ROOT)}: from {node.module} import {', '.join(names)}")
    return out


def test_no_module_imports_another_packages_private_names() -> None:
    found = [hit for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py")) for hit in _private_reaches(p)]
    assert not found, "promote what is shared to a public name:\n" + "\n".join(found)
