"""`workbench cars …` without a server: refused input exits 2 with the fix, never a traceback or the key."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from workbench.cli.cars import app as cars_app

KEY = "cli-test-key-abcdefghijklmnop"


@pytest.fixture
def env_file(tmp_path: Path) -> Path:
    """Settings pointing at a port nothing listens on: any request would fail loudly."""
    path = tmp_path / "demand.env"
    path.write_text(f"WORKBENCH_DEMAND_BASE_URL=https://127.0.0.1:9\nWORKBENCH_AFFILIATE_ID=42\n"
                    f"WORKBENCH_API_KEY={KEY}\n")
    return path


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cars_app, list(args))
    assert "Traceback" not in result.output
    assert KEY not in result.output
    return result.exit_code, result.output


def search_args(env: Path, *extra: str) -> list[str]:
    return ["search", "--country", "nl", "--language", "en-gb", "--location", "AMS", "--pickup", "2099-07-01T10:00",
            "--dropoff", "2099-07-05T10:00", "--env-file", str(env), "--cache", str(env.parent / "s.sqlite"), *extra]


@pytest.mark.parametrize(("change", "words"), [
    (["--pickup", "2099-07-09T10:00"], "`dropoff.datetime`: drop-off `2099-07-05T10:00:00` must be after pick-up"),
    (["--country", "uk"], "use gb"),
    (["--driver-age", "12"], "`driver.age`"),
    (["--currency", "euro"], "three-letter ISO 4217"),
    (["--location", "Schiphol"], "IATA"),
    (["--pickup", "tomorrow"], "YYYY-MM-DDTHH:MM"),
    (["--transmission", "cvt"], "automatic, manual"),
])
def test_bad_search_input_exits_2_with_the_fix_before_any_request(env_file: Path, change: list[str],
                                                                  words: str) -> None:
    code, output = run(*search_args(env_file, *change))  # a repeated option: the last one counts
    assert code == 2 and "car search not sent" in output and words in " ".join(output.split())
    assert "could not reach" not in output


def test_missing_env_file_is_explained(tmp_path: Path) -> None:
    code, output = run(*search_args(tmp_path / "nope.env"))
    assert code == 2 and "does not exist" in output and "sandbox serve" in output


def test_legacy_credentials_are_refused(tmp_path: Path) -> None:
    env = tmp_path / "legacy.env"
    env.write_text("WORKBENCH_DEMAND_BASE_URL=https://127.0.0.1:9\nWORKBENCH_AFFILIATE_ID=42\n"
                   "WORKBENCH_USERNAME=xml-user\nWORKBENCH_PASSWORD=xml-pass\n")
    code, output = run(*search_args(env))
    assert code == 2 and "legacy XML credentials" in output and "xml-pass" not in output


def test_no_default_location_for_an_unknown_country(env_file: Path) -> None:
    args = search_args(env_file)
    i = args.index("--location")
    del args[i:i + 2]
    args[args.index("--country") + 1] = "zw"
    code, output = run(*args)
    assert code == 2 and "give `--location`" in output


def test_link_command_rewrites_and_guesses_the_kind() -> None:
    code, output = run("link", "https://cars.example/b?aid=1&x=a%20b", "--affiliate-id", "77", "--label", "spring sale")
    assert code == 0 and output.strip() == "https://cars.example/b?aid=77&x=a%20b&label=spring%20sale"
    code, output = run("link", "carsapp://offer/1?affiliate_id=1", "--affiliate-id", "77")
    assert code == 0 and output.strip() == "carsapp://offer/1?affiliate_id=77"
    code, output = run("link", "https://cars.example/b", "--label", " ")
    assert code == 2 and "`label` is empty" in output


def test_sandbox_serve_refuses_bad_options(tmp_path: Path) -> None:
    code, output = run("sandbox", "serve", "--state-dir", str(tmp_path), "--pagination", "pages")
    assert code == 2 and "`--pagination` must be `token` or `offset`" in output


@pytest.mark.parametrize(("line", "words"), [
    ("WORKBENCH_DEMAND_STATIC_MAX_AGE_HOURS=a day", "settings cannot be read"),
    ("WORKBENCH_DEMAND_STATIC_MAX_AGE_HOURS=0", "`WORKBENCH_DEMAND_STATIC_MAX_AGE_HOURS` must be more than 0"),
    ("WORKBENCH_DEMAND_BASE_URL=https://demand.example.com/3.1", "ends with a version segment"),
])
def test_unusable_settings_exit_2_naming_the_setting(env_file: Path, line: str, words: str) -> None:
    env_file.write_text(env_file.read_text() + line + "\n")
    code, output = run(*search_args(env_file))
    assert code == 2 and words in " ".join(output.split())
