"""Every HTML page the workbench writes goes through the one page template: the report container
and its stylesheet, cards that read without CSS; checked in a real browser too (slow)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from lxml import html

from tests.workbench.health.conftest import AS_OF, nights, write_journal
from workbench import check_content, check_rates, check_rooms, dry_run, plan_rates, property_health
from workbench.page import PAGE_CLASS, PAGE_CSS, card, count, heading, with_code
from workbench.paths import SAMPLES
from workbench.reports import ReportContext, render_html
from workbench.reports.health import render_health_html, write_letters
from workbench.reports.plan import render_plan_html
from workbench.reports.push import NothingSent, render_push_html


@pytest.fixture(scope="module")
def rates():
    return check_rates(SAMPLES / "rates.xlsx", registry=SAMPLES / "registry.xlsx", as_of="2026-12-01")


@pytest.fixture(scope="module")
def pages(rates, tmp_path_factory) -> dict[str, str]:
    tmp = tmp_path_factory.mktemp("pages")
    journal = write_journal(tmp / "journal.sqlite", nights("2026-12-05", "2027-01-20", hotel=1000001))
    health = property_health(None, as_of=AS_OF, journal=journal, registry=SAMPLES / "registry.xlsx",
                             target="https://platform.test")
    letter = next(p for p in write_letters(health, tmp / "letters") if p.suffix == ".html")
    rooms, content = check_rooms(SAMPLES / "rooms.xlsx"), check_content(SAMPLES / "content.xlsx")
    return {
        "rates validation": render_html(rates.issues, ReportContext(files=rates.files), rates=rates.frame),
        "rooms validation": render_html(rooms.issues, ReportContext(title="Rooms validation")),
        "content validation": render_html(content.issues, ReportContext(title="Content validation")),
        "plan": render_plan_html(plan_rates(rates, journal=tmp / "none.sqlite", skip_invalid=True)),
        "push (nothing sent)": render_push_html(NothingSent("the settings cannot be used")),
        "dry run": render_push_html(dry_run(rates, tmp / "requests", skip_invalid=True)),
        "health": render_health_html(health),
        "letter": letter.read_text(encoding="utf-8"),
    }


KINDS = ["rates validation", "rooms validation", "content validation", "plan", "push (nothing sent)", "dry run",
         "health", "letter"]


@pytest.mark.parametrize("kind", KINDS)
def test_every_page_has_the_container_and_the_stylesheet(pages: dict[str, str], kind: str) -> None:
    doc = html.fromstring(pages[kind])
    body = doc.find("body")
    assert len(body) == 1 and PAGE_CLASS in body[0].get("class").split()
    assert PAGE_CSS in doc.find(".//style").text
    assert body[0].find(".//h1") is not None


def test_the_health_page_styles_its_cards(pages: dict[str, str]) -> None:
    """Its cards sit inside the styled container (once they did not: Times, "10block bookings now")."""
    doc = html.fromstring(pages["health"])
    cards = doc.find_class("card")
    assert cards and all(any(PAGE_CLASS in (a.get("class") or "") for a in c.iterancestors()) for c in cards)


def test_words_and_figures() -> None:
    assert count(1, "error") == "1 error" and count(1183, "request") == "1,183 requests"
    assert count(2, "property", "properties") == "2 properties"
    assert heading("hotel_code") == "Property" and heading("rate_plan_code") == "Rate"
    assert heading("rooms_to_sell") == "Rooms to sell"
    assert with_code("use `--skip-invalid` <now>") == "use <code>--skip-invalid</code> &lt;now&gt;"
    assert card(10, "errors", "err") == "<div class='card err'><b>10</b>errors</div>"


def test_the_plan_page_is_worded_for_people(pages: dict[str, str]) -> None:
    page = pages["plan"]
    doc = html.fromstring(page)
    heads = [th.text_content() for th in doc.iter("th")]
    assert heads and not [h for h in heads if "_" in h], heads
    assert "Target none" not in page and "request(s)" not in page and "`" not in doc.text_content()
    assert re.search(r"\d,\d{3} prices to send", doc.text_content()) or "prices to send" in doc.text_content()
    assert "1000001 Hotel Aurora Amsterdam" in doc.text_content()


def test_validation_pages_name_properties_beside_their_codes(pages: dict[str, str]) -> None:
    assert "Property 1000001 Hotel Aurora Amsterdam" in html.fromstring(pages["rates validation"]).text_content()
    assert "Property PORTO-01 CASA DO RIO PORTO" in html.fromstring(pages["content validation"]).text_content()


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_the_stylesheet_applies_in_a_real_browser(pages: dict[str, str], kind: str, tmp_path: Path) -> None:
    """Headless Chromium computes each page's styles: the container's font is not the browser's
    serif default, and a card's figure is a block of its own."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    assert browser, "Chromium is needed (apt-get install chromium; .ci/run installs it)"
    probe = ("<script>window.addEventListener('load',function(){var r=document.querySelector('.wb-report');"
             "var b=document.querySelector('.card b');document.body.setAttribute('data-font',"
             "getComputedStyle(r).fontFamily);document.body.setAttribute('data-card',b?getComputedStyle(b).display:"
             "'none');});</script>")
    page = tmp_path / "page.html"
    page.write_text(pages[kind].replace("</body>", probe + "</body>"), encoding="utf-8")
    dom = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=3000",
                          "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120).stdout
    body = html.fromstring(dom).find("body")
    assert "system-ui" in body.get("data-font", ""), body.get("data-font")
    assert body.get("data-card") in ("block", "none")


def test_the_push_page_names_properties_beside_their_codes() -> None:
    from types import SimpleNamespace

    import pandas as pd

    from tests.workbench.reports.test_report_css import push
    from workbench.reports.about import describe

    result = push()
    result.plan = SimpleNamespace(frame=describe(pd.DataFrame(), names={"1000001": "Hotel Aurora Amsterdam"}),
                                  headline=lambda: "Plan: 3 prices")
    cells = [td.text_content() for td in html.fromstring(render_push_html(result)).iter("td")]
    assert "1000001 Hotel Aurora Amsterdam" in cells


def test_a_dry_run_report_says_what_was_written(rates, tmp_path: Path) -> None:
    import pandas as pd

    from workbench.reports.push import write_push_report

    done = dry_run(rates, tmp_path / "requests", skip_invalid=True)
    page = html.fromstring(render_push_html(done))
    text = " ".join(page.text_content().split())
    assert "Nothing was sent" not in text and "requests applied" not in text
    assert f"{len(done.requests)}requests written" in text and "By property" in text
    assert not page.find_class("err")  # neutral: writing requests is what a dry run is for
    csv = pd.read_csv(write_push_report(done, tmp_path / "dry.csv"), encoding="utf-8-sig", dtype=str)
    assert len(csv) == len(done.requests) and "severity" not in csv
    assert csv["messages"].str.fullmatch(r"\d+").all() and csv["cells"].str.fullmatch(r"\d+").all()


@pytest.mark.parametrize(("figure", "label"), [(0, "0</b>errors"), (1, "1</b>error<"), (2, "2</b>errors"),
                                               (1183, "1,183</b>errors")])
def test_a_card_agrees_with_its_figure(figure: int, label: str) -> None:
    assert label in card(figure, "errors", "err", one="error")


def test_the_workbench_words_counts_with_the_loaders_helper() -> None:
    from workbench.wording import agree, platform_text

    assert (count(1183, "request"), count(1, "property", "properties"), agree(1, "was", "were"),
            platform_text("")) == ("1,183 requests", "1 property", "was", "no platform set")
