"""Waivers on a rates check: matching warnings are set aside and count nowhere, errors never are,
an expired waiver and a waiver on an error are reported on the waiver's own row."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from workbench import check_rates

HEADER = ["rule", "property", "room", "rate", "start", "end", "reason", "who", "expires"]


def rates() -> pd.DataFrame:
    """Property 1: room A priced 1-10 Jan 2027 and a repeat of the 3rd (duplicate_key, a warning), room B
    a negative price (price_negative, an error); property 2: a repeat of the 5th."""
    rows = [[1, "A", "R", f"2027-01-{d:02d}", "100", "EUR"] for d in range(1, 11)]
    rows += [[1, "A", "R", "2027-01-03", "120", "EUR"], [1, "B", "R", "2027-01-04", "-5", "EUR"],
             [2, "A", "R", "2027-01-05", "100", "EUR"], [2, "A", "R", "2027-01-05", "110", "EUR"]]
    return pd.DataFrame(rows, columns=["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "AmountAfterTax",
                                       "CurrencyCode"])


def waive(write_csv, *rows: list[object]):
    path = write_csv([HEADER, *rows], name="waivers.csv")
    return check_rates(rates(), as_of="2026-12-01", waivers=path), check_rates(rates(), as_of="2026-12-01")


def counts(check) -> tuple[int, int, int]:
    return len(check.errors), len(check.warnings), len(check.waived)


def test_a_matching_waiver_sets_the_warning_aside_with_its_reason(write_csv) -> None:
    waived, plain = waive(write_csv, ["duplicate_key", 1, "A", "R", "2027-01-01", "2027-01-31", "known", "Ana",
                                      "2027-06-30"])
    assert counts(plain) == (1, 7, 0)
    assert counts(waived) == (1, 6, 1)  # one warning fewer: not counted, but listed
    row = waived.waived.iloc[0]
    assert (row["rule"], int(row["row"]), row["waiver_reason"], row["waived_by"], row["waiver"]) == \
        ("duplicate_key", 12, "known", "Ana", "waivers.csv row 2")
    assert "6 warnings" in waived.verdict() and "7 warnings" in plain.verdict()
    assert not (waived.summary()["issues"] > plain.summary()["issues"].max()).any()
    assert waived.summary().set_index("rule")["issues"].get("duplicate_key") == 1  # property 2's repeat stays


def test_blank_property_room_rate_and_dates_mean_any(write_csv) -> None:
    waived, _ = waive(write_csv, ["duplicate_key", "", "", "", "", "", "both repeats", "Ana", "2027-06-30"])
    assert counts(waived) == (1, 5, 2)
    assert set(waived.waived["row"].astype(int)) == {12, 15}


@pytest.mark.parametrize("row", [
    ["duplicate_key", 3, "", "", "", "", "another property", "Ana", "2027-06-30"],
    ["duplicate_key", 1, "B", "", "", "", "another room", "Ana", "2027-06-30"],
    ["duplicate_key", 1, "A", "R9", "", "", "another rate", "Ana", "2027-06-30"],
    ["duplicate_key", 1, "A", "R", "2027-01-04", "", "nights after it", "Ana", "2027-06-30"],
    ["duplicate_key", 1, "A", "R", "", "2027-01-02", "nights before it", "Ana", "2027-06-30"],
    ["coverage", 2, "", "", "", "", "another rule", "Ana", "2027-06-30"],
], ids=["property", "room", "rate", "start", "end", "rule"])
def test_a_waiver_that_does_not_match_waives_nothing(write_csv, row) -> None:
    waived, plain = waive(write_csv, row)
    if row[0] == "coverage":  # property 2's coverage warning is waived, not property 1's repeat
        assert set(waived.waived["rule"]) == {"coverage"} and "duplicate_key" in set(waived.issues["rule"])
        return
    assert counts(waived) == counts(plain)
    assert waived.waived.empty


def test_an_expired_waiver_waives_nothing_and_is_a_warning_on_its_row(write_csv) -> None:
    waived, plain = waive(write_csv, ["duplicate_key", "", "", "", "", "", "old", "Ana", "2026-11-30"])
    assert waived.waived.empty
    assert counts(waived) == (1, counts(plain)[1] + 1, 0)
    expired = waived.issues[waived.issues["rule"] == "waiver_expired"].iloc[0]
    assert (expired["source"], int(expired["row"]), expired["column"], expired["value"], expired["severity"]) == \
        ("waivers.csv", 2, "expires", "2026-11-30", "warning")
    assert "expired on 2026-11-30" in expired["message"] and "later `expires`" in expired["message"]
    # expiring on the day of the check still holds
    today, _ = waive(write_csv, ["duplicate_key", "", "", "", "", "", "today", "Ana", "2026-12-01"])
    assert len(today.waived) == 2 and "waiver_expired" not in set(today.issues["rule"])


def test_errors_are_never_waived_and_the_waiver_is_reported(write_csv) -> None:
    waived, plain = waive(write_csv, ["price_negative", 1, "", "", "", "", "it is fine", "Bob", "2027-06-30"])
    assert len(waived.errors) == len(plain.errors) == 1 and not waived.ok
    assert waived.waived.empty
    report = waived.issues[waived.issues["rule"] == "waiver_on_error"].iloc[0]
    assert (report["source"], int(report["row"]), report["severity"]) == ("waivers.csv", 2, "warning")
    assert "errors can never be waived" in report["message"] and "row 13" in report["message"]


def test_waive_on_a_check_is_the_same_as_the_argument(write_csv) -> None:
    path = write_csv([HEADER, ["duplicate_key", "", "", "", "", "", "both", "Ana", "2027-06-30"]], name="w.csv")
    later = check_rates(rates(), as_of="2026-12-01").waive(path)
    at_once = check_rates(rates(), as_of="2026-12-01", waivers=path)
    pd.testing.assert_frame_equal(later.issues, at_once.issues)
    pd.testing.assert_frame_equal(later.waived, at_once.waived)


def test_the_reports_show_waived_warnings_apart(write_csv, tmp_path: Path) -> None:
    from lxml import html
    from openpyxl import load_workbook

    from workbench.reports import write_report

    waived, _ = waive(write_csv, ["duplicate_key", "", "", "", "", "", "both repeats", "Ana", "2027-06-30"])
    kw = {"rates": waived.frame, "waived": waived.waived}
    csv = pd.read_csv(write_report(waived.issues, tmp_path / "r.csv", **kw), keep_default_na=False,
                      encoding="utf-8-sig")
    assert len(csv) == len(waived.issues) + 2
    assert csv.loc[csv["waived"] == "yes", "waiver_reason"].tolist() == ["both repeats", "both repeats"]
    doc = html.fromstring(write_report(waived.issues, tmp_path / "r.html", **kw).read_text(encoding="utf-8"))
    section = doc.xpath("//section[@class='waived']")[0]
    assert "both repeats" in section.text_content() and "Ana" in section.text_content()
    assert {tr.get("data-sev") for tr in section.xpath(".//tbody/tr")} == {"waived"}
    assert [c.text_content() for c in doc.find_class("card") if "waived" in c.text_content()] == ["2warnings waived"]
    book = load_workbook(write_report(waived.issues, tmp_path / "r.xlsx", **kw))
    assert book["Waived"].max_row == 3 and "duplicate_key" not in {c.value for c in book["Issues"]["B"]}
