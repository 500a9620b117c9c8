"""Where the project's own data lives (``data/`` at the repository root)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
SAMPLES = DATA / "samples"
CODES = DATA / "codes"
FX = DATA / "fx"
SPEC_REFERENCE = ROOT.parent / "shared" / "reference"
