"""The HTML summaries results show in Jupyter: escaped, nothing cut off, styles kept to their container."""

from __future__ import annotations

import re

import pandas as pd
import pytest
from lxml import html

from workbench.display import CSS, CSS_CLASS, Summary, Table, cell_text, duration_text


def selectors(css: str) -> list[str]:
    return [s.strip() for block in re.findall(r"([^{}]+)\{", css) for s in block.split(",")]


def test_every_selector_starts_with_the_container_class() -> None:
    found = selectors(CSS)
    assert found and all(s.startswith(f".{CSS_CLASS}") for s in found), [s for s in found
                                                                           if not s.startswith(f".{CSS_CLASS}")]


def test_a_summary_is_one_container_with_its_style_inside() -> None:
    page = Summary("Check", "blocked", "error", [("3", "errors"), ("a.xlsx", "read:")],
                   [Table("Issues", pd.DataFrame({"message": ["m"]}))]).html()
    doc = html.fragment_fromstring(page)
    assert doc.get("class") == CSS_CLASS and doc[0].tag == "style"
    assert "3 errors" in doc.text_content() and "read: a.xlsx" in doc.text_content()


def test_everything_shown_is_escaped() -> None:
    evil = "<script>alert(1)</script>"
    page = Summary(evil, evil, "error", [(evil, evil)],
                   [Table(evil, pd.DataFrame({evil: [evil]}), note=evil, tone_column=evil)]).html()
    assert "<script>" not in page and page.count("&lt;script&gt;") == 8


def test_long_texts_are_shown_whole() -> None:
    message = "word " * 200
    page = Summary("t", "v", tables=[Table("Issues", pd.DataFrame({"message": [message]}), wide=("message",))]).html()
    assert message.strip() in html.fragment_fromstring(page).text_content()


@pytest.mark.parametrize(("value", "text"), [
    (None, ""), (pd.NA, ""), (pd.NaT, ""), (float("nan"), ""),
    (1000001.0, "1000001"), (85.5, "85.5"), (float("inf"), "inf"), (7, "7"),
    (True, "yes"), ("x", "x"),
    (pd.Timestamp("2026-11-24 09:56:52.128229617+00:00"), "2026-11-24 09:56:52"),
    (pd.Timestamp("2027-01-01"), "2027-01-01"),
    (pd.Timedelta(hours=2), "2 h 00 min"),
])
def test_cells_read_as_people_read_them(value: object, text: str) -> None:
    assert cell_text(value) == text


@pytest.mark.parametrize(("delta", "text"), [
    (pd.Timedelta(seconds=45), "45 s"), (pd.Timedelta(minutes=5), "5 min"),
    (pd.Timedelta(hours=2, minutes=5), "2 h 05 min"), (pd.Timedelta(days=1, hours=3, minutes=59), "1 d 3 h"),
    (pd.Timedelta(minutes=-90), "-1 h 30 min"),
])
def test_durations_in_hours_and_minutes(delta: pd.Timedelta, text: str) -> None:
    assert duration_text(delta) == text


def test_rows_are_marked_by_their_tone() -> None:
    frame = pd.DataFrame({"outcome": ["success", "rejected", "warning"]})
    page = Summary("t", "v", tables=[Table("r", frame, tone_column="outcome",
                                           tones={"rejected": "error", "warning": "warning"})]).html()
    rows = html.fragment_fromstring(page).findall(".//tbody/tr")
    assert [r.get("class") for r in rows] == [None, "wb-row-error", "wb-row-warning"]
