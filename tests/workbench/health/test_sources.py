"""A health check claims only what it read: without a journal, no finding rests on the prices the
platform accepted (a line says what was not checked), the letters name the sources read and the
night, and `workbench health` in a fresh folder runs instead of exiting 2."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.workbench.health.conftest import AS_OF, nights, write_journal
from workbench import property_health, write_letters
from workbench.cli import app
from workbench.health.sources import JOURNAL_FINDINGS, HealthSources
from workbench.paths import SAMPLES


@pytest.fixture
def fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)  # no .workbench folder, no journal
    return tmp_path


def test_without_a_journal_nothing_is_claimed_about_accepted_prices(fresh: Path) -> None:
    health = property_health(None, as_of=AS_OF, registry=SAMPLES / "registry.xlsx", rates=SAMPLES / "rates.xlsx")
    assert not health.findings["finding"].isin(JOURNAL_FINDINGS).any()
    assert any("not checked: whether prices reached the platform" in n for n in health.notes)
    assert health.sources == HealthSources(platform=False, registry=True, journal=False, sheets=True)
    letters = write_letters(health, fresh / "letters")
    text = " ".join(p.read_text(encoding="utf-8") for p in letters if p.suffix == ".md")
    assert "on the platform on" not in text
    for claim in ("has no prices at all", "have not reached the platform", "the prices ran out", "has no prices "):
        assert claim not in text  # each would rest on the journal
    for letter in (p for p in letters if p.suffix == ".md"):
        assert ("We checked our record of your rooms and rates and the prices we have ready to send, as of "
                "1 December 2026.") in letter.read_text(encoding="utf-8")


def test_a_letter_names_only_the_sources_read(tmp_path: Path) -> None:
    journal = write_journal(tmp_path / "journal.sqlite", nights("2026-12-01", "2027-11-30"))
    health = property_health(None, as_of=AS_OF, journal=journal, target="https://platform.test")
    assert health.sources == HealthSources(journal=True)
    body = (write_letters(health, tmp_path / "letters")[0]).read_text(encoding="utf-8")
    assert "We checked the prices the platform has accepted from us, as of 1 December 2026." in body
    assert "No action needed." in body


@pytest.mark.parametrize(("sources", "text"), [
    (HealthSources(), "We could not check anything as of 1 December 2026"),
    (HealthSources(platform=True, registry=True, journal=True),
     "We checked the rooms and rates active on the platform and the prices the platform has accepted from us, as of "
     "1 December 2026."),
])
def test_what_was_checked_in_words(sources: HealthSources, text: str) -> None:
    assert sources.checked_text(AS_OF).startswith(text)


def test_health_in_a_fresh_folder_reads_a_missing_journal_as_empty(fresh: Path) -> None:
    result = CliRunner().invoke(app, ["health", "--as-of", "2026-12-01", "--registry", str(SAMPLES / "registry.xlsx"),
                                      "--letters", "letters", "--report", "health.html"])
    assert result.exit_code == 0, result.output
    assert "no push journal at" in " ".join(result.output.split())
    page = (fresh / "health.html").read_text(encoding="utf-8")
    assert "<div class='wb-report'>" in page and "Not checked" in page
