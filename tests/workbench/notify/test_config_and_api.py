"""Configuration files (documented defaults, clear errors) and the pinned public API."""

from __future__ import annotations

from pathlib import Path

import pytest

import workbench.notify as notify
from workbench.notify import NotifyConfig, NotifyConfigError


def test_public_api_is_pinned() -> None:
    assert sorted(notify.__all__) == sorted([
        "OPEN_STATES", "STATES", "Alert", "AlertConfig", "CredentialError", "DecisionError", "Endpoints",
        "InvalidToken", "InvalidTransition", "IssuedSecret", "LateDecision", "NotifyConfig", "NotifyConfigError",
        "NotifyError", "NotifyService", "ReceiverConfig", "RequestToBook", "RequestToBookConfig", "StoreError",
        "TokenConfig", "alerts_frame", "command_hook", "create_app", "dead_letters_frame", "endpoints",
        "expand_payload", "notifications_frame", "parse_since", "read_notifications", "write_env"])
    for name in notify.__all__:
        assert getattr(notify, name) is not None


def test_documented_defaults() -> None:
    c = NotifyConfig()
    assert (c.tokens.lifetime_seconds, c.tokens.clock_skew_seconds, c.receiver.sqlite_synchronous) == (3600, 30, "FULL")
    rtb = c.request_to_book
    assert rtb.request_types == ("REQUEST_TO_BOOK",) and rtb.request_id_field == "request_id"
    assert (rtb.decision_hours, rtb.confirmation_hours, rtb.min_days_ahead) == (24.0, 24.0, 3)


def test_toml_overrides(tmp_path: Path) -> None:
    (tmp_path / "notify.toml").write_text(
        '[tokens]\nlifetime_seconds = 900\n[request_to_book]\nrequest_types = ["RTB_CREATED", "RTB_NEW"]\n'
        'checkin_field = "stay.checkin"\nwarn_before_hours = 6\n[receiver]\nsqlite_synchronous = "normal"\n')
    c = NotifyConfig.load(tmp_path)
    assert c.tokens.lifetime_seconds == 900 and c.receiver.sqlite_synchronous == "NORMAL"
    assert c.request_to_book.request_types == ("RTB_CREATED", "RTB_NEW")
    assert c.request_to_book.checkin_field == "stay.checkin" and c.request_to_book.warn_before_hours == 6.0
    assert NotifyConfig.load(tmp_path / "nowhere") == NotifyConfig()


@pytest.mark.parametrize(("text", "message"), [
    ("[token]\nissuer='x'", "unknown section [token]"),
    ("[tokens]\nlifetime = 5", "unknown key `lifetime` in [tokens]"),
    ("[tokens]\nlifetime_seconds = 'long'", "should be int"),
    ("[tokens]\nlifetime_seconds = -1", "should be int"),
    ("[tokens]\nlifetime_seconds = true", "should be int"),
    ("[request_to_book]\nrequest_types = [1, 2]", "a list of strings"),
    ("[receiver]\nsqlite_synchronous = 'OFF'", "must be FULL, EXTRA or NORMAL"),
    ("tokens = 3", "must be a table"),
    ("[tokens\n", "not valid TOML"),
])
def test_bad_configuration_is_named(tmp_path: Path, text: str, message: str) -> None:
    (tmp_path / "notify.toml").write_text(text)
    with pytest.raises(NotifyConfigError, match=message.replace("[", r"\[").replace("]", r"\]")) as info:
        NotifyConfig.load(tmp_path)
    assert "notify.toml" in str(info.value)


def test_missing_config_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(NotifyConfigError, match="does not exist"):
        NotifyConfig.load(config_file=tmp_path / "none.toml")


def test_server_settings_defaults_and_overrides(tmp_path: Path) -> None:
    from workbench.notify.config import ServerConfig

    s = NotifyConfig().server
    assert s == ServerConfig() and s.trusted_proxies == ()
    assert (s.header_timeout_seconds, s.body_timeout_seconds, s.keep_alive_seconds) == (10.0, 30.0, 30)
    assert (s.max_connections, s.max_connections_per_address, s.max_header_bytes) == (2048, 64, 16384)
    (tmp_path / "notify.toml").write_text('[server]\nheader_timeout_seconds = 5\nmax_connections_per_address = 0\n'
                                          'trusted_proxies = ["127.0.0.1", "::1"]\n')
    s = NotifyConfig.load(tmp_path).server
    assert (s.header_timeout_seconds, s.max_connections_per_address) == (5.0, 0)
    assert s.trusted_proxies == ("127.0.0.1", "::1")
    (tmp_path / "notify.toml").write_text("[server]\ntrusted_proxies = [1]\n")
    with pytest.raises(NotifyConfigError, match=r"\[server\] trusted_proxies = \[1\] should be tuple"):
        NotifyConfig.load(tmp_path)
