"""Constructed states (journal + the platform's room-rates + sheets) and the exact findings expected.

The platform's view comes from a registry here (the flow uses it when the platform is not read);
tests/workbench/flows/test_health.py reads it from the sandbox's roomrates instead."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
import pytest

from loaders import Registry
from tests.workbench.health.conftest import AS_OF, nights, write_journal
from workbench import property_health
from workbench.health import PlatformView, find_problems
from workbench.health.coverage import COVERAGE_COLUMNS, empty

YEAR_END = "2027-11-30"  # the 365th night from the as-of night


def registry(*rates: tuple) -> Registry:
    """Room-rates as (room, rate, active, parent, follows_price, read_only) of property 1."""
    rows = [{"hotel_code": 1, "inv_type_code": r, "rate_plan_code": p, "rate_name": f"Rate {p}", "active": a,
             "parent_rate_plan_code": parent, "follows_price": fp, "read_only": ro}
            for r, p, a, parent, fp, ro in rates]
    rooms = [{"hotel_code": 1, "inv_type_code": r, "room_name": f"Room {r}"} for r in sorted({x[0] for x in rates})]
    return Registry.from_frames(properties=pd.DataFrame([{"hotel_code": 1, "hotel_name": "Hotel One"}]),
                                rooms=pd.DataFrame(rooms), room_rates=pd.DataFrame(rows))


STD = ("101", "5001", True, None, False, False)


@dataclass
class State:
    name: str
    rates: tuple = (STD,)
    accepted: list = field(default_factory=list)
    sheet: list = field(default_factory=list)
    expected: list = field(default_factory=list)  # (room, rate, finding, severity, from, nights)


STATES = [
    State("a year priced: nothing to say", accepted=nights("2026-12-01", YEAR_END)),
    State("364 nights: short of a year", accepted=nights("2026-12-01", "2027-11-29"),
          expected=[("101", "5001", "short_of_year", "advice", "2027-11-30", 364)]),
    State("active but never priced", expected=[("101", "5001", "not_priced", "now", "2026-12-01", None)]),
    State("priced only in a sheet not pushed", sheet=nights("2026-12-01", YEAR_END),
          expected=[("101", "5001", "not_sent", "now", "2026-12-01", None)]),
    State("last bookable night is the horizon's last (as-of + 59): ending soon",
          accepted=nights("2026-12-01", "2027-01-29"),
          expected=[("101", "5001", "ending_soon", "soon", "2027-01-30", None)]),
    State("last bookable night just after the horizon: only short of a year",
          accepted=nights("2026-12-01", "2027-01-30"),
          expected=[("101", "5001", "short_of_year", "advice", "2027-01-31", 61)]),
    State("trailing 0 prices do not extend bookability",
          accepted=nights("2026-12-01", "2026-12-20") + nights("2026-12-21", YEAR_END, 0),
          expected=[("101", "5001", "ending_soon", "soon", "2026-12-21", None),
                    ("101", "5001", "closed", "soon", "2026-12-01", 70)]),
    State("ended the night before as-of", accepted=nights("2026-01-01", "2026-11-30"),
          expected=[("101", "5001", "ended", "now", "2026-12-01", None)]),
    State("every accepted price 0", accepted=nights("2026-12-01", YEAR_END, 0),
          expected=[("101", "5001", "ended", "now", "2026-12-01", None)]),
    State("gaps: at as-of now, within the horizon soon, beyond it advice",
          accepted=nights("2026-12-01", YEAR_END, skip=["2026-12-01", "2027-01-29", "2027-01-31", "2027-06-01"]),
          expected=[("101", "5001", "gap", "now", "2026-12-01", 1), ("101", "5001", "gap", "soon", "2027-01-29", 1),
                    ("101", "5001", "gap", "advice", "2027-01-31", 1), ("101", "5001", "gap", "advice", "2027-06-01", 1),
                    ("101", "5001", "short_of_year", "advice", "2027-12-01", 361)]),
    State("a run of unpriced nights is one finding", accepted=nights("2026-12-05", YEAR_END),
          expected=[("101", "5001", "gap", "now", "2026-12-01", 4),
                    ("101", "5001", "short_of_year", "advice", "2027-12-01", 361)]),
    State("10 of the next 90 nights closed: advice",
          accepted=nights("2026-12-01", YEAR_END, skip=[f"2027-02-{d:02d}" for d in range(1, 11)])
          + nights("2027-02-01", "2027-02-10", 0),
          expected=[("101", "5001", "closed", "advice", "2026-12-01", 10)]),
    State("the next 90 nights closed: now",
          accepted=nights("2026-12-01", "2027-02-28", 0) + nights("2027-03-01", YEAR_END),
          expected=[("101", "5001", "closed", "now", "2026-12-01", 90)]),
    State("accepted for a rate the platform does not have for the room",
          accepted=nights("2026-12-01", YEAR_END) + nights("2026-12-10", YEAR_END, rate="5009"),
          expected=[("101", "5009", "unknown_to_platform", "now", "2026-12-10", None)]),
    State("a sheet prices a room type the platform does not have", accepted=nights("2026-12-01", YEAR_END),
          sheet=nights("2026-12-01", "2027-01-31", room="109"),
          expected=[("109", "5001", "unknown_to_platform", "now", "2026-12-01", None)]),
    State("a sheet prices a rate inactive for the room", accepted=nights("2026-12-01", YEAR_END),
          rates=(STD, ("101", "5003", False, None, False, False)), sheet=nights("2027-01-01", "2027-01-31", rate="5003"),
          expected=[("101", "5003", "unknown_to_platform", "now", "2027-01-01", None)]),
    State("past prices of a retired room-rate say nothing",
          accepted=nights("2026-12-01", YEAR_END) + nights("2026-01-01", "2026-11-30", rate="5009")),
    State("child rates: one following its parent's price is priced, one with its own prices is not",
          rates=(STD, ("101", "5002", True, "5001", True, False), ("101", "5004", True, "5001", False, False),
                 ("101", "5006", True, "5001", None, False)),
          accepted=nights("2026-12-01", YEAR_END) + nights("2026-12-01", "2026-12-31", rate="5002"),
          expected=[("101", "5004", "not_priced", "now", "2026-12-01", None),
                    ("101", "5002", "child_rate_priced", "advice", "2026-12-01", None)]),
    State("a read-only rate is priced in a sheet, another is not priced at all",
          rates=(STD, ("101", "5005", True, None, False, True), ("101", "5007", True, None, False, True)),
          accepted=nights("2026-12-01", YEAR_END), sheet=nights("2026-12-01", "2026-12-31", rate="5005"),
          expected=[("101", "5005", "read_only_rate_priced", "advice", "2026-12-01", None)]),
    State("the sheets extend prices that end soon: the fix says push them",
          accepted=nights("2026-12-01", "2027-01-10"), sheet=nights("2027-01-11", YEAR_END),
          expected=[("101", "5001", "ending_soon", "soon", "2027-01-11", None)]),
]


def _sheet(path: Path, cells: list) -> Path:
    pd.DataFrame([{"HotelCode": h, "InvTypeCode": r, "RatePlanCode": p, "Date": d, "AmountAfterTax": a,
                   "CurrencyCode": "EUR"} for h, r, p, d, _g, a in cells]).to_csv(path, index=False)
    return path


def _findings(state: State, tmp_path: Path):
    journal = write_journal(tmp_path / "journal.sqlite", state.accepted)
    sheets = [_sheet(tmp_path / "sheet.csv", state.sheet)] if state.sheet else None
    return property_health(None, as_of=AS_OF, registry=registry(*state.rates), journal=journal, rates=sheets)


@pytest.mark.parametrize("state", STATES, ids=[s.name for s in STATES])
def test_findings_of_constructed_states(state: State, tmp_path: Path) -> None:
    health = _findings(state, tmp_path)
    f = health.findings
    got = [(r.inv_type_code, r.rate_plan_code, r.finding, r.severity,
            None if pd.isna(r.from_date) else f"{r.from_date:%Y-%m-%d}",
            None if pd.isna(r.nights) or r.finding not in ("gap", "closed", "short_of_year") else int(r.nights))
           for r in f.itertuples(index=False)]
    assert got == state.expected
    assert f["fix"].str.len().gt(10).all() and f["message"].str.len().gt(10).all()
    assert health.exit_code == (1 if any(e[3] in ("now", "soon") for e in state.expected) else 0)


def test_the_fix_points_to_the_sheets_when_they_carry_the_prices(tmp_path: Path) -> None:
    f = _findings(STATES[-1], tmp_path).findings
    assert "the sheets carry prices until 2027-11-30: push them" in f.loc[0, "fix"]


def test_gap_findings_name_their_dates(tmp_path: Path) -> None:
    f = _findings(STATES[9], tmp_path).findings
    gaps = f[f["finding"] == "gap"]
    assert gaps["to_date"].dt.strftime("%Y-%m-%d").tolist() == ["2026-12-01", "2027-01-29", "2027-01-31",
                                                                "2027-06-01"]
    assert "2027-01-29" in gaps.iloc[1]["message"]


def test_without_the_platforms_view_prices_are_still_checked(tmp_path: Path) -> None:
    journal = write_journal(tmp_path / "journal.sqlite", nights("2026-12-01", "2026-12-20", hotel=9))
    health = property_health(None, as_of=AS_OF, journal=journal)
    assert health.findings["finding"].tolist() == ["ending_soon"]
    assert any("neither the platform nor a registry" in n for n in health.notes)
    assert health.hotels == [9]


def test_the_horizon_moves_ending_soon(tmp_path: Path) -> None:
    journal = write_journal(tmp_path / "journal.sqlite", nights("2026-12-01", "2027-02-28"))
    for horizon, expected in ((60, "short_of_year"), (90, "ending_soon")):
        health = property_health(None, as_of=AS_OF, journal=journal, registry=registry(STD), horizon=horizon)
        assert health.findings["finding"].tolist() == [expected]
    with pytest.raises(ValueError, match="at least 1 night"):
        property_health(None, as_of=AS_OF, journal=journal, horizon=0)


def _view(**kw) -> PlatformView:
    rates = pd.DataFrame([{"hotel_code": 1, "inv_type_code": r, "rate_plan_code": "5001", "rate_name": "Standard",
                           "active": True, "is_child": False, "read_only": False, "follows_price": pd.NA}
                          for r in ("101", "102", "103")])
    rooms = pd.DataFrame({"hotel_code": [1, 1, 1], "inv_type_code": ["101", "102", "103"],
                          "room_name": ["Studio", "Apartment", "Loft"]})
    return PlatformView(rates, rooms, pd.DataFrame({"hotel_code": [1], "hotel_name": ["Hotel One"]}), frozenset({1}),
                        **kw)


def test_room_types_that_cannot_be_booked() -> None:
    """101 is an Apartment without a kitchen; 102 an Apartment with a kitchenette; 103 is listed by roomrates
    but not among the active room types (OTA_HotelDescriptiveInfo lists active ones only) and priced."""
    types = pd.DataFrame({"hotel_code": [1, 1], "inv_code": ["101", "102"], "room_type": ["1", "Apartment"],
                          "room_name": ["Studio", "Apartment"]})
    amenities = pd.DataFrame({"hotel_code": [1, 1], "inv_code": ["101", "102"], "amenity_code": [2, 61]})
    cov = pd.DataFrame(nights("2026-12-01", YEAR_END, room="103"),
                       columns=["hotel_code", "inv_type_code", "rate_plan_code", "date", "guests", "price"])
    from workbench.health import coverage_of_nights

    coverage = pd.concat([coverage_of_nights(cov, AS_OF), coverage_of_nights(cov.assign(inv_type_code="101"), AS_OF),
                          coverage_of_nights(cov.assign(inv_type_code="102"), AS_OF)], ignore_index=True)
    f = find_problems(_view(room_types=types, amenities=amenities, room_types_read=frozenset({1})), coverage,
                      as_of=AS_OF)
    assert list(zip(f["inv_type_code"], f["finding"], f["severity"], strict=True)) == [
        ("101", "no_kitchen", "now"), ("103", "inactive_room_priced", "now")]
    assert f["rate_plan_code"].isna().all()
    # without a read of the room types nothing is said about them
    assert find_problems(_view(), coverage, as_of=AS_OF).empty


def test_no_findings_frame_has_the_columns() -> None:
    f = find_problems(_view(), empty(COVERAGE_COLUMNS), as_of=AS_OF)
    assert list(f.columns) == ["hotel_code", "hotel_name", "inv_type_code", "room_name", "rate_plan_code",
                               "rate_name", "finding", "severity", "from_date", "to_date", "nights", "message", "fix"]
    assert f["finding"].tolist() == ["not_priced"] * 3
