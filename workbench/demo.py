"""The demo behind ``workbench demo``: samples -> validation reports -> requests.

Every step checks what it expected and the demo fails loudly (exit 1) if anything differs,
so it doubles as a smoke test on a fresh machine.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from rich.console import Console

from workbench.paths import SAMPLES

DEMO_AS_OF = dt.date(2026, 12, 1)
SAMPLE_RATES = [SAMPLES / "rates.xlsx", SAMPLES / "lisbon_seasons.csv"]
SAMPLE_REGISTRY = SAMPLES / "registry.xlsx"
#: the deliberate problems in the samples (data/samples/README.md), by rule
EXPECTED_ERRORS = {"not_a_number", "duplicate_key", "rate_not_active_for_room", "child_rate_follows_price",
                   "date_window", "price_cap", "property_currency", "price_negative", "guests_max", "date_order"}


class DemoFailed(RuntimeError):
    """A demo step did not produce what it should have."""


def run_demo(out: Path, console: Console | None = None) -> bool:
    console = console or Console()
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    try:
        _rates_offline(out, console)
    except DemoFailed as exc:
        console.print(f"[bold red]Demo failed:[/] {exc}")
        return False
    console.print(f"\n[bold green]Demo complete.[/] Everything is in [bold]{out.resolve()}[/]")
    return True


def _rates_offline(out: Path, console: Console) -> None:
    from workbench.rates import check_rates, dry_run
    from workbench.reports.validation import ReportContext, write_report

    console.rule("1. Load and validate the sample rates")
    check = check_rates(SAMPLE_RATES, registry=SAMPLE_REGISTRY, as_of=DEMO_AS_OF)
    found = set(check.errors["rule"])
    console.print(f"{len(check.frame):,} prices from {len(check.files)} files; as of {DEMO_AS_OF} (CET): "
                  f"[red]{len(check.errors)} errors[/], [yellow]{len(check.warnings)} warnings[/]")
    console.print(check.summary().to_string(index=False))
    if found != EXPECTED_ERRORS:
        raise DemoFailed(f"expected the sample's deliberate problems {sorted(EXPECTED_ERRORS)}, found {sorted(found)}")
    ctx = ReportContext(title="Rates validation (sample data)", files=check.files, as_of=check.as_of,
                        rows_checked=len(check.frame))
    reports = [write_report(check.issues, out / f"rates-validation.{ext}", ctx) for ext in ("html", "xlsx", "csv")]
    for r in reports:
        console.print(f"  report: {r}")

    console.rule("2. Dry run: compressed OTA requests, one hotel and month each")
    result = dry_run(check, out / "requests", skip_invalid=True)
    if not result.requests or result.cells != len(check.valid_frame()):
        raise DemoFailed("the dry run did not carry every valid price")
    console.print(f"{len(result.requests)} requests, {result.messages} messages for {result.cells:,} prices "
                  f"({result.cells / max(result.messages, 1):.1f} prices per message); "
                  f"{result.skipped_rows} prices with errors left out")
    console.print(f"  requests: {result.directory} (manifest.csv lists the source rows of each)")
