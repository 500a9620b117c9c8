"""Results read well wherever they are shown: an untrusted notebook (no ``<style>``), JupyterLab's
dark theme (colours from its ``--jp-*`` variables), a frontend without HTML (Markdown); frames the
API returns show whole messages and blanks, never ``None``/``<NA>``/``NaN``/``NaT``."""

from __future__ import annotations

import re

import pandas as pd
from lxml import html

from loaders.issues import issues_where
from workbench import check_rates, check_rooms
from workbench.display import Summary, Table
from workbench.page import PAGE_CSS
from workbench.paths import SAMPLES


def _untrusted(page: str) -> html.HtmlElement:
    """What JupyterLab keeps of an untrusted output: the markup and its style attributes, no ``<style>``."""
    doc = html.fragment_fromstring(f"<div>{page}</div>")
    for style in doc.iter("style"):
        style.drop_tree()
    return doc


def test_a_summary_reads_without_its_stylesheet() -> None:
    check = check_rates(SAMPLES / "rates.xlsx", as_of="2026-12-01")
    doc = _untrusted(check._repr_html_())
    text = " ".join(doc.text_content().split())
    assert text.startswith("Rates check — blocked: ")  # not "Rates checkblocked: …"
    verdict = doc.find_class("wb-verdict")[0].get("style")
    assert "var(--jp-error-color3" in verdict and "color:#1f2328" in verdict  # dark text on a light tint, any theme
    th = doc.find(".//th").get("style")
    assert "var(--jp-content-font-color1" in th and "var(--jp-layout-color2" in th  # never white on white
    assert all("text-align:left" in td.get("style") or "text-align:right" in td.get("style")
               for td in doc.iter("td"))


def test_a_summary_has_a_markdown_fallback() -> None:
    check = check_rates(SAMPLES / "rates.xlsx", as_of="2026-12-01")
    md = check._repr_markdown_()
    assert md.startswith("**Rates check** — blocked: ")
    assert "| severity | rule | issues |" in md and "| error | not\\_a\\_number | 1 |" in md
    escaped = Summary("a|b", "v", tables=[Table("t", pd.DataFrame({"x": ["1|2"]}))]).markdown()
    assert "a\\|b" in escaped and "| 1\\|2 |" in escaped


def test_the_report_pages_follow_the_theme() -> None:
    th = re.search(r"\.wb-report th\{([^}]*)\}", PAGE_CSS)
    assert th is not None and "var(--jp-content-font-color1" in th.group(1) and "var(--jp-layout-color2" in th.group(1)
    for tone in ("err", "warn", "okc"):
        rule = re.search(rf"\.wb-report \.{tone}\{{([^}}]*)\}}", PAGE_CSS)
        assert rule is not None and "color:#1f2328" in rule.group(1)


def test_frames_show_blanks_whole_messages_and_amenity_names() -> None:
    rooms = check_rooms(SAMPLES / "rooms.xlsx")
    page = rooms.amenities.wb.show().to_html()
    for marker in ("<NA>", "&lt;NA&gt;", ">nan<", ">None<", ">NaT<"):
        assert marker not in page
    assert "Air conditioning" in page or "Double" in page
    assert "text-align: left" in page
    named = rooms.amenities.wb.named()
    assert list(named.columns).index("amenity") == list(named.columns).index("amenity_code") + 1
    long = pd.DataFrame({"message": ["word " * 100], "n": [pd.NA]})
    shown = long.wb.show().to_html()
    assert ("word " * 100).strip() in shown


def test_an_issue_value_is_never_the_text_of_a_missing_value() -> None:
    frame = pd.DataFrame({"source": ["a.csv"] * 2, "sheet": [""] * 2, "row": [2, 3],
                          "x": pd.array([pd.NA, "5"], dtype="string")})
    issues = issues_where(frame, [True, True], column="x", value=frame["x"].astype(str), rule="r",
                          severity="error", message="m")
    assert issues["value"].isna().iloc[0] and issues["value"].iloc[1] == "5"


def test_a_long_frame_says_how_much_is_shown() -> None:
    frame = pd.DataFrame({"n": range(120)})
    page = frame.wb.show(rows=50).to_html()
    assert "The first 50 of 120 rows" in page and page.count("<tr>") <= 52
