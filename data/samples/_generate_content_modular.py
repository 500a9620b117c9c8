"""Regenerate ``content_modular.xlsx`` (run: ``.venv/bin/python data/samples/_generate_content_modular.py``).

``content.xlsx`` with each deliberate problem fixed as the demo fixes it (``workbench.cli.demo.CONTENT_FIXES``),
plus what the modular APIs refuse beyond the content operation's rules (``MODULAR_FIXES``: a meal priced 0) and
without the sheets no modular API takes (attractions, relative positions: sunset 2023): the five properties as an
analyst sends them through the modular JSON APIs (``workbench push content --api modular``, notebook 06).
"""

from __future__ import annotations

from pathlib import Path

from workbench.cli.demo import fixed_content

HERE = Path(__file__).resolve().parent


def write(path: Path = HERE / "content_modular.xlsx") -> Path:
    return fixed_content(path, modular=True)


if __name__ == "__main__":
    print(write())
