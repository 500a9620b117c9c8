"""Where the notification state lives: a relative ``--state-dir`` means the working folder's (not
the filesystem root's), and reading a state that was never served is an error, not an empty inbox."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from workbench.notify.db import Database, sqlite_path, sqlite_url
from workbench.notify.errors import NotifyConfigError
from workbench.notify.service import NotifyService

ROOT = Path(__file__).resolve().parents[3]


def python(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200"}
    return subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize(("url", "path"), [
    ("sqlite:///srv/notify/notify.db", "/srv/notify/notify.db"),
    ("sqlite:////srv/notify/notify.db", "/srv/notify/notify.db"),
    ("sqlite:notify.db", "notify.db"),
    ("state/notify.db", "state/notify.db"),
])
def test_sqlite_urls_name_the_file_they_say(url: str, path: str) -> None:
    assert sqlite_path(url) == path


def test_a_relative_state_dir_is_the_working_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    db = Database.open("rel/state")
    assert db.path == tmp_path / "rel" / "state" / "notify.db" and db.path.is_file()
    assert sqlite_url("rel/state/notify.db") == f"sqlite:///{(tmp_path / 'rel/state/notify.db').as_posix().lstrip('/')}"
    assert Database(sqlite_url("rel/state/notify.db")).path == db.path
    with NotifyService("rel/state") as svc:
        assert svc.state_dir == tmp_path / "rel" / "state"


def test_the_cli_keeps_a_relative_state_under_the_working_folder(tmp_path: Path) -> None:
    run = python(["-m", "workbench.cli", "notify", "credentials", "create", "--state-dir", "rel/state",
                  "--client-id", "cns-rel"], cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert (tmp_path / "rel" / "state" / "notify.db").is_file()
    listed = python(["-m", "workbench.cli", "notify", "credentials", "list", "--state-dir", "rel/state"], cwd=tmp_path)
    assert listed.returncode == 0 and "cns-rel" in listed.stdout


def test_the_notification_demo_writes_under_its_own_folder(tmp_path: Path) -> None:
    code = ("from pathlib import Path\nfrom workbench.cli.notify_demo import run_notification_demo\n"
            "r = run_notification_demo(Path('demo'))\nprint(r.inbox_path)\n")
    run = python(["-c", code], cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert (tmp_path / "demo" / "notify" / "notify.db").is_file()
    assert (tmp_path / "demo" / "notifications-inbox.csv").is_file()


@pytest.mark.parametrize("command", [["list"], ["requests"], ["alerts"], ["dead-letters"], ["credentials", "list"],
                                     ["decide", "R-1", "accept"], ["keys", "list"]])
def test_reading_a_state_that_was_never_served_is_exit_2_naming_the_folder(tmp_path: Path,
                                                                          command: list[str]) -> None:
    run = python(["-m", "workbench.cli", "notify", *command, "--state-dir", "no/such/state"], cwd=tmp_path)
    assert run.returncode == 2, run.stdout + run.stderr
    assert f"`{tmp_path / 'no' / 'such' / 'state'}` does not exist" in " ".join(run.stderr.split())
    assert not (tmp_path / "no").exists() and "Traceback" not in run.stderr


def test_a_folder_without_a_database_is_named_too(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(NotifyConfigError, match=r"has no `notify.db`"):
        Database.open(tmp_path / "empty", create=False)
    assert not (tmp_path / "empty" / "notify.db").exists()
