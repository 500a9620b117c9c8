"""The notification state is its owner's only: folders 0700, files 0600 (notify.db and its -wal/-shm
hold guest data and secret hashes), made so at every start with a line saying what changed, or
refused (exit 2) when it cannot be."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from workbench.notify import NotifyService
from workbench.notify.permissions import make_private

PRIVATE_DIR, PRIVATE_FILE = 0o700, 0o600


def modes(root: Path) -> dict[str, int]:
    """Mode of the folder and of everything under it (symbolic links themselves left out)."""
    found = {".": stat.S_IMODE(root.stat().st_mode)}
    for path in root.rglob("*"):
        if not path.is_symlink():
            found[str(path.relative_to(root))] = stat.S_IMODE(path.stat().st_mode)
    return found


def private(root: Path) -> bool:
    return all(mode & 0o077 == 0 for mode in modes(root).values())


@pytest.fixture
def umask_022() -> Iterator[None]:
    """The usual umask, whatever the test runner's: files would be created 0644, folders 0755."""
    old = os.umask(0o022)
    yield
    os.umask(old)


def loosen(root: Path) -> None:
    """Make a state as an older version left it: everything readable by every local user."""
    for path in [root, *root.rglob("*")]:
        if not path.is_symlink():
            path.chmod(0o755 if path.is_dir() else 0o644)


def test_a_new_state_is_private_from_the_start(tmp_path: Path, umask_022: None) -> None:
    with NotifyService(tmp_path / "state") as svc:
        svc.credentials.create("cns-new")
        svc.keyring.signing_key()
        assert svc.permission_fixes == []
        files = {p.name for p in (tmp_path / "state").iterdir()}
        assert {"notify.db", "notify.db-wal", "notify.db-shm", "keys"} <= files
        assert private(tmp_path / "state"), modes(tmp_path / "state")


def test_an_open_state_is_made_private_with_a_line_for_each_change(tmp_path: Path, umask_022: None) -> None:
    state = tmp_path / "state"
    with NotifyService(state) as svc:
        svc.credentials.create("cns-old")
        svc.keyring.signing_key()
    outside = tmp_path / "shared.txt"
    outside.write_text("not part of the state")
    outside.chmod(0o644)
    (state / "link-to-shared").symlink_to(outside)  # a link is not followed
    loosen(state)
    with NotifyService(state) as svc:
        fixes = svc.permission_fixes
    assert private(state), modes(state)
    assert stat.S_IMODE(outside.stat().st_mode) == 0o644
    assert any(f"`{state}` was 0755, now 0700" in line for line in fixes)
    assert any(f"`{state / 'notify.db'}` was 0644, now 0600" in line for line in fixes)
    assert any(f"`{state / 'keys'}` was 0755, now 0700" in line for line in fixes)
    assert all(line.startswith("fixed permissions: ") for line in fixes)
    assert make_private(state) == []  # once fixed, nothing more to say


def test_serve_fixes_an_old_state_and_creates_only_private_files(serve_process: Callable, tmp_path: Path,
                                                                  umask_022: None) -> None:
    state = tmp_path / "state"
    with NotifyService(state) as svc:
        creds = svc.credentials.create("cns-serve")
    loosen(state)
    served = serve_process("[request_to_book]\ncheck_interval_seconds = 0\n", state=state)
    with served.client() as http:
        token = http.post("/oauth/token", data={"grant_type": "client_credentials", "client_id": creds.client_id,
                                                "client_secret": creds.secret}).json()["access_token"]
        sent = http.post("/notifications", content=json.dumps({"metadata": {"uuid": "p-1"}, "payload": {}}),
                         headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    assert sent.status_code == 200
    log = served.output()
    assert f"fixed permissions: `{state / 'notify.db'}` was 0644, now 0600" in log
    assert {"notify.env", "tls", "notify.db-wal"} <= {p.name for p in state.iterdir()}
    assert private(state), modes(state)  # the TLS files and notify.env it wrote itself too
    served.stop()


def test_a_state_that_cannot_be_made_private_is_refused_with_exit_2(tmp_path: Path) -> None:
    """/proc refuses chmod to everyone, root included: a stand-in for a file of another user."""
    run = subprocess.run([sys.executable, "-m", "workbench.notify", "list", "--state-dir", str(tmp_path),
                          "--database-url", "sqlite:////proc/self/status"], capture_output=True, text=True,
                         timeout=120, env={**os.environ, "COLUMNS": "300"})
    assert run.returncode == 2, run.stdout + run.stderr
    assert "`/proc/self/status` can be read by other users (mode 0444) and cannot be made private" in run.stderr
    assert "Traceback" not in run.stderr


def test_the_cli_says_what_it_fixed(tmp_path: Path) -> None:
    state = tmp_path / "state"
    with NotifyService(state):
        pass
    (state / "notify.db").chmod(0o644)
    run = subprocess.run([sys.executable, "-m", "workbench.notify", "list", "--state-dir", str(state)],
                         capture_output=True, text=True, timeout=120, env={**os.environ, "COLUMNS": "300"})
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"fixed permissions: `{state / 'notify.db'}` was 0644, now 0600" in run.stderr
    assert stat.S_IMODE((state / "notify.db").stat().st_mode) == PRIVATE_FILE
    assert stat.S_IMODE(state.stat().st_mode) == PRIVATE_DIR
