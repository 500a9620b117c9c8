"""The command line is the Python API: ``workbench push rates`` (a real process) and ``check_rates`` +
``push_rates`` in a notebook give the same requests, outcomes and report for the same inputs."""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
from pathlib import Path

import pandas as pd

from workbench.flows.rates import check_rates, push_rates
from workbench.paths import SAMPLES
from workbench.reports.push import write_push_report
from workbench.sandbox import run_sandbox
from workbench.wording import count

EXE = Path(sys.executable).with_name("workbench")
FILES = [SAMPLES / "rates.xlsx", SAMPLES / "lisbon_seasons.csv"]
AS_OF = dt.date(2026, 12, 1)
#: what differs between two runs of the same push: the platform's request ids and the run's own numbers
RUN_COLUMNS = ["ruid", "request_id"]


def report_rows(path: Path) -> pd.DataFrame:
    rows = pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8-sig")
    return rows.drop(columns=[c for c in RUN_COLUMNS if c in rows]).sort_values(list(rows.columns.drop(
        [c for c in RUN_COLUMNS if c in rows]))).reset_index(drop=True)


def test_push_rates_on_the_command_line_is_check_rates_then_push_rates(tmp_path: Path) -> None:
    with run_sandbox(tmp_path / "cli-sb", today=AS_OF) as cli_sb, run_sandbox(tmp_path / "api-sb", today=AS_OF) as api_sb:
        run = subprocess.run([str(EXE), "push", "rates", *map(str, FILES), "--as-of", AS_OF.isoformat(),
                              "--skip-invalid", "--env-file", str(cli_sb.connection_file), "--journal",
                              str(tmp_path / "cli.sqlite"), "--report", str(tmp_path / "cli.csv")],
                             capture_output=True, text=True, timeout=600)
        assert run.returncode in (0, 1), run.stdout + run.stderr
        settings = api_sb.settings
        check = check_rates(FILES, as_of=AS_OF, settings=settings, journal=tmp_path / "api.sqlite")
        result = push_rates(check, settings, journal=tmp_path / "api.sqlite", skip_invalid=True, progress=False)
        write_push_report(result, tmp_path / "api.csv")
    assert (run.returncode == 0) == result.ok
    cli, api = report_rows(tmp_path / "cli.csv"), report_rows(tmp_path / "api.csv")
    assert len(api) > 100 and set(api["outcome"]) >= {"success", "not sent (errors)"}
    pd.testing.assert_frame_equal(cli, api)
    assert count(len(result.requests), "request") in run.stdout
