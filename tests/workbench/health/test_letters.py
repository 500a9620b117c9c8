"""Letters: plain words, dates for people, no internal codes, no secrets."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest

from tests.workbench.health.conftest import AS_OF, TARGET, nights, write_journal
from tests.workbench.health.test_findings import STATES, _findings
from workbench import Secret, Settings, property_health, write_letters
from workbench.health import FINDINGS
from workbench.health.letters import human_date, human_range, sentence, write_letter


@pytest.mark.parametrize(("start", "end", "text"), [
    ("2026-12-01", "2026-12-01", "on 1 December 2026"),
    ("2026-12-01", "2026-12-31", "from 1 to 31 December 2026"),
    ("2026-11-28", "2026-12-03", "from 28 November to 3 December 2026"),
    ("2026-12-28", "2027-01-03", "from 28 December 2026 to 3 January 2027"),
])
def test_dates_are_written_for_people(start: str, end: str, text: str) -> None:
    assert human_range(start, end) == text
    assert human_date("2027-01-05") == "5 January 2027"


def _all_findings(tmp_path: Path) -> pd.DataFrame:
    parts = []
    for i, state in enumerate(STATES):
        d = tmp_path / str(i)
        d.mkdir()
        parts.append(_findings(state, d).findings)
    return pd.concat(parts, ignore_index=True)


def test_every_finding_has_its_own_plain_sentence(tmp_path: Path) -> None:
    f = _all_findings(tmp_path)
    missing = set(FINDINGS) - set(f["finding"]) - {"no_kitchen", "inactive_room_priced"}
    assert not missing, f"the constructed states should cover every finding: {missing}"
    for r in f.itertuples(index=False):
        what, todo = sentence(r, AS_OF)
        assert what != "needs a look." and todo.startswith(("Please", "No action", "If these"))
        text = what + " " + todo
        assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), text  # no rule codes such as ending_soon
        assert "`" not in text and not re.search(r"\d{4}-\d{2}-\d{2}", text), text  # dates written for people


def test_a_letter_says_what_from_when_and_what_to_do(tmp_path: Path) -> None:
    health = _findings(STATES[4], tmp_path)  # ends within the horizon
    letter = write_letter(1, "Hotel One", health.findings, AS_OF)
    assert letter.markdown.startswith("# Hotel One: what guests can and cannot book")
    assert "## These stop being bookable soon" in letter.markdown
    assert ("**Room 101 (room 101), Rate 5001 (rate 5001)** can be booked only until the night of 29 January 2027"
            in letter.markdown)
    assert "Please load prices after 29 January 2027, up to at least 30 November 2027." in letter.markdown
    assert "<h2>These stop being bookable soon</h2>" in letter.html and "<strong>Room 101" in letter.html


def test_a_healthy_property_is_told_so(tmp_path: Path) -> None:
    letter = write_letter(1, None, _findings(STATES[0], tmp_path).findings, AS_OF)
    assert "Property 1: what guests" in letter.markdown and "No action needed." in letter.markdown


def test_letters_hold_no_secrets_nor_internal_addresses(tmp_path: Path) -> None:
    secret = "s3cr3t-Passw0rd!"
    settings = Settings(base_url="", username="machine-account", password=Secret(secret))
    journal = write_journal(tmp_path / "journal.sqlite",
                            nights("2026-12-05", "2027-01-10") + nights("2026-12-01", "2027-01-10", rate="5009"))
    health = property_health(settings, as_of=AS_OF, journal=journal, target=TARGET)
    files = write_letters(health, tmp_path / "letters")
    assert sorted(p.name for p in files) == ["1.html", "1.md"]
    for p in files:
        text = p.read_text(encoding="utf-8")
        for forbidden in (secret, "machine-account", TARGET, "platform.test", "journal.sqlite", "ruid", "_"):
            assert forbidden not in text, (p.name, forbidden)
