"""``--engine dask`` on the command line, against the tests' cluster (``--scheduler``)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from tests.workbench.scale.conftest import AS_OF, random_rates, same_requests

ROOT = Path(__file__).resolve().parents[3]


def workbench(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200", "NO_COLOR": "1"}
    for name in [n for n in env if n.startswith("WORKBENCH_")]:
        env.pop(name)
    return subprocess.run([sys.executable, "-m", "workbench.cli", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300)


def test_validate_and_dry_run_on_a_running_cluster(client, tmp_path: Path) -> None:
    address = client.scheduler.address
    random_rates(11, hotels=3).to_csv(tmp_path / "rates.csv", index=False)
    done = workbench("validate", "rates", "rates.csv", "--engine", "dask", "--scheduler", address, "--as-of",
                     f"{AS_OF}", "--partition-size", "2", "--issues", "issues", "--report", "issues.csv", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert "Dask cluster: 2 workers; dashboard: http" in done.stdout
    assert re.search(r"\d errors?\b", done.stdout) and (tmp_path / "issues.csv").is_file()
    assert len(list((tmp_path / "issues").glob("part-*.parquet"))) == 2

    blocked = workbench("push", "rates", "rates.csv", "--engine", "dask", "--scheduler", address, "--dry-run", "out",
                        "--as-of", f"{AS_OF}", cwd=tmp_path)
    assert blocked.returncode == 1 and "Nothing written" in blocked.stdout
    built = workbench("push", "rates", "rates.csv", "--engine", "dask", "--scheduler", address, "--dry-run", "out",
                      "--as-of", f"{AS_OF}", "--skip-invalid", "--full", cwd=tmp_path)
    single = workbench("push", "rates", "rates.csv", "--dry-run", "single", "--as-of", f"{AS_OF}", "--skip-invalid",
                       cwd=tmp_path)
    assert built.returncode == 0 == single.returncode, built.stderr + single.stderr
    assert "send them with `workbench push requests out`" in built.stdout
    manifest = pd.read_csv(tmp_path / "single" / "manifest.csv")
    # the same requests but for their TimeStamp, so each file's SHA-256 differs between the two builds
    assert pd.read_csv(tmp_path / "out" / "manifest.csv").drop(columns="sha256").equals(manifest.drop(columns="sha256"))
    same_requests(tmp_path / "out", tmp_path / "single", list(manifest["file"]))


@pytest.mark.parametrize(("args", "message"), [
    (["validate", "rates", "r.csv", "--workers", "2"], "--workers works with --engine dask only"),
    (["validate", "rates", "r.csv", "--issues", "x", "--scheduler", "tcp://h:1"],
     "--scheduler, --issues work with --engine dask only"),
    (["validate", "rates", "r.csv", "--engine", "dask", "--workers", "2", "--scheduler", "tcp://h:1"],
     "give one of them"),
    (["push", "rates", "r.csv", "--engine", "dask"], "give --dry-run DIR"),
    (["validate", "rates", "r.csv", "--engine", "dask", "--waivers", "w.csv"],
     "--waivers is not applied with --engine dask"),
    (["push", "rates", "r.csv", "--engine", "dask", "--dry-run", "d", "--plan", "--wait", "5"],
     "--plan, --wait are not applied with --engine dask"),
])
def test_options_that_cannot_work_are_refused(tmp_path: Path, args: list[str], message: str,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from workbench.cli import app

    monkeypatch.chdir(tmp_path)
    (tmp_path / "r.csv").write_text("HotelCode,InvTypeCode,RatePlanCode,Date,AmountAfterTax,CurrencyCode\n")
    done = CliRunner().invoke(app, args, env={"COLUMNS": "200", "NO_COLOR": "1"})
    assert done.exit_code == 2, done.output
    assert message in " ".join(done.output.split())


def test_a_scheduler_that_cannot_be_reached_is_a_settings_error() -> None:
    from workbench.errors import SettingsError
    from workbench.scale import cluster

    with pytest.raises(SettingsError, match="cannot reach the Dask scheduler `tcp://127.0.0.1:9`.*dask scheduler"):
        with cluster(scheduler="tcp://127.0.0.1:9", timeout="1s"):
            pass
