"""`workbench demo` on a fresh folder, as a newcomer runs it: it names every file it writes, prints
no address of a server it has stopped, and keeps everything under its own folder."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
from openpyxl import load_workbook


def test_demo_runs_end_to_end(workbench, tmp_path: Path) -> None:
    run = workbench(["demo", "--out", "demo"], cwd=tmp_path, env={"HOME": str(tmp_path)}, timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    out = tmp_path / "demo"
    assert "Demo complete." in run.stdout
    assert "7 of 1,279 prices changed" in run.stdout
    assert re.search(r"the sandbox now has \d+\.\d\d, \d+\.\d\d EUR for that week", run.stdout), run.stdout
    for name in ("rates-validation.html", "rates-validation.xlsx", "rates-validation.csv", "push-report.html",
                 "push-report.xlsx", "push-report.csv", "requests/manifest.csv", "push-report-delta.html",
                 "rates-changed.xlsx", "sandbox-requests.csv", "notify/notifications-inbox.csv", "journal.sqlite",
                 "sandbox/connection.env", "notify/notify/notify.db"):
        assert (out / name).stat().st_size > 0, name
    # every file and folder written is named in the listing at the end
    listing = run.stdout.split("Files written in")[1]
    written = {p.relative_to(out).as_posix() for p in out.iterdir()}
    for name in written:
        assert re.search(rf"^\s+{re.escape(name)}(/|\s)", listing, re.M), (name, listing)
    assert "https://" not in run.stdout  # the servers are stopped when the demo ends: no address to visit
    rows = pd.read_csv(out / "push-report.csv", encoding="utf-8-sig")
    not_sent = ("not sent", "not sent (errors)")
    sent = rows[~rows["outcome"].isin(not_sent)]
    assert set(sent["outcome"]) == {"success"} and sent["ruid"].notna().all()
    assert "not sent (errors)" in set(rows["outcome"])  # rows skipped for errors, each said
    held = rows[rows["outcome"] == "not sent"]  # repeats of an earlier row: the first is sent, none lost
    assert held.loc[held["codes"] == "duplicate_key", "row"].tolist() == [273]
    assert held["message"].str.startswith("not sent").all()
    assert load_workbook(out / "push-report.xlsx").sheetnames[:1] == ["Problems"]
    # step 4b: the availability sample's valid values pushed, read back, and nothing differs from the journal
    assert "4b. Availability and restrictions" in run.stdout and "7 requests: 7 success" in run.stdout
    assert "no difference" in run.stdout
    read_back = pd.read_csv(out / "availability-read.csv", dtype={"InvTypeCode": str, "RatePlanCode": str})
    assert list(read_back.columns[:4]) == ["HotelCode", "InvTypeCode", "RatePlanCode", "Date"]
    assert set(read_back["HotelCode"]) == {1000001, 1000004}
    # the sandbox in its default mode, the platform as it is today: every call with the account's token
    calls = pd.read_csv(out / "sandbox-requests.csv", dtype=str)
    assert "token-exchange" in set(calls["endpoint"]) and "WORKBENCH_AUTH=token" in (
        out / "sandbox" / "connection.env").read_text()
    assert set(calls["account"]) == {"sandbox-api-token"} and "401" not in set(calls["status"])
    # the last step: property health on what the pushes (and the health seed) left on the sandbox
    assert "6. Property health" in run.stdout and "property 1000004 has nothing to fix" in run.stdout
    findings = pd.read_csv(out / "health.csv", encoding="utf-8-sig", dtype={"inv_type_code": str, "rate_plan_code": str})
    krakow = findings[findings["hotel_code"] == 1000002]
    assert {"gap", "ending_soon", "closed"} <= set(krakow["finding"])
    assert krakow.loc[krakow["finding"] == "ending_soon", "from_date"].tolist() == ["2027-01-16"]
    assert ("1000005", "9001") in set(zip(findings["hotel_code"].astype(str), findings["rate_plan_code"], strict=True))
    assert (out / "health.html").read_text(encoding="utf-8").count("<svg") == 5
    assert len(list((out / "letters").glob("*.md"))) == 5
    # step 7: property content, checked (the sample's deliberate problems), then a fixed copy pushed
    assert "7. Property content" in run.stdout and "5 properties: 5 success; 4 created" in run.stdout
    issues = pd.read_csv(out / "content-validation.csv", encoding="utf-8-sig")
    assert {"floors_max", "coordinates_country", "tax_number_check_digits"} <= set(issues["rule"])
    filled = pd.read_excel(out / "content-fixed.xlsx", sheet_name="Property")
    assert filled["HotelCode"].notna().all()  # the new properties' HotelCodes, written into the copy
    # step 8: past the sunset, the same content through the modular APIs, read back, and the read-back sends nothing
    assert "8. After the sunset" in run.stdout and "20 success; 4 created" in " ".join(run.stdout.split())
    assert "pushed again: 0 requests through the modular APIs: nothing to send" in " ".join(run.stdout.split())
    assert {"Property", "Contacts", "Fees"} <= set(load_workbook(out / "content-fetched.xlsx").sheetnames)
    # a second run starts from a fresh sandbox and journal, so it shows the same
    again = workbench(["demo", "--out", "demo"], cwd=tmp_path, env={"HOME": str(tmp_path)}, timeout=600)
    assert again.returncode == 0 and "7 of 1,279 prices changed" in again.stdout
    assert "5 properties: 5 success; 4 created" in again.stdout
