"""What every command does the same way (issue 26): the wrong workbook recognised, --version, help
that names values plainly and has examples, --quiet / --json / --verbose, whole lines in logs,
`workbench runs`."""

from __future__ import annotations

import json
import re
import sqlite3
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from workbench.cli import app
from workbench.paths import SAMPLES

runner = CliRunner()
RATES = str(SAMPLES / "rates.xlsx")
AS_OF = ["--as-of", "2026-12-01"]


@pytest.mark.parametrize(("args", "message"), [
    (["validate", "rates", str(SAMPLES / "content.xlsx")], "is a content workbook: use `workbench validate content`"),
    (["validate", "rates", str(SAMPLES / "registry.xlsx")], "is a registry workbook: give it with `--registry`"),
    (["push", "rates", str(SAMPLES / "rooms.xlsx"), "--dry-run", "out"], "is a rooms workbook: use `workbench push rooms`"),
    (["validate", "rooms", RATES], "is a rates workbook: use `workbench validate rates`"),
    (["push", "rooms", str(SAMPLES / "availability.xlsx"), "--dry-run", "out"],
     "is an availability workbook: use `workbench push availability`"),
    (["validate", "content", RATES], "is a rates workbook: use `workbench validate rates`"),
    (["push", "content", str(SAMPLES / "rooms.xlsx"), "--dry-run", "out"], "use `workbench push rooms`"),
    (["validate", "availability", str(SAMPLES / "content.xlsx")], "is a content workbook"),
])
def test_the_wrong_workbook_is_recognised_before_it_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              args: list[str], message: str) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert message in " ".join(result.output.split()), result.output
    assert not re.search(r"\d errors?\b", result.output)  # not a page of issues


def test_every_sample_is_its_own_kind() -> None:
    from loaders import workbook_kind

    kinds = {name: workbook_kind(SAMPLES / name) for name in ("rates.xlsx", "lisbon_seasons.csv", "rooms.xlsx",
                                                               "content.xlsx", "availability.xlsx", "registry.xlsx")}
    assert kinds == {"rates.xlsx": "rates", "lisbon_seasons.csv": "rates", "rooms.xlsx": "rooms",
                     "content.xlsx": "content", "availability.xlsx": "availability", "registry.xlsx": "registry"}


def test_version() -> None:
    from importlib.metadata import version

    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output.strip() == f"workbench {version('connectivity-workbench')}"


COMMANDS = [["validate", "rates"], ["validate", "rooms"], ["validate", "content"], ["validate", "availability"],
            ["push", "rates"], ["push", "rooms"], ["push", "content"], ["push", "requests"], ["fetch", "rooms"],
            ["health"], ["runs"], ["push", "availability"], ["fetch", "availability"], ["reconcile", "availability"]]


@pytest.mark.parametrize("command", COMMANDS)
def test_help_names_values_plainly_and_gives_examples(command: list[str]) -> None:
    result = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    text = result.output
    assert not re.search(r"<(list\[|bool|str|path|int|float)", text), text
    assert "Examples:" in text and f"workbench {' '.join(command)}" in text.split("Examples:")[1]
    if command[0] in ("validate", "push", "fetch", "health", "reconcile"):
        assert "--json" in text and "--quiet" in text and "--verbose" in text


def test_help_paragraphs_flow_and_examples_keep_their_lines() -> None:
    from workbench.cli.conventions import flowing

    doc = "Send the requests of a folder, built here or\n    elsewhere.\n\n    Examples:\n\n      a b\n      c d\n    "
    assert flowing(doc) == "Send the requests of a folder, built here or elsewhere.\n\nExamples:\n\n  a b\n  c d"
    listing = runner.invoke(app, ["push", "--help"], env={"COLUMNS": "200"}).output
    line = next(x for x in listing.splitlines() if "requests " in x and "dry-run folder" in x)
    assert "e.g. on a cluster" in line  # the docstring's line end does not cut the sentence


def test_json_is_one_object_on_stdout(tmp_path: Path) -> None:
    report = tmp_path / "r.csv"
    result = runner.invoke(app, ["validate", "rates", RATES, *AS_OF, "--report", str(report), "--json"])
    assert result.exit_code == 1
    body = json.loads(result.stdout)  # nothing else on stdout
    assert body["command"] == "validate rates" and body["exit_code"] == 1 and body["outcome"] == "errors"
    assert body["counts"]["errors"] == 5 and body["counts"]["rows"] == 496
    assert body["reports"] == [str(report)]
    assert "5 errors" in result.stderr  # the people's output went to stderr


def test_json_of_a_refused_command_says_why() -> None:
    result = runner.invoke(app, ["validate", "rates", RATES, "--report", RATES, "--json"])
    body = json.loads(result.stdout)
    assert result.exit_code == 2 and body["outcome"] == "unusable" and "--report" in body["error"]


def test_quiet_prints_only_errors() -> None:
    quiet = runner.invoke(app, ["validate", "rates", RATES, *AS_OF, "--quiet"])
    assert quiet.exit_code == 1 and quiet.stdout == ""
    refused = runner.invoke(app, ["validate", "rates", RATES, "--report", RATES, "-q"])
    assert refused.exit_code == 2 and "--report" in refused.stderr


def test_verbose_prints_each_stage_with_its_time() -> None:
    result = runner.invoke(app, ["validate", "rates", RATES, *AS_OF, "--verbose"])
    stages = [x for x in result.stdout.splitlines() if re.match(r"^\s*\d+\.\ds ", x)]
    assert any("Checking 496 prices" in x for x in stages), result.stdout


def test_push_rates_show_sets_how_many_issues_are_printed(tmp_path: Path) -> None:
    args = ["push", "rates", RATES, *AS_OF, "--dry-run", str(tmp_path / "out"), "--skip-invalid"]
    few = runner.invoke(app, [*args, "--show", "2"])
    assert few.exit_code == 0, few.output
    assert len(re.findall(r"^(error|warning) ", few.stdout, flags=re.M)) == 2


def test_logs_keep_whole_lines(workbench) -> None:
    run = workbench(["validate", "rates", RATES, *AS_OF], env={"COLUMNS": ""})  # not a terminal, no width given
    line = next(x for x in run.stdout.splitlines() if "the earliest night the platform accepts" in x)
    assert "remove it or move it forward" in line and len(line) > 80  # one line, not cut at 80 columns


def test_runs_lists_the_journal_s_last_runs(tmp_path: Path) -> None:
    from workbench.writers.journal import Journal

    journal = tmp_path / "journal.sqlite"
    with Journal(journal) as j:
        first = j.start_run("https://p", "push rates a.xlsx", kind="rates")
        j.finish_run(first, "done", requests=0)
        second = j.start_run("https://p", "push rooms r.xlsx", kind="rooms")
        j.finish_run(second, "interrupted")
        j.record_reports(second, [tmp_path / "push.html"])
    listed = runner.invoke(app, ["runs", "--journal", str(journal)], env={"COLUMNS": "300"})
    assert listed.exit_code == 0, listed.output
    lines = [x for x in listed.stdout.splitlines() if x.startswith("#")]
    assert lines[0].startswith("#1 ") and "push rates a.xlsx" in lines[0] and "(rates)" in lines[0]
    assert "push rooms r.xlsx" in lines[1] and "stopped" in lines[1] and "push.html" in lines[1]
    data = json.loads(runner.invoke(app, ["runs", "--journal", str(journal), "--last", "1", "--json"]).stdout)
    assert [r["run_id"] for r in data] == [2] and data[0]["reports"] == [str(tmp_path / "push.html")]
    missing = runner.invoke(app, ["runs", "--journal", str(tmp_path / "none.sqlite")])
    assert missing.exit_code == 2 and "no journal" in missing.output
    assert not (tmp_path / "none.sqlite").exists()


def test_an_old_journal_gets_the_reports_column(tmp_path: Path) -> None:
    from workbench.writers.journal import Journal

    path = tmp_path / "old.sqlite"
    with Journal(path):
        pass
    with sqlite3.connect(path) as db:
        db.execute("ALTER TABLE runs DROP COLUMN reports")
    with Journal(path) as j:
        run = j.start_run("t")
        j.record_reports(run, ["a.html"])
        assert json.loads(j.runs()["reports"].iloc[0]) == ["a.html"]


def test_a_stopped_send_carries_the_kind_s_result_of_what_was_sent() -> None:
    from workbench.writers.driver import PushInterrupted, result_when_stopped

    with pytest.raises(PushInterrupted) as caught, result_when_stopped(lambda sent: ("result of", sent)):
        raise PushInterrupted("stopped: nothing was sent", "the sent")  # type: ignore[arg-type]
    assert caught.value.result == ("result of", "the sent")
    with pytest.raises(PushInterrupted) as kept, result_when_stopped(lambda sent: "outer"):
        with result_when_stopped(lambda sent: "inner"):
            raise PushInterrupted("stopped", "s")  # type: ignore[arg-type]
    assert kept.value.result == "inner"  # the innermost kind's result is kept


def test_finishing_holds_a_ctrl_c_until_the_block_ends() -> None:
    import os
    import signal

    from workbench.cli.signals import finishing, sigterm_as_ctrl_c

    before = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)
    done = []
    with pytest.raises(KeyboardInterrupt):
        with finishing():
            os.kill(os.getpid(), signal.SIGINT)
            done.append("first report")
            done.append("second report")
    assert done == ["first report", "second report"]
    with pytest.raises(KeyboardInterrupt), sigterm_as_ctrl_c():
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)
    assert (signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)) == before  # handlers restored
