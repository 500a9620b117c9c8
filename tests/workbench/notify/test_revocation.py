"""A leaked client secret is cut off at once: after `workbench notify revoke` (or `credentials retire`)
the server - its own process - refuses with 401 the tokens minted with that secret, not an hour later."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from workbench.cli.notify import notify_app
from workbench.notify import NotifyService

QUIET = "[request_to_book]\ncheck_interval_seconds = 0\n"
runner = CliRunner()


def cli(*args: str) -> tuple[int, str]:
    result = runner.invoke(notify_app, list(args), env={"COLUMNS": "200"})
    return result.exit_code, " ".join(result.output.split())


def token(http: httpx.Client, client_id: str, secret: str) -> httpx.Response:
    return http.post("/oauth/token", data={"grant_type": "client_credentials", "client_id": client_id,
                                           "client_secret": secret})


def post(http: httpx.Client, access_token: str, uuid: str) -> httpx.Response:
    return http.post("/notifications", content=json.dumps({"metadata": {"uuid": uuid, "type": "X"}, "payload": {}}),
                     headers={"Authorization": f"Bearer {access_token}", "Content-Type": "application/json"})


@pytest.fixture
def two_secrets(serve_process: Callable, tmp_path: Path):  # noqa: ANN201
    """A served state whose client `cns-rev` has two live secrets, and a token minted with each."""
    state = tmp_path / "state"
    with NotifyService(state) as svc:
        first = svc.credentials.create("cns-rev")
        second = svc.credentials.rotate("cns-rev")
    served = serve_process(QUIET, state=state)
    with served.client() as http:
        tokens = [token(http, "cns-rev", s.secret).json()["access_token"] for s in (first, second)]
        assert [post(http, t, f"before-{i}").status_code for i, t in enumerate(tokens)] == [200, 200]
    yield served, state, (first, second), tokens
    served.stop()


def test_revoke_refuses_the_leaked_secrets_tokens_at_once(two_secrets) -> None:  # noqa: ANN001
    served, state, (leaked, kept), (leaked_token, kept_token) = two_secrets
    code, out = cli("revoke", "--client-id", "cns-rev", "--secret-id", leaked.secret_id, "--state-dir", str(state))
    assert code == 0 and f"revoked {leaked.secret_id} of cns-rev" in out
    with served.client() as http:
        refused = post(http, leaked_token, "after-leaked")
        assert refused.status_code == 401 and 'error="invalid_token"' in refused.headers["www-authenticate"]
        assert "revoked" in refused.json()["error_description"]
        assert post(http, kept_token, "after-kept").status_code == 200  # the other secret's tokens still work
        assert token(http, "cns-rev", leaked.secret).status_code == 401  # and the leaked one mints no more
        assert token(http, "cns-rev", kept.secret).status_code == 200


def test_retiring_a_secret_refuses_its_tokens_too(two_secrets) -> None:  # noqa: ANN001
    served, state, (old, _new), (old_token, new_token) = two_secrets
    code, out = cli("credentials", "retire", "--client-id", "cns-rev", "--state-dir", str(state))
    assert code == 0 and f"retired {old.secret_id}" in out
    with served.client() as http:
        assert post(http, old_token, "after-retire").status_code == 401
        assert post(http, new_token, "after-retire-new").status_code == 200


def test_revoke_all_leaves_no_way_in_until_a_new_secret(two_secrets) -> None:  # noqa: ANN001
    served, state, _secrets, tokens = two_secrets
    code, out = cli("revoke", "--client-id", "cns-rev", "--all", "--state-dir", str(state))
    assert code == 0 and "cns-rev has no live secret now" in out and "credentials rotate --client-id cns-rev" in out
    with served.client() as http:
        assert [post(http, t, f"after-all-{i}").status_code for i, t in enumerate(tokens)] == [401, 401]
    with NotifyService(state, create=False) as svc:
        fresh = svc.credentials.rotate("cns-rev")
        unrecorded = svc.tokens.issue("cns-rev").access_token  # signed with the real key, but never handed out
    with served.client() as http:
        assert post(http, token(http, "cns-rev", fresh.secret).json()["access_token"], "fresh").status_code == 200
        assert post(http, unrecorded, "unrecorded").status_code == 401


@pytest.mark.parametrize(("args", "message"), [
    ([], "give `--secret-id S`"),
    (["--secret-id", "s-1", "--all"], "not both"),
    (["--secret-id", "s-nope"], "has no secret `s-nope`"),
])
def test_revoke_needs_a_secret_it_can_name(tmp_path: Path, args: list[str], message: str) -> None:
    with NotifyService(tmp_path / "state") as svc:
        svc.credentials.create("cns-args")
    code, out = cli("revoke", "--client-id", "cns-args", *args, "--state-dir", str(tmp_path / "state"))
    assert code == 2 and message in out


def test_revoke_names_an_unknown_client(tmp_path: Path) -> None:
    with NotifyService(tmp_path / "state") as svc:
        svc.credentials.create("cns-known")
    code, out = cli("revoke", "--client-id", "cns-who", "--all", "--state-dir", str(tmp_path / "state"))
    assert code == 2 and "no client `cns-who`; known clients: cns-known" in out
