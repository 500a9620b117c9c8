"""The HTML reports keep their styles to themselves: shown inside another page (a notebook's output),
every rule applies to the report's own container only, and long ids wrap in their cell."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest
from lxml import html

from workbench.reports.push import render_push_html
from workbench.reports.validation import REPORT_CLASS, REPORT_CSS, ReportContext, render_html
from workbench.writers.push import PushResult

ISSUES = pd.DataFrame({"source": ["a.xlsx"], "sheet": ["S"], "row": [2], "column": ["Price"], "value": ["x"],
                       "rule": ["not_a_number"], "severity": ["error"], "message": ["`x` is not a number"]})


def push() -> PushResult:
    requests = pd.DataFrame({"request_id": [1], "hotel": [1000001], "month": ["2027-01"], "messages": [1], "cells": [3],
                             "outcome": ["success"], "http_status": pd.array([200], dtype="Int64"),
                             "ruid": ["A" * 60 + "=="], "attempts": pd.array([1], dtype="Int64"), "errors": [[]],
                             "warnings": [[]], "codes": [""], "texts": [""], "error": [None], "source_rows": ["a.xlsx S 2-4"]})
    rows = pd.DataFrame(columns=["source", "sheet", "row", "column", "request_id", "hotel", "month", "nights", "outcome",
                                 "severity", "codes", "message", "ruid"])
    return PushResult(1, "https://127.0.0.1:1", Path("j.sqlite"), requests, rows, 3, 3)


def selectors(css: str) -> list[str]:
    return [s.strip() for block in re.findall(r"([^{}]+)\{", css) for s in block.split(",")]


def test_every_selector_of_the_report_css_starts_with_its_container_class() -> None:
    found = selectors(REPORT_CSS)
    assert len(found) > 15
    assert [s for s in found if not s.startswith(f".{REPORT_CLASS}")] == []


@pytest.mark.parametrize("page", [render_html(ISSUES, ReportContext()), render_push_html(push())],
                         ids=["validation", "push"])
def test_the_report_sits_in_its_container(page: str) -> None:
    body = html.fromstring(page).find("body")
    assert len(body) == 1 and body[0].get("class") == REPORT_CLASS  # everything inside the container
    assert body[0].find("h1") is not None


def test_long_ids_wrap_in_their_cell() -> None:
    assert "word-break:break-all" in REPORT_CSS.split(".wb-report code{")[1].split("}")[0]
    assert "table-layout:auto" in REPORT_CSS  # not JupyterLab's fixed layout, where long ids run over
    cell = html.fromstring(render_push_html(push())).xpath("//td[code]")[0]
    assert cell.text_content() == "A" * 60 + "=="
