"""What a check, a dry run and a push show in Jupyter (``_repr_html_``): the verdict, counts by rule or
outcome, the first problems (errors first, messages whole, everything escaped), and CSS that styles
only the summary's own container; ``repr`` is one line, not a frame dump."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pandas as pd
import pytest
from lxml import html

from workbench.display import CSS_CLASS
from workbench.flows.checked import FIRST_ISSUES
from workbench.flows.rates import check_rates, dry_run
from workbench.flows.rooms import RoomsPushResult, check_rooms
from workbench.paths import SAMPLES
from workbench.writers.push import PushResult

AS_OF = dt.date(2026, 12, 1)


@pytest.fixture(scope="module")
def rates():
    return check_rates([SAMPLES / "rates.xlsx", SAMPLES / "lisbon_seasons.csv"], registry=SAMPLES / "registry.xlsx",
                       as_of=AS_OF)


def parts(page: str) -> tuple[html.HtmlElement, list[list[list[str]]]]:
    """The summary's root element and its tables as rows of cell texts (header row first)."""
    root = html.fragment_fromstring(page)
    assert root.get("class") == CSS_CLASS
    tables = [[[c.text_content() for c in tr] for tr in t.iter("tr")] for t in root.iter("table")]
    return root, tables


def assert_scoped(page: str) -> None:
    css = html.fragment_fromstring(page).find("style").text
    found = [s.strip() for block in re.findall(r"([^{}]+)\{", css) for s in block.split(",")]
    assert found and all(s.startswith(f".{CSS_CLASS}") for s in found)


def test_a_rates_check_shows_its_verdict_counts_by_rule_and_first_issues(rates) -> None:
    page = rates._repr_html_()
    assert_scoped(page)
    root, (by_rule, first) = parts(page)
    text = root.text_content()
    assert f"blocked: {len(rates.errors)} errors to fix (or skip), {len(rates.warnings)} warnings" in text
    assert "1,288 night prices" in text and "read: rates.xlsx, lisbon_seasons.csv" in text and "as of: 2026-12-01" in text
    assert {(r[0], r[1]): int(r[2]) for r in by_rule[1:]} == rates.issues.groupby(["severity", "rule"]).size().to_dict()
    assert first[0] == ["source", "sheet", "row", "column", "value", "rule", "severity", "message"]
    shown = first[1:]
    assert len(shown) == FIRST_ISSUES
    assert [r[6] for r in shown] == ["error"] * FIRST_ISSUES  # errors first
    assert [r[7] for r in shown] == list(rates.errors["message"].head(FIRST_ISSUES))  # whole messages
    assert f"10 of {len(rates.issues)} shown" in text


def test_a_clean_check_says_nothing_blocks_a_push(rates) -> None:
    clean = check_rates(rates.valid_frame().head(20), as_of=AS_OF)
    clean.issues = clean.issues.iloc[0:0]
    root, tables = parts(clean._repr_html_())
    assert "nothing blocks a push; no issues" in root.text_content() and tables == []
    assert root.find(".//span[@class='wb-verdict wb-ok']") is not None


def test_warnings_only_are_listed_and_do_not_block(rates) -> None:
    warned = check_rates(rates.valid_frame(), as_of=AS_OF)  # coverage warnings remain
    warned.issues = warned.warnings
    root, (by_rule, listing) = parts(warned._repr_html_())
    assert f"nothing blocks a push; {len(warned.warnings)} warnings" in root.text_content()
    assert {r[6] for r in listing[1:]} == {"warning"}


def test_issue_values_are_escaped(rates) -> None:
    check = check_rates(pd.DataFrame({"HotelCode": [1000001], "InvTypeCode": ["<b>101</b>"], "RatePlanCode": ["5001"],
                                      "Date": ["2027-01-01"], "AmountAfterTax": ["<script>x</script>"],
                                      "CurrencyCode": ["EUR"]}), as_of=AS_OF)
    page = check._repr_html_()
    assert "<script>" not in page and "&lt;script&gt;x&lt;/script&gt;" in page
    assert "<DataFrame 1>" in html.fragment_fromstring(page).text_content()


def test_repr_is_one_line_not_a_frame_dump(rates) -> None:
    text = repr(rates)
    assert "\n" not in text and len(text) < 200
    assert text.startswith("<RatesCheck: 1,288 night prices") and "blocked: 10 errors" in text


def test_a_rooms_check_shows_the_same_summary() -> None:
    rooms = check_rooms(SAMPLES / "rooms.xlsx")
    page = rooms._repr_html_()
    assert_scoped(page)
    root, (by_rule, first) = parts(page)
    assert f"{len(rooms.rooms)} room types" in root.text_content() and "Rooms check" in root.text_content()
    assert len(by_rule) - 1 == rooms.issues.groupby(["severity", "rule"]).ngroups
    assert "\n" not in repr(rooms) and repr(rooms).startswith("<RoomsCheck:")


def test_a_dry_run_shows_what_was_written_and_that_nothing_was_sent(rates, tmp_path: Path) -> None:
    result = dry_run(rates, tmp_path / "requests", skip_invalid=True)
    page = result._repr_html_()
    assert_scoped(page)
    root, (listing,) = parts(page)
    text = root.text_content()
    assert f"{len(result.requests)} requests" in text and "nothing was sent" in text
    assert f"{result.skipped_rows} prices with errors left out" in text and str(tmp_path / "requests") in text
    assert listing[0] == list(result.manifest.columns) and len(listing) - 1 == 10
    assert listing[1][1] == "1000001"  # ids without thousands separators


def push_result(outcomes: list[str]) -> PushResult:
    n = len(outcomes)
    requests = pd.DataFrame({
        "request_id": range(1, n + 1), "hotel": [1000001] * n, "month": [f"2027-{i + 1:02d}" for i in range(n)],
        "messages": [2] * n, "cells": [31] * n, "outcome": outcomes,
        "http_status": pd.array([200 if o == "success" else (400 if o == "rejected" else None) for o in outcomes],
                                dtype="Int64"),
        "ruid": [f"RUID{i}/{'x' * 40}==" for i in range(n)], "attempts": pd.array([1] * n, dtype="Int64"),
        "errors": [[] for _ in range(n)], "warnings": [[] for _ in range(n)],
        "codes": ["<E1>" if o == "rejected" else "" for o in outcomes],
        "texts": ["price <above> cap" if o == "rejected" else "" for o in outcomes],
        "error": [None if o != "failed" else "connection dropped" for o in outcomes],
        "source_rows": ["rates.xlsx Amsterdam 2-32"] * n,
    })
    rows = pd.DataFrame({"source": ["rates.xlsx"] * n, "sheet": ["Amsterdam"] * n, "row": range(2, n + 2),
                         "column": ["AmountAfterTax"] * n, "request_id": range(1, n + 1), "hotel": [1000001] * n,
                         "month": requests["month"], "nights": [31] * n, "outcome": outcomes,
                         "severity": ["ok" if o == "success" else "error" for o in outcomes],
                         "codes": requests["codes"], "message": requests["texts"], "ruid": requests["ruid"]})
    return PushResult(3, "https://127.0.0.1:9999", Path("journal.sqlite"), requests, rows, 500, 120, skipped_rows=9)


def test_a_push_shows_what_was_not_applied_first() -> None:
    result = push_result(["success"] * 12 + ["rejected", "failed"])
    page = result._repr_html_()
    assert_scoped(page)
    root, (listing, flagged) = parts(page)
    text = root.text_content()
    assert "2 requests not applied" in text and "12 success" in text and "120 of 500" in text
    assert "target: https://127.0.0.1:9999" in text and "9 prices with errors left out" in text
    assert [r[4] for r in listing[1:3]] == ["rejected", "failed"]  # attention first
    assert listing[1][7] == "price <above> cap" and listing[2][7] == "connection dropped"
    assert listing[1][8] == "RUID12/" + "x" * 40 + "=="  # the ruid whole, to quote to support
    assert "10 of 14 requests shown" in text
    assert [r[3] for r in flagged[1:]] == ["rejected", "failed"]
    assert "&lt;E1&gt;" in page and "<E1>" not in page
    marks = [tr.get("class") for tr in root.find(".//table").findall(".//tbody/tr")]
    assert marks[:2] == ["wb-row-error", "wb-row-error"] and marks[2] is None


def test_a_push_with_nothing_to_send_says_so() -> None:
    result = push_result([])
    root, tables = parts(result._repr_html_())
    assert "nothing to send: the platform already has every price" in root.text_content() and tables == []
    assert repr(result).startswith("<PushResult run 3 to https://127.0.0.1:9999: 0 requests")


def test_a_rooms_push_shows_its_results_and_mapping() -> None:
    results = pd.DataFrame({"hotel_code": [1000004, 1000004], "notif_type": ["Overlay", "New"],
                            "inv_code": ["401", None], "room_id": [None, "4005"], "room_name": ["Double", "Garden"],
                            "parts": ["amenities", "room"], "outcome": ["success", "rejected"],
                            "message": ["", "MaxOccupancy <must> be at least 1"], "ruid": ["r1", "r2"]})
    mapping = pd.DataFrame(columns=["hotel_code", "room_id", "room_name", "inv_code", "how", "ruid"])
    result = RoomsPushResult(None, results, mapping, notice="OTA_HotelInvNotif is deprecated")  # type: ignore[arg-type]
    page = result._repr_html_()
    assert_scoped(page)
    root, (listing,) = parts(page)
    text = root.text_content()
    assert "1 request not applied" in text and "OTA_HotelInvNotif is deprecated" in text
    assert listing[1][5] == "rejected" and listing[1][6] == "MaxOccupancy <must> be at least 1"
    assert "\n" not in repr(result)
