"""What the commands share: the command groups (``validate``, ``push``, ``fetch``, ``reconcile``), the options every
kind's commands take, reading the settings, the sheets skipped, and the push reports of ``--report``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.markup import escape

from workbench.cli import summary
from workbench.cli.console import console, fail, stop, written
from workbench.cli.signals import finishing

validate_app = typer.Typer(help="Check spreadsheets against the platform's rules; nothing is sent.",
                           no_args_is_help=True)
push_app = typer.Typer(help="Send validated data to the platform (or write the requests with --dry-run).",
                       no_args_is_help=True)

Files = Annotated[list[Path], typer.Argument(
    help="CSV/Excel/Parquet files, or folders of them (CSV/Excel files, or a Parquet dataset, hive-partitioned or "
         "not); every sheet is read unless --sheet is given.", show_default=False)]
AsOf = Annotated[str | None, typer.Option("--as-of", help="Check dates as of this day (YYYY-MM-DD); default: "
                                                          "today in CET.", show_default=False)]
RegistryOpt = Annotated[list[Path] | None, typer.Option(
    "--registry", help="Property registry (properties, rooms, room-rates); may repeat.", show_default=False)]
SheetOpt = Annotated[list[str] | None, typer.Option("--sheet", help="Read only this sheet; may repeat.",
                                                    show_default=False)]
FxOpt = Annotated[Path | None, typer.Option("--fx", help="FX table (currency,units_per_eur[,as_of]) for the "
                                                         "50,000 EUR cap.", show_default=False)]
EncodingOpt = Annotated[str | None, typer.Option(
    "--encoding", help="Encoding of CSV files (e.g. utf-8, utf-16, cp1252); default: detected.", show_default=False)]
HeaderRowOpt = Annotated[int | None, typer.Option(
    "--header-row", min=1, help="Row holding the column names, counted as in Excel (1 = first row); default: the "
                                "first of the first 20 rows naming known columns.", show_default=False)]
WaiversOpt = Annotated[Path | None, typer.Option(
    "--waivers", help="Waivers file (CSV/XLSX: rule, property, room, rate, start, end, reason, who, expires): "
                      "matching warnings are shown as waived and count nowhere; errors are never waived.",
    show_default=False)]
WaitOpt = Annotated[float, typer.Option(
    "--wait", min=0, help="When another push is sending with the same journal, wait up to this many seconds for it "
                          "to finish (default: refuse at once, naming it).")]
EnvFileOpt = Annotated[Path | None, typer.Option(
    "--env-file", help="Settings file (e.g. a sandbox's connection.env); default: the environment and ./.env.",
    show_default=False)]
JournalOpt = Annotated[Path, typer.Option(help="The push journal (SQLite): outcomes, accepted prices, resume.")]
ReportOpt = Annotated[list[Path] | None, typer.Option(
    "--report", help="Write a report; the extension picks the format: .csv, .xlsx (your sheets with the "
                     "failing cells marked) or .html. May repeat.", show_default=False)]
fetch_app = typer.Typer(help="Read what the platform stores (room types, amenities) into frames and workbooks.",
                        no_args_is_help=True)
reconcile_app = typer.Typer(help="Compare what the platform holds with what the journal says it accepted.",
                            no_args_is_help=True)
SKIPPED_RULES = ("hidden_sheet", "sheet_ignored")


def print_skipped(issues) -> None:
    """Say which sheets were not read (hidden, or not the table asked for), before the issues."""
    skipped = issues[issues["rule"].isin(SKIPPED_RULES)]
    for r in skipped.itertuples(index=False):
        why = f"{r.value}; name it with --sheet to read it" if r.rule == "hidden_sheet" else str(r.value)
        console.print(f"[yellow]Skipped[/] sheet [bold]{escape(str(r.sheet))}[/] of {escape(str(r.source))} "
                      f"({escape(why)})")



def load_settings(env_file: Path | None, *, check_files: bool = True):
    """The settings of ``--env-file`` (else the environment and ./.env); ``SettingsError`` when they cannot
    be used (a number that is not one, a CA bundle that does not exist; ``check_files=False`` for a command
    that only reads a value, e.g. a dry run's weekday spelling, and sends nothing)."""
    from workbench.config import Settings
    from workbench.errors import SettingsError

    if env_file is not None:
        if not env_file.is_file():
            raise SettingsError(f"settings file `{env_file}` does not exist (a sandbox writes DIR/connection.env "
                                "when it starts)")
        settings = Settings.from_file(env_file)
        return settings.check_files("ca_bundle", source=env_file) if check_files else settings
    settings = Settings.from_env()
    return settings.check_files("ca_bundle", source="the environment or ./.env") if check_files else settings


class PushReports:
    """The push reports asked for with ``--report``: written whatever happens, even when nothing is sent."""

    def __init__(self, paths: list[Path] | None, journal: Path | None = None, kind: Any = None) -> None:
        self.paths = list(paths or [])
        self.journal = journal
        self.kind = kind  # the kind of data a push that sent nothing was about (``KindInfo``; default rates)

    def write(self, result: Any) -> None:
        """Every report of ``result``, all of them (a Ctrl-C waits until they are written)."""
        from workbench.reports.push import write_push_report

        summary.result(result)
        done_paths = write_each(self.paths, lambda path: write_push_report(result, path), "push report")
        remember_reports(getattr(result, "journal", None) or self.journal, getattr(result, "run_id", None), done_paths)

    def stopped(self, exc: Any, plan: Any = None) -> NoReturn:
        """A push stopped by Ctrl-C or SIGTERM (``workbench.writers.driver.PushInterrupted``): the reports of
        what was sent, then its one line (nothing sent, or how many requests are in the journal), exit 130."""
        if exc.result is not None:
            if plan is not None:
                exc.result.plan = plan
            self.write(exc.result)
        stop(str(exc))

    def nothing_sent(self, reason: str, check=None, target: str = "") -> None:
        if self.paths:  # without a check the files may not be readable: the report does not copy them
            from workbench.reports.push import NothingSent  # only then: a dry run without reports stays light

            kind = {"kind": self.kind} if self.kind is not None else {}
            self.write(NothingSent(reason, check.not_sent() if check is not None else None,
                                   check.files if check is not None else [], target, **kind))


def remember_reports(journal: Path | None, run_id: int | None, paths: list[Path] | None) -> None:
    """Record in the journal the reports written of run ``run_id`` (``workbench runs`` lists them)."""
    if journal is None or run_id is None or not paths or not Path(journal).is_file():
        return
    from workbench.writers import Journal

    with Journal(journal) as j:
        j.record_reports(run_id, [Path(p).absolute() for p in paths])


def write_reports(issues: Any, files: list[Path], paths: list[Path] | None, title: str,
                  extra: dict[str, str] | None = None) -> None:
    """Each validation report of ``issues`` (CSV, XLSX with the failing cells marked in the analyst's own
    sheets, HTML)."""
    from workbench.reports.validation import ReportContext, write_report

    write_each(paths, lambda path: write_report(issues, path, ReportContext(title=title, files=files,
                                                                            extra=extra or {})))


def write_each(paths: list[Path] | None, write: Any, what: str = "report") -> list[Path]:
    """``write(path)`` for each of ``paths``, saying each file written; a Ctrl-C waits until all of them are
    (:func:`~workbench.cli.signals.finishing`); a path that cannot be written is one line, exit 2."""
    done_paths: list[Path] = []
    with finishing():
        for path in paths or []:
            try:
                with console.status(f"Writing {path}…"):
                    done = write(path)
            except (ValueError, OSError) as exc:
                fail(f"cannot write the {what} `{path}`: {exc}")
            written(done, f"{what[0].upper()}{what[1:]} written")
            done_paths.append(done)
    return done_paths
