"""Where the project's own data lives (``data/`` at the repository root)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
SAMPLES = DATA / "samples"
CODES = DATA / "codes"
FX = DATA / "fx"


def _shared_reference() -> Path:
    """``shared/reference`` beside the repository, or beside a folder above it (a git worktree
    under ``wt/NAME`` shares the main checkout's ``shared``)."""
    for folder in ROOT.parents:
        if (folder / "shared" / "reference").is_dir():
            return folder / "shared" / "reference"
    return ROOT.parent / "shared" / "reference"


SPEC_REFERENCE = _shared_reference()
