"""``workbench push content`` over HTTPS on loopback against the stand-in (served by uvicorn with a test CA):
BuildHotel resent then created once and filled back, an Overlay refused for a dropped part and allowed with
--replace, the dry run, errors and the sunset; exit codes as for rates (0/1/2)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import pytest
from openpyxl import Workbook, load_workbook
from typer.testing import CliRunner

import workbench.cli.content_push as cli_module
from workbench.cli import app
from workbench.serving import ensure_test_ca, serve_in_thread
from workbench.transport import operations


@pytest.fixture
def served(tmp_path, frames) -> Iterator[tuple[object, object]]:
    """The stand-in over HTTPS, and a connection.env naming it (with the test CA)."""
    from content_fake_platform import FakeContentPlatform  # loaded by conftest

    platform = FakeContentPlatform()
    tls = ensure_test_ca(tmp_path / "server")
    with serve_in_thread(platform.app(), tls) as server:
        env = tmp_path / "connection.env"
        env.write_text(f"WORKBENCH_BASE_URL={server.url}\nWORKBENCH_USERNAME=u\nWORKBENCH_PASSWORD=p\n"
                       f"WORKBENCH_CA_BUNDLE={tls.ca_bundle}\nWORKBENCH_BUILD_HOTEL_ATTEMPTS=3\n"
                       "WORKBENCH_BUILD_HOTEL_BACKOFF_SECONDS=0\n", encoding="utf-8")
        yield platform, env


def _workbook(path, frames) -> None:
    wb = Workbook()
    ws = wb.active
    ws.title = "Property"
    ws.append(["ID", "HotelName"])
    ws.append([frames.NEW_ID, "Canal House"])
    wb.save(path)


def _use(monkeypatch, check) -> None:
    """``workbench push content`` reads the workbook with check_content (content-model's); here: a given check."""
    monkeypatch.setattr(cli_module, "load_check", lambda files, settings, encoding, header_row: check)


@pytest.fixture(autouse=True)
def before_the_sunset(monkeypatch) -> None:
    """The tests run on a fixed CET day before the sunset, whatever today is."""
    monkeypatch.setattr(operations, "cet_today", lambda now=None: dt.date(2026, 11, 25))


class _Out:
    def __init__(self, result) -> None:  # noqa: ANN001
        self.exit_code = result.exit_code
        self.output = " ".join(result.output.split())  # the console wraps long lines


def _run(tmp_path, *args: str) -> _Out:
    return _Out(CliRunner().invoke(app, ["push", "content", str(tmp_path / "content.xlsx"),
                                         "--journal", str(tmp_path / "journal.sqlite"), *args]))


def test_build_hotel_then_created_once_and_filled_back(served, frames, tmp_path, monkeypatch) -> None:
    platform, env = served
    platform.build_hotel[frames.NEW_ID] = 2
    check = frames.check_of(frames.new_property())
    check.files = [tmp_path / "content.xlsx"]
    _workbook(check.files[0], frames)
    _use(monkeypatch, check)
    out = _run(tmp_path, "--env-file", str(env), "--fill", "--report", str(tmp_path / "push.html"))
    assert out.exit_code == 0, out.output
    assert platform.creations == 1 and len(platform.sent) == 3
    assert "created: HotelCode 2000001 (after 3 sends: BuildHotel)" in out.output
    assert "Warning: OTA_HotelDescriptiveContentNotif is deprecated and is sunset on 2026-12-31 (36 days left)" in out.output
    assert load_workbook(check.files[0])["Property"]["C2"].value == 2000001
    assert "fake-ruid-3" in (tmp_path / "push.html").read_text(encoding="utf-8")


def test_build_hotel_every_time_is_exit_1_with_contact_support(served, frames, tmp_path, monkeypatch) -> None:
    platform, env = served
    platform.build_hotel[frames.NEW_ID] = 99
    _use(monkeypatch, frames.check_of(frames.new_property()))
    out = _run(tmp_path, "--env-file", str(env))
    assert out.exit_code == 1 and platform.creations == 0 and len(platform.sent) == 3
    assert "Contact support and quote every ruid" in out.output


def test_overlay_dropping_a_part_is_refused_until_replace(served, frames, tmp_path, monkeypatch) -> None:
    platform, env = served
    platform.properties[frames.EXISTING] = {"custom_id": None, "status": "Open", "content": {}}
    _use(monkeypatch, frames.check_of(frames.existing_property()))
    assert _run(tmp_path, "--env-file", str(env)).exit_code == 0
    _use(monkeypatch, frames.check_of({k: v for k, v in frames.existing_property().items() if k != "Taxes"}))
    refused = _run(tmp_path, "--env-file", str(env))
    assert refused.exit_code == 1 and len(platform.sent) == 1
    assert "Taxes dropped: refused" in refused.output and "would drop `Taxes`" in refused.output
    dry = _run(tmp_path, "--env-file", str(env), "--replace", "--dry-run", str(tmp_path / "dry"))
    assert dry.exit_code == 0 and "Taxes dropped (replace): 1 row: code=36" in dry.output
    assert len(platform.sent) == 1
    replaced = _run(tmp_path, "--env-file", str(env), "--replace")
    assert replaced.exit_code == 0, replaced.output
    assert platform.properties[frames.EXISTING]["content"]["Taxes"] == []


def test_a_dry_run_needs_no_platform(frames, tmp_path, monkeypatch) -> None:
    _use(monkeypatch, frames.check_of(frames.new_property()))
    monkeypatch.delenv("WORKBENCH_BASE_URL", raising=False)
    monkeypatch.chdir(tmp_path)
    out = _run(tmp_path, "--dry-run", str(tmp_path / "dry"), "--report", str(tmp_path / "plan.csv"))
    assert out.exit_code == 0, out.output
    assert (tmp_path / "dry" / "001-PARTNER-7-new.xml").is_file()
    assert "a dry run" in (tmp_path / "plan.csv").read_text(encoding="utf-8")


def test_errors_block_the_push_with_exit_1_and_a_report(served, frames, tmp_path, monkeypatch) -> None:
    import pandas as pd

    platform, env = served
    issues = pd.DataFrame([{"source": "content.xlsx", "sheet": "Property", "row": 2, "column": "HotelName",
                            "value": "AB", "rule": "name_length", "severity": "error",
                            "message": "HotelName has 2 characters: give 3 to 255"}])
    _use(monkeypatch, frames.check_of(frames.new_property(), issues=issues))
    out = _run(tmp_path, "--env-file", str(env), "--report", str(tmp_path / "push.csv"))
    assert out.exit_code == 1 and platform.sent == []
    report = (tmp_path / "push.csv").read_text(encoding="utf-8")
    assert "Nothing was sent" in report or "nothing sent" in report
    assert "HotelName has 2 characters" in report


def test_from_the_sunset_the_push_is_refused_with_exit_2(served, frames, tmp_path, monkeypatch) -> None:
    platform, env = served
    _use(monkeypatch, frames.check_of(frames.new_property()))
    monkeypatch.setattr(operations, "cet_today", lambda now=None: dt.date(2026, 12, 31))
    out = _run(tmp_path, "--env-file", str(env), "--api", "ota")  # from the sunset the default is --api modular
    assert out.exit_code == 2 and platform.sent == []
    assert "was sunset on 2026-12-31" in out.output


@pytest.mark.parametrize(("args", "message"), [
    (["--report", "push.txt"], "use a name ending in .csv, .xlsx or .html"),
    (["--fill", "--dry-run", "out"], "--fill writes the HotelCodes"),
])
def test_unusable_command_lines_are_exit_2(frames, tmp_path, monkeypatch, args, message) -> None:
    _use(monkeypatch, frames.check_of(frames.new_property()))
    out = _run(tmp_path, *args)
    assert out.exit_code == 2 and message in out.output
