"""The stage packages' faces: ``workbench.writers``, ``flows``, ``platform`` and ``ota`` each list the names
the rest of the code uses, and a module outside a stage imports it from the face, never from the modules
behind it (so a stage can move its modules without touching its users)."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
STAGES = ("writers", "flows", "platform", "ota")
#: each face's modules (``from workbench.writers import driver`` goes behind the face too)
FACES = {f"workbench.{s}": {p.stem for p in (ROOT / "workbench" / s).glob("*.py")} | {
         p.name for p in (ROOT / "workbench" / s).iterdir() if (p / "__init__.py").is_file()} for s in STAGES}


def _module(path: Path) -> str:
    name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    return name.removesuffix(".__init__")


def behind_a_face(source: str, module: str, shown: str) -> list[str]:
    """``shown:line  workbench.<stage>.<module>`` for each import of ``source`` (the code of ``module``)
    that bypasses a face, at module level or inside a function."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            targets = [node.module]
        elif isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        else:
            continue
        if isinstance(node, ast.ImportFrom) and node.module in FACES:  # a module behind the face, by its name
            targets += [f"{node.module}.{a.name}" for a in node.names if a.name in FACES[node.module]]
        for target in targets:
            parts = target.split(".")
            if parts[0] == "workbench" and len(parts) > 2 and parts[1] in STAGES:
                stage = f"workbench.{parts[1]}"
                if module != stage and not module.startswith(stage + "."):
                    found.append(f"{shown}:{node.lineno}  {target}")
    return found


def test_code_outside_a_stage_imports_it_through_its_face() -> None:
    bypass = [line for path in sorted((ROOT / "workbench").rglob("*.py"))
              for line in behind_a_face(path.read_text(encoding="utf-8"), _module(path), str(path.relative_to(ROOT)))]
    assert bypass == [], "import these from the package's face (add the name to its __init__.py):\n" + "\n".join(bypass)


def test_the_checker_sees_a_bypass_and_lets_a_stage_use_its_own_modules() -> None:
    source = "from workbench.writers.push import PushResult\nfrom workbench.writers import driver\n\ndef f():\n" \
             "    import workbench.ota.ns\n"
    assert behind_a_face(source, "workbench.reports.push", "r.py") == [
        "r.py:1  workbench.writers.push", "r.py:2  workbench.writers.driver", "r.py:5  workbench.ota.ns"]
    assert behind_a_face(source, "workbench.writers.folder", "w.py") == ["w.py:5  workbench.ota.ns"]


@pytest.mark.parametrize("stage", STAGES)
def test_every_name_of_a_face_resolves(stage: str) -> None:
    face = importlib.import_module(f"workbench.{stage}")
    assert face.__all__ == sorted(face.__all__)
    missing = [name for name in face.__all__ if getattr(face, name, None) is None]
    assert missing == []
    assert set(face.__all__) <= set(dir(face))


def test_a_face_shows_the_module_as_it_is_now(monkeypatch: pytest.MonkeyPatch) -> None:
    """A face keeps no copy: a monkeypatch of the module behind it is seen through it, before and after a look-up."""
    import workbench.flows
    import workbench.flows.rates

    real = workbench.flows.check_rates
    assert real is workbench.flows.rates.check_rates

    def fake(*args: object, **kwargs: object) -> None:
        return None

    monkeypatch.setattr(workbench.flows.rates, "check_rates", fake)
    from workbench.flows import check_rates

    assert check_rates is fake and workbench.flows.check_rates is fake
