"""Settings in typed sections: every flat name still works (constructor, attribute, environment, ``with_``,
``dataclasses.replace``, ``redacted``), each section checks itself once, secrets stay secrets everywhere,
and the memory settings are read by ``config`` alone."""

from __future__ import annotations

import dataclasses
import pickle
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from workbench.config import (
    FLAT,
    PREFIX,
    SECTIONS,
    Connection,
    Limits,
    Memory,
    Secret,
    Settings,
    flat_fields,
    section_from_env,
)
from workbench.errors import SettingsError

#: a value of each kind, as the environment writes it, and as the setting holds it
TEXT_OF = {"str": ("x-value", "x-value"), "bool": ("yes", True), "int": ("7", 7), "float": ("2.5", 2.5)}


def test_every_flat_name_is_in_exactly_one_section_and_reads_through() -> None:
    assert set(FLAT.values()) == set(SECTIONS)
    s = Settings(base_url="https://p", max_in_flight=3, price_jump_share=0.2, malloc_tuning=False, notify_url="n",
                 api_key=Secret("k"), content_api_rtb_enabled=True, log_dir="logs")
    assert s.connection.base_url == s.base_url == "https://p"
    assert s.limits == Limits(max_in_flight=3) and s.max_in_flight == 3
    assert (s.health.price_jump_share, s.memory.malloc_tuning, s.notify.notify_url) == (0.2, False, "n")
    assert s.cars.api_key == Secret("k") and s.content.content_api_rtb_enabled and s.log_dir == "logs"


@pytest.mark.parametrize("name", sorted(flat_fields()))
def test_each_setting_is_read_from_its_environment_variable(name: str) -> None:
    f = flat_fields()[name]
    if f.metadata.get("secret"):
        s = Settings.from_mapping({PREFIX + name.upper(): "s3cret"})
        assert getattr(s, name) == Secret("s3cret") and "s3cret" not in repr(s) + str(s.redacted())
        return
    kind = str(f.type)
    text, value = TEXT_OF[kind]
    if name == "weekday_spelling":
        text, value = "SPEC", "spec"
    elif name == "auth":
        text, value = "Basic", "basic"
    elif name == "los_reading":
        text, value = " Arrival ", "arrival"
    s = Settings.from_mapping({PREFIX + name.upper(): text})
    assert getattr(s, name) == value
    assert s.redacted()[name] == str(value)


def test_sections_and_flat_names_mix_and_copies_change_one_thing() -> None:
    base = Settings(connection=Connection(base_url="https://a", username="u"), rate_limits="all=5")
    assert (base.base_url, base.username, base.rate_limits) == ("https://a", "u", "all=5")
    flat_wins = Settings(connection=Connection(base_url="https://a"), base_url="https://b")
    assert flat_wins.base_url == "https://b"
    changed = base.with_(client_id="c", limits=Limits(timeout_seconds=5))
    assert (changed.client_id, changed.timeout_seconds, changed.username, base.client_id) == ("c", 5, "u", "")
    assert dataclasses.replace(base, base_url="https://c").base_url == "https://c"
    assert pickle.loads(pickle.dumps(changed)) == changed  # to Dask workers
    with pytest.raises(TypeError, match="unknown setting `bsae_url`"):
        Settings(bsae_url="x")
    with pytest.raises(TypeError, match="must be a Limits"):
        Settings(limits=Connection())


def test_a_plain_secret_becomes_a_secret_and_never_shows() -> None:
    s = Settings(password="pw-123", client_secret="cs-456")  # type: ignore[arg-type]
    assert isinstance(s.password, Secret) and s.client_secret.reveal() == "cs-456"
    assert "pw-123" not in repr(s) and "cs-456" not in repr(s) and "cs-456" not in str(s.redacted())


@pytest.mark.parametrize(("given_", "scheme"), [
    ({}, "token"),
    ({"username": "u", "password": Secret("p")}, "basic"),
    ({"password": Secret("p")}, "basic"),
    ({"username": "u", "client_id": "c"}, "token"),
    ({"auth": "basic", "client_id": "c"}, "basic"),
    ({"auth": " TOKEN ", "username": "u"}, "token"),
])
def test_the_scheme_is_token_unless_only_a_username_and_password_are_given(given_: dict, scheme: str) -> None:
    assert Settings(**given_).connection.scheme == scheme


def test_a_wrong_scheme_or_weekday_spelling_is_one_settings_error() -> None:
    with pytest.raises(SettingsError, match="WORKBENCH_AUTH=`oauth` is not one of token, basic"):
        Settings.from_mapping({"WORKBENCH_AUTH": "oauth"})
    with pytest.raises(SettingsError, match="WORKBENCH_WEEKDAY_SPELLING"):
        Settings(weekday_spelling="short")


@given(st.sampled_from(["0", "false", "No", "off"]), st.sampled_from(["1", "true", "YES", "on", ""]))
def test_the_memory_section_is_read_alone(off: str, on: str) -> None:
    assert section_from_env(Memory, {"WORKBENCH_MALLOC_TUNING": off}, env_file=None) == Memory(malloc_tuning=False)
    assert section_from_env(Memory, {"WORKBENCH_MALLOC_TUNING": on}, env_file=None) == Memory()
    # another section's unreadable value is not even looked at
    assert section_from_env(Memory, {"WORKBENCH_TIMEOUT_SECONDS": "soon"}, env_file=None) == Memory()


def test_the_env_file_is_read_under_the_environment(tmp_path: Path) -> None:
    env = tmp_path / ".env"
    env.write_text("WORKBENCH_MALLOC_TUNING=0\nWORKBENCH_CLIENT_ID=from-file\n")
    assert section_from_env(Memory, {}, env_file=env).malloc_tuning is False
    assert Settings.from_env({"WORKBENCH_CLIENT_ID": "from-env"}, env_file=env).client_id == "from-env"


def test_nothing_outside_config_reads_the_environment() -> None:
    """``workbench.memory`` used to read WORKBENCH_MALLOC_TUNING itself; only Dask's own switch is read elsewhere."""
    root = Path(__file__).resolve().parents[2]
    lines = {p.relative_to(root).as_posix(): [ln for ln in p.read_text(encoding="utf-8").splitlines()
                                              if "os.environ" in ln or "getenv(" in ln]
             for pkg in ("workbench", "loaders", "expectations") for p in (root / pkg).rglob("*.py")}
    readers = {path: found for path, found in lines.items() if found}
    assert set(readers) == {"workbench/config.py", "workbench/scale/engine.py"}
    assert all("DASK_DISTRIBUTED__" in ln for ln in readers["workbench/scale/engine.py"])


def test_a_plain_field_added_at_the_end_works_like_the_others() -> None:
    """Settings not in a section yet are plain fields after ``log_dir``: constructor, environment, copies."""

    @dataclasses.dataclass(frozen=True, init=False)
    class More(Settings):
        max_answer_bytes: int = 10_000_000

    more = More(max_answer_bytes=5, base_url="https://p")
    assert (more.max_answer_bytes, more.base_url) == (5, "https://p")
    read = More.from_mapping({"WORKBENCH_MAX_ANSWER_BYTES": "7", "WORKBENCH_TIMEOUT_SECONDS": "3"})
    assert (read.max_answer_bytes, read.timeout_seconds) == (7, 3.0) and More().max_answer_bytes == 10_000_000
    assert read.with_(max_answer_bytes=9).max_answer_bytes == 9 and read.redacted()["max_answer_bytes"] == "7"
