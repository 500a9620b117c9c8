"""``workbench demo``: the sample data through validation, reports and a dry run."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from workbench.console import console

DEMO_AS_OF = "2026-12-01"  # the samples' dates are fixed in 2027; see data/samples/README.md


def register(app: typer.Typer) -> None:
    @app.command("demo")
    def demo(out: Annotated[Path, typer.Option(help="Where to write the reports and requests.")] =
             Path("workbench-demo")) -> None:
        """Run the sample data end to end and say where the results are."""
        from workbench.demo import run_demo

        ok = run_demo(out, console=console)
        raise typer.Exit(0 if ok else 1)
