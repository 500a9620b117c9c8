"""Pushing property content against a stand-in that answers in the published shapes: a New creates the
property once (BuildHotel resent, then "contact support" with every ruid), the custom ID -> HotelCode is
journalled and filled into the workbook, an Overlay never drops a part silently, the sunset is a CET day."""

from __future__ import annotations

import datetime as dt
import warnings

import pandas as pd
import pytest
from openpyxl import Workbook, load_workbook

from workbench.errors import BlockedByErrors, OperationSunset
from workbench.flows.content_push import (
    DeprecatedOperationWarning,
    preview_content,
    push_content,
    write_content_dry_run,
)
from workbench.ota.content_notif import NEW, OVERLAY, parse_content
from workbench.reports.push import write_push_report
from workbench.writers.journal import Journal

TODAY = dt.date(2026, 11, 25)


@pytest.fixture
def journal(tmp_path):
    with Journal(tmp_path / "journal.sqlite") as j:
        yield j


def _push(fake, check, journal, **kw):
    kw.setdefault("today", TODAY)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecatedOperationWarning)
        return push_content(check, fake.settings, journal=journal, client=fake.client, sleep=fake.sleeps.append, **kw)


def _seed_existing(fake, frames) -> None:
    fake.platform.properties[frames.EXISTING] = {"custom_id": None, "status": "Open", "content": {}}


# --- New, BuildHotel, the journal -----------------------------------------------------------------------

def test_a_new_property_is_created_and_its_hotel_code_journalled(fake, frames, journal) -> None:
    result = _push(fake, frames.check_of(frames.new_property()), journal)
    assert result.ok, result.results
    row = result.results.iloc[0]
    assert (row["notif_type"], row["outcome"], row["hotel_code"], row["attempts"]) == (NEW, "success", 2000001, 1)
    assert (row["source"], row["sheet"], row["row"]) == ("content.xlsx", "Property", 2)
    assert row["message"] == "created: HotelCode 2000001" and row["ruids"] == "fake-ruid-1"
    assert result.created[["custom_id", "hotel_code"]].to_dict("records") == [
        {"custom_id": frames.NEW_ID, "hotel_code": 2000001}]
    assert journal.content_property(fake.settings.base_url, frames.NEW_ID)[:2] == ("created", 2000001)
    assert journal.accepted_content(fake.settings.base_url, 2000001)["Languages"] == [
        {"language_code": "en"}, {"language_code": "nl"}]


def test_build_hotel_twice_then_success_creates_the_property_once(fake, frames, journal) -> None:
    fake.platform.build_hotel[frames.NEW_ID] = 2
    result = _push(fake, frames.check_of(frames.new_property()), journal)
    row = result.results.iloc[0]
    assert (row["outcome"], row["attempts"], row["hotel_code"]) == ("success", 3, 2000001)
    assert fake.platform.creations == 1 and len(fake.platform.properties) == 1
    assert len(set(fake.platform.sent)) == 1 and len(fake.platform.sent) == 3  # the same request, resent
    assert fake.sleeps == [2.0, 4.0]  # backoff between the sends
    assert row["ruids"] == "fake-ruid-1; fake-ruid-2; fake-ruid-3"
    assert "after 3 sends: BuildHotel" in row["message"]


def test_build_hotel_past_the_limit_says_contact_support_with_every_ruid(fake, frames, journal) -> None:
    fake.platform.build_hotel[frames.NEW_ID] = 99
    result = _push(fake, frames.check_of(frames.new_property()), journal)
    row = result.results.iloc[0]
    assert (row["outcome"], row["attempts"]) == ("failed", 4)  # Settings.build_hotel_attempts
    assert row["message"] == ("BuildHotel 4 times: the platform could not build the property, which stays Closed. "
                              "Contact support and quote every ruid: fake-ruid-1; fake-ruid-2; fake-ruid-3; "
                              "fake-ruid-4")
    assert fake.platform.creations == 0 and not result.ok and result.created.empty
    assert journal.content_property(fake.settings.base_url, frames.NEW_ID) is None  # a later push may try again


def test_a_second_push_of_the_same_workbook_sends_nothing(fake, frames, journal) -> None:
    check = frames.check_of(frames.new_property())
    _push(fake, check, journal)
    again = _push(fake, check, journal)
    assert fake.platform.creations == 1 and len(fake.platform.sent) == 1
    assert again.results.empty and again.plan.unchanged == [frames.NEW_ID] and again.ok
    assert "1 unchanged (not sent)" in again.summary()


def test_a_new_is_never_sent_twice_for_a_custom_id_with_a_hotel_code(fake, frames, journal) -> None:
    check = frames.check_of(frames.new_property())
    _push(fake, check, journal)
    again = _push(fake, check, journal, full=True)  # --full: sent again although unchanged
    assert fake.platform.creations == 1
    second = parse_content(fake.platform.sent[-1])["Property"].iloc[0]
    assert (second["notif_type"], second["hotel_code"]) == (OVERLAY, 2000001)
    row = again.results.iloc[0]
    assert row["outcome"] == "success" and "created earlier as HotelCode 2000001" in row["message"]
    assert again.created["hotel_code"].tolist() == [2000001]  # still filled back


def test_a_new_without_a_clear_answer_is_not_sent_again(fake, frames, journal) -> None:
    fake.platform.status = 502
    check = frames.check_of(frames.new_property())
    first = _push(fake, check, journal).results.iloc[0]
    assert first["outcome"] == "failed" and len(fake.platform.sent) == 1  # a New is not retried blindly
    assert "may have been created" in first["message"]
    fake.platform.status = None
    second = _push(fake, check, journal)
    assert len(fake.platform.sent) == 1
    row = second.results.iloc[0]
    assert row["outcome"] == "not sent" and (row["sheet"], row["row"]) == ("Property", 2)
    assert "an earlier New for ID `PARTNER-7` got no clear answer" in row["message"]


# --- the Overlay guard ----------------------------------------------------------------------------------

def test_an_overlay_that_drops_a_part_sent_before_is_refused(fake, frames, journal) -> None:
    _seed_existing(fake, frames)
    assert _push(fake, frames.check_of(frames.existing_property()), journal).ok
    without_fees = {k: v for k, v in frames.existing_property().items() if k != "Fees"}
    result = _push(fake, frames.check_of(without_fees), journal)
    assert len(fake.platform.sent) == 1 and not result.ok
    row = result.results.iloc[0]
    assert (row["outcome"], row["sheet"], row["row"]) == ("not sent", "Property", 2)
    assert row["message"] == ("property 1000001: this Overlay would drop `Fees` (1 row), which the platform accepted "
                              "before (an Overlay replaces the stored content). Add the rows back, name the part in "
                              "EmptyParts to empty it on purpose, or push with --replace")
    parts = result.plan.parts.set_index("part")
    assert parts.loc["Fees", "change"] == "dropped: refused"
    assert parts.loc["Fees", "before"] == "1 row: code=5035 amount=5 type=Exclusive internet_type=wifi"
    assert parts.loc["Fees", "after"] == "(empty)"


@pytest.mark.parametrize(("how", "change"), [("stated", "emptied (stated empty)"), ("replace", "dropped (replace)")])
def test_a_part_stated_empty_or_replace_lets_the_overlay_drop_it(fake, frames, journal, how, change) -> None:
    _seed_existing(fake, frames)
    _push(fake, frames.check_of(frames.existing_property()), journal)
    prop = {k: v for k, v in frames.existing_property().items() if k != "Fees"}
    if how == "stated":
        prop["Property"] = [{**prop["Property"][0], "empty_parts": ["Fees"]}]
    result = _push(fake, frames.check_of(prop), journal, replace=how == "replace")
    assert result.ok and len(fake.platform.sent) == 2
    assert result.plan.parts.set_index("part").loc["Fees", "change"] == change
    assert fake.platform.properties[frames.EXISTING]["content"]["Fees"] == []
    assert journal.accepted_content(fake.settings.base_url, frames.EXISTING)["Fees"] == []


def test_the_dry_run_shows_each_part_that_changes_before_and_after(fake, frames, journal, tmp_path) -> None:
    _seed_existing(fake, frames)
    _push(fake, frames.check_of(frames.existing_property()), journal)
    changed = frames.existing_property(Taxes=[{"code": 36, "percent": 21.0, "type": "Inclusive"}],
                                       Languages=[{"language_code": "de"}])
    plan = preview_content(frames.check_of(changed), fake.settings, journal=journal)
    parts = plan.parts.set_index("part")[["change", "before", "after"]].to_dict("index")
    assert parts["Taxes"] == {"change": "changed", "before": "1 row: code=36 percent=9 type=Inclusive",
                              "after": "1 row: code=36 percent=21 type=Inclusive"}
    assert parts["Languages"] == {"change": "added", "before": "(empty)",
                                  "after": "1 row: language_code=de"}
    assert parts["Fees"]["change"] == "unchanged"
    manifest = write_content_dry_run(plan, tmp_path / "dry")
    assert manifest[["file", "notif_type", "parts"]].to_dict("records") == [
        {"file": "001-1000001-overlay.xml", "notif_type": OVERLAY, "parts": "Property; Languages; Taxes; Fees"}]
    assert sorted(p.name for p in (tmp_path / "dry").iterdir()) == [
        "001-1000001-overlay.xml", "issues.csv", "manifest.csv", "parts.csv"]
    assert len(fake.platform.sent) == 1  # the dry run sent nothing


def test_push_with_dry_run_writes_instead_of_sending(fake, frames, journal, tmp_path) -> None:
    result = _push(fake, frames.check_of(frames.new_property()), journal, dry_run=tmp_path / "out")
    assert fake.platform.sent == [] and result.results.empty and result.ok
    assert (tmp_path / "out" / "001-PARTNER-7-new.xml").is_file()
    assert "dry run: 1 request written" in result.summary()


# --- refusals before anything is sent -------------------------------------------------------------------

def test_errors_in_the_check_block_the_push(fake, frames, journal) -> None:
    issues = pd.DataFrame([{"source": "content.xlsx", "sheet": "Property", "row": 2, "column": "HotelName",
                            "value": "AB", "rule": "name_length", "severity": "error", "message": "too short"}])
    with pytest.raises(BlockedByErrors, match="1 error"):
        _push(fake, frames.check_of(frames.new_property(), issues=issues), journal)
    assert fake.platform.sent == []


@pytest.mark.parametrize(("today", "refused"), [(dt.date(2026, 12, 30), False), (dt.date(2026, 12, 31), True)])
def test_every_content_call_warns_before_the_sunset_and_is_refused_from_it(fake, frames, journal, today,
                                                                          refused) -> None:
    check = frames.check_of(frames.new_property())
    if refused:
        with pytest.raises(OperationSunset, match="sunset on 2026-12-31 .* use the Property and Contacts interfaces"):
            push_content(check, fake.settings, journal=journal, client=fake.client, today=today)
        assert fake.platform.sent == []
    else:
        with pytest.warns(DeprecatedOperationWarning, match=r"sunset on 2026-12-31 \(1 day left\)"):
            push_content(check, fake.settings, journal=journal, client=fake.client, today=today)
        assert len(fake.platform.sent) == 1


def test_the_sunset_is_the_cet_day_not_the_utc_day(fake, frames, journal) -> None:
    late = dt.datetime(2026, 12, 30, 23, 30, tzinfo=dt.UTC)  # 00:30 on 31 December in Amsterdam
    with pytest.raises(OperationSunset):
        push_content(frames.check_of(frames.new_property()), fake.settings, journal=journal, client=fake.client,
                     now=late)


# --- the workbook and the reports -----------------------------------------------------------------------

def _workbook(path, frames) -> None:
    wb = Workbook()
    ws = wb.active
    ws.title = "Property"
    ws.append(["ID", "HotelName", "LanguageCode"])
    ws.append([frames.NEW_ID, "Canal House", "en"])
    ws.append(["OTHER-1", "Not pushed", "en"])
    contacts = wb.create_sheet("Contacts")
    contacts.append(["HotelCode", "ID", "ContactProfileType", "Email"])
    for r in range(4):
        contacts.append([None, frames.NEW_ID, "general", f"a{r}@example.com"])
    wb.save(path)


def test_fill_writes_the_new_hotel_code_into_the_workbook(fake, frames, journal, tmp_path) -> None:
    path = tmp_path / "content.xlsx"
    _workbook(path, frames)
    check = frames.check_of(frames.new_property())
    check.files = [path]
    result = _push(fake, check, journal, fill=True)
    assert result.filled == [path]
    wb = load_workbook(path)
    prop = [[c.value for c in r] for r in wb["Property"].iter_rows()]
    assert prop == [["ID", "HotelName", "LanguageCode", "HotelCode"], [frames.NEW_ID, "Canal House", "en", 2000001],
                    ["OTHER-1", "Not pushed", "en", None]]
    assert [r[0].value for r in wb["Contacts"].iter_rows(min_row=2)] == [2000001] * 4


@pytest.mark.parametrize("suffix", [".html", ".csv", ".xlsx"])
def test_the_push_report_traces_each_property_to_its_rows(fake, frames, journal, tmp_path, suffix) -> None:
    fake.platform.build_hotel[frames.NEW_ID] = 99
    check = frames.check_of(frames.new_property())
    check.files = [tmp_path / "content.xlsx"]
    _workbook(check.files[0], frames)
    result = _push(fake, check, journal)
    path = write_push_report(result, tmp_path / f"push{suffix}")
    if suffix == ".html":
        html = path.read_text(encoding="utf-8")
        assert "<th>Property</th><th>Type</th><th>Parts</th><th>Rows</th>" in html
        assert "Contact support and quote every ruid" in html and "content.xlsx Property row 2" in html
    elif suffix == ".csv":
        rows = pd.read_csv(path)
        assert set(zip(rows["sheet"], rows["row"], strict=True)) >= {("Property", 2), ("Contacts", 5)}
        assert (rows["severity"] == "error").all() and rows["message"].str.contains("BuildHotel 4 times").all()
    else:
        assert "Problems" in load_workbook(path).sheetnames


def test_the_summary_shows_in_a_notebook(fake, frames, journal) -> None:
    fake.platform.warn_on_create = True
    result = _push(fake, frames.check_of(frames.new_property()), journal)
    html = result._repr_html_()
    assert "Content push" in html and "every property applied" in html and "PARTNER-7" in html
    assert result.results.iloc[0]["warnings"].startswith("No policy given")
    assert repr(result) == "<ContentPushResult: 1 property: 1 success; 1 created>"
