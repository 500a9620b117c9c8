"""Content pushed to the real sandbox process over HTTPS on loopback (not the hand-written stand-in of the other
tests): the sample fixed as the demo fixes it, two BuildHotel answers for a new property, then success — the
property is created once, the HotelCodes come back, and a second push sends Overlays, never a second New (and
never BookingModel RTB on an Overlay, which the platform refuses)."""

from __future__ import annotations

import datetime as dt
import io
import ssl
from dataclasses import replace
from pathlib import Path

import httpx
import pandas as pd

from workbench import check_content, push_content, run_sandbox
from workbench.cli.demo import fixed_content

DAY = dt.date(2026, 12, 1)


def _properties(sb) -> pd.DataFrame:
    s = sb.settings
    with httpx.Client(verify=ssl.create_default_context(cafile=str(sb.tls.ca_bundle)),
                      auth=(s.username, s.password.reveal())) as client:
        answer = client.get(f"{sb.base_url}/_sandbox/properties.csv")
    answer.raise_for_status()
    return pd.read_csv(io.StringIO(answer.text), dtype=str)


def test_a_new_property_survives_build_hotel_and_is_created_once(tmp_path: Path) -> None:
    fixed = fixed_content(tmp_path / "content-fixed.xlsx")
    with run_sandbox(tmp_path / "sb", today=DAY, rtb_enabled=True, faults="buildhotel=PORTO-01x2") as sb:
        settings = replace(sb.settings, content_api_rtb_enabled=True, build_hotel_backoff_seconds=0.0)
        check = check_content(fixed, settings=settings, today=DAY, cache=tmp_path / "lookups.json")
        assert not len(check.errors), check.errors
        journal = tmp_path / "journal.sqlite"
        first = push_content(check, settings, journal=journal, today=DAY, sleep=lambda _: None)
        assert first.ok, first.summary()
        sent = first.results.set_index("property")
        assert sent.loc["PORTO-01", "attempts"] == 3 and len(sent.loc["PORTO-01", "ruids"].split("; ")) == 3
        created = dict(zip(first.created["custom_id"], first.created["hotel_code"].astype(str), strict=True))
        assert sorted(created) == ["BR-RJ-02", "BR-SP-01", "PORTO-01", "RTB-AMS-01"]
        platform = _properties(sb)
        porto = platform[platform["CustomID"] == "PORTO-01"]
        assert len(porto) == 1 and porto["HotelCode"].iloc[0] == created["PORTO-01"]
        assert porto["Status"].iloc[0] == "Open"  # Closed while BuildHotel failed, open once a resend succeeded
        # pushed again from the same journal: every property is known, so nothing is created twice
        again = push_content(check, settings, journal=journal, today=DAY, sleep=lambda _: None)
        assert again.ok and set(again.results["notif_type"]) == {"Overlay"}
        assert again.created.set_index("custom_id")["hotel_code"].astype(str).to_dict() == created  # from the journal
        assert len(_properties(sb)) == len(platform)
        # the RTB property's Overlay leaves its booking model out: request to book is set by a New only (States)
        rtb = again.results.set_index("property").loc["RTB-AMS-01", "message"]
        assert "BookingModel RTB was sent with that New" in rtb
