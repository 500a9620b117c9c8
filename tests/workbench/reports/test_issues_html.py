"""The HTML validation report: one section per property, bounded in size whatever the number of
issues, and a filter that works with no library and no network (checked without a browser: the page's
structure with lxml, and its script run under Node against a small stand-in of the DOM)."""

from __future__ import annotations

import json
import shutil
import subprocess

import numpy as np
import pandas as pd
import pytest
from lxml import html

from workbench.reports import ReportContext
from workbench.reports.issues_html import FILTER_JS, MAX_LINES, MAX_SECTIONS
from workbench.reports.validation import render_html


def many(n: int, properties: int) -> pd.DataFrame:
    """``n`` issues with their locations: one night every other day (no two consecutive: a line each)."""
    i = np.arange(n)
    return pd.DataFrame({
        "source": "rates.xlsx", "sheet": "Prices", "row": pd.array(i + 2, dtype="Int64"), "column": "AmountAfterTax",
        "value": (100 + i % 900).astype(str), "rule": np.where(i % 3 == 0, "price_cap", "duplicate_key"),
        "severity": np.where(i % 3 == 0, "error", "warning"),
        "message": "the price is above what the property usually asks: check for an extra digit",
        "hotel_code": pd.array(1_000_000 + i % properties, dtype="Int64"),
        "inv_type_code": pd.array((101 + i % 7).astype(str), dtype="string"),
        "rate_plan_code": pd.array(np.full(n, "5001"), dtype="string"),
        "first": pd.Timestamp("2027-01-01") + pd.to_timedelta(2 * (i // properties), unit="D"),
    }).assign(last=lambda f: f["first"])


def test_the_page_stays_small_and_says_where_the_full_list_is() -> None:
    issues = many(60_000, properties=300)
    page = render_html(issues, ReportContext())
    assert len(page.encode()) < 5_000_000
    doc = html.fromstring(page)
    rows = doc.xpath("//table[@class='lines']/tbody/tr")
    assert 0 < len(rows) <= MAX_LINES
    assert len(doc.xpath("//section[@class='prop']")) == MAX_SECTIONS
    assert "every issue, one row each" in doc.text_content() and "CSV report" in doc.text_content()
    by_property = doc.xpath("//table[@class='by-property']/tbody/tr")
    assert len(by_property) == 300  # every property is counted, even without a section
    assert sum(int(tr[1].text_content().replace(",", "")) + int(tr[2].text_content().replace(",", ""))
               for tr in by_property) == len(issues)


def test_one_section_per_property_with_its_counts() -> None:
    issues = many(90, properties=3)
    doc = html.fromstring(render_html(issues, ReportContext()))
    sections = doc.xpath("//section[@class='prop']")
    assert [s.get("data-prop") for s in sections] == ["1000000", "1000001", "1000002"]
    for s in sections:
        code = int(s.get("data-prop"))
        mine = issues[issues["hotel_code"] == code]
        note = s.find_class("note")[0].text_content()
        assert note.startswith(f"{(mine['severity'] == 'error').sum()} errors · {(mine['severity'] == 'warning').sum()}")
        assert {tr.get("data-sev") for tr in s.xpath(".//tbody/tr")} <= {"error", "warning"}


def filter_page() -> html.HtmlElement:
    issues = many(40, properties=4)
    return html.fromstring(render_html(issues, ReportContext()))


def test_the_filter_controls_and_row_attributes_are_in_the_page() -> None:
    doc = filter_page()
    assert doc.xpath("//input[@type='search'][@data-wb-filter]")
    assert [o.get("value") for o in doc.xpath("//select[@data-wb-severity]/option")] == ["", "error", "warning",
                                                                                          "waived"]
    assert [o.get("value") for o in doc.xpath("//select[@data-wb-rule]/option")] == ["", "duplicate_key", "price_cap"]
    rows = doc.xpath("//table[@class='lines']/tbody/tr")
    assert rows and all(tr.get("data-sev") in ("error", "warning") and tr.get("data-rule") for tr in rows)
    script = doc.xpath("//script")
    assert len(script) == 1 and script[0].getparent().get("class") == "wb-report"  # inside the report's container
    for hook in ("[data-wb-filter]", "[data-wb-severity]", "[data-wb-rule]", "tr[data-sev]", "section[data-prop]",
                 "data-rule", "hidden"):
        assert hook in FILTER_JS
    assert "http" not in FILTER_JS and not doc.xpath("//script[@src]|//link[@href]")  # nothing from the network


NODE_HARNESS = """
const data = JSON.parse(require('fs').readFileSync(0, 'utf8'));
function el(attrs, text) { return {attrs, textContent: text, hidden: false, value: '', listeners: {},
  getAttribute(n) { return n in this.attrs ? this.attrs[n] : null; },
  addEventListener(t, f) { this.listeners[t] = f; }}; }
const q = el({}, ''), s = el({}, ''), r = el({}, '');
const rows = data.rows.map(x => Object.assign(el({'data-sev': x.sev, 'data-rule': x.rule}, x.text), {section: x.section}));
const sections = data.sections.map((_, i) => Object.assign(el({}, ''), {
  querySelector: () => rows.find(t => t.section === i && !t.hidden) || null}));
const root = {querySelector: sel => ({'[data-wb-filter]': q, '[data-wb-severity]': s, '[data-wb-rule]': r})[sel],
  querySelectorAll: sel => { if (sel === 'tr[data-sev]') return rows; if (sel === 'section[data-prop]') return sections;
                             throw new Error('unexpected selector ' + sel); }};
global.document = {currentScript: {parentNode: root}};
eval(data.js);
const out = [];
for (const [text, sev, rule] of data.cases) {
  q.value = text; s.value = sev; r.value = rule; q.listeners.input(); s.listeners.change(); r.listeners.change();
  out.push({rows: rows.map(x => x.hidden), sections: sections.map(x => x.hidden)});
}
console.log(JSON.stringify(out));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="Node is not installed: the page's script is not run")
def test_the_filter_script_hides_what_does_not_match() -> None:
    doc = filter_page()
    sections = doc.xpath("//section[@data-prop]")
    rows = [{"sev": tr.get("data-sev"), "rule": tr.get("data-rule"), "text": tr.text_content(),
             "section": next((i for i, s in enumerate(sections) if s in tr.iterancestors()), -1)}
            for tr in doc.xpath("//tr[@data-sev]")]
    cases = [["", "error", ""], ["", "", "duplicate_key"], ["room", "", ""], ["", "", ""], ["Prices · row 6", "", ""]]
    data = {"js": doc.xpath("//script")[0].text, "rows": rows, "sections": [s.get("data-prop") for s in sections],
            "cases": cases}
    node = shutil.which("node")
    assert node is not None
    done = subprocess.run([node, "-e", NODE_HARNESS], input=json.dumps(data), capture_output=True, text=True,
                          timeout=60, check=True)
    errors, by_rule, nothing, everything, one = json.loads(done.stdout)
    assert [not h for h in errors["rows"]] == [r["sev"] == "error" for r in rows]
    assert [not h for h in by_rule["rows"]] == [r["rule"] == "duplicate_key" for r in rows]
    assert all(nothing["rows"]) and all(nothing["sections"])  # no row says "room": every section hidden too
    assert not any(everything["rows"]) and not any(everything["sections"])
    shown = [r for r, h in zip(rows, one["rows"], strict=True) if not h]
    assert len(shown) == 1 and shown[0]["section"] >= 0
    assert [not h for h in one["sections"]] == [i == shown[0]["section"] for i in range(len(sections))]
