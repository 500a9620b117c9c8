"""What is checked is what is sent (issue 22): for any value of an enumerated or normalised column, as an
analyst may write it (any case, spaces around), once the workbook is loaded and the value passes the rules,
the request carries exactly the value the rules checked, in the platform's own spelling."""

from __future__ import annotations

import csv
import datetime as dt
import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from expectations import validate_content
from loaders import read_content
from loaders.content_schema import PART_FIELDS, ContentField
from workbench.ota.content_notif import build_content
from workbench.ota.ns import OTA_NS

HOTEL = 1000001
HDC = f"{{{OTA_NS}}}HotelDescriptiveContents/{{{OTA_NS}}}HotelDescriptiveContent"
#: every column whose text the loader makes canonical
NORMALISED = [(part, f) for part, fields in PART_FIELDS.items() for f in fields
              if (f.choices or f.canon) and not f.not_sent and f.canon != "subdivision"]
#: what a column needs beside it to be sent (``sent_with``) or to be judged at all
COMPANIONS = {("Policies", "no_show_penalty"): {"CancelPolicyCode": 1},
              ("Policies", "prepayment_effective_from"): {"GuaranteePolicyCode": 1},
              ("Phrases", "option_name"): {"StandardPhrase": "Renovation", "Enabled": 1, "OptionValue": "x"}}
LANGUAGES = ["en", "pt-BR", "zh-Hant", "es-419", "nl"]
CODES = {"Property.currency_code": ["EUR", "MXN", "BRL"], "Services.currency_code": ["EUR"],
         "Transport.price_currency": ["EUR", "USD"], "Contacts.country": ["PT", "BR", "NL"],
         "Transport.start_code": ["LIS", "AMS"], "Contacts.postcode": ["1011 AB", "SW1A 1AA", "1100-148"]}


def _valid(part: str, f: ContentField) -> list[str]:
    if f.choices:
        return list(f.choices)
    if f.canon == "language":
        return LANGUAGES
    return CODES[f"{part}.{f.name}"]


@st.composite
def spelling(draw, text: str, f: ContentField) -> str:
    """``text`` as someone may type it: letters in any case, spaces before and after (and ``pt_BR``)."""
    cased = "".join(draw(st.sampled_from([c.lower(), c.upper()])) for c in text)
    if f.canon == "language" and draw(st.booleans()):
        cased = cased.replace("-", "_")
    return draw(st.sampled_from(["", " ", "  "])) + cased + draw(st.sampled_from(["", " "]))


@st.composite
def cell(draw) -> tuple[str, ContentField, str, str | None]:
    """(part, column, what is written, the value meant: None for a value that is none of the valid ones)."""
    part, f = draw(st.sampled_from(NORMALISED))
    if draw(st.integers(0, 4)) == 0:
        junk = draw(st.text(alphabet="abcxyz _-", min_size=1, max_size=8).filter(lambda t: t.strip()))
        return part, f, junk, None
    meant = draw(st.sampled_from(_valid(part, f)))
    written = draw(spelling(meant, f))
    if f.kind == "list" and draw(st.booleans()):
        other = draw(st.sampled_from(_valid(part, f)))
        return part, f, f"{written} ; {draw(spelling(other, f))}", f"{meant};{other}"
    return part, f, written, meant


def _write(folder: Path, part: str, f: ContentField, written: str) -> list[Path]:
    files = {"property": {"HotelCode": HOTEL, "CurrencyCode": "EUR"}}
    row = {"HotelCode": HOTEL, **COMPANIONS.get((part, f.name), {}), f.field.ota: written}
    if part == "Property":
        files["property"].update(row)
    else:
        files[part.lower()] = row
    paths = []
    for name, data in files.items():
        path = folder / f"{name}.csv"
        with open(path, "w", newline="", encoding="utf-8") as fh:
            csv.writer(fh).writerows([list(data), list(data.values())])
        paths.append(path)
    return paths


def _sent(body: bytes, f: ContentField) -> list[str]:
    hdc = etree.fromstring(body).find(HDC)
    element = re.sub(r"(^|/)(\w)", rf"\1{{{OTA_NS}}}\2", f.element) if f.element else "."
    found = hdc.findall(element) if element != "." else [hdc]
    return [e.get(f.attribute) if f.attribute else e.text for e in found]


@pytest.mark.slow  # each example loads, checks and builds a workbook
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cell())
def test_a_value_that_passes_the_rules_is_sent_as_the_rules_checked_it(case) -> None:
    part, f, written, meant = case
    with tempfile.TemporaryDirectory() as tmp:
        loaded = read_content(_write(Path(tmp), part, f, written))
    issues = validate_content(loaded.parts, load_issues=loaded.issues, today=dt.date(2026, 12, 1))
    header = f.field.ota
    on_cell = issues[issues["source"].str.endswith(f"{part.lower()}.csv") & (issues["column"] == header)
                     & (issues["severity"] == "error")]
    checked = loaded.parts[part][f.name].iloc[0]
    if meant is not None:
        # a valid value, however it was typed, is read as the platform spells it
        want = meant.split(";") if f.kind == "list" else meant
        assert checked == want, (written, checked)
    if len(on_cell):
        return  # refused on its cell: not sent
    if f.choices and f.field.ota != "StandardPhrase" and f.name != "provider":
        assert all(v in f.choices for v in (checked if f.kind == "list" else [checked])), (written, checked)
    sent = _sent(build_content(loaded.parts), f)
    assert sent == (checked if f.kind == "list" else [checked]), (written, checked, sent)
