"""What availability tells about health: rooms running out, priced nights nobody can book, availability
ending before the prices do - each on its room type or room-rate, with its nights and severity."""

from __future__ import annotations

import datetime as dt

import pandas as pd
import pytest

from loaders import read_registry
from workbench.flows.health import property_health
from workbench.health.availability import availability_findings
from workbench.ota.room_rate_availability import FETCH_COLUMNS
from workbench.paths import SAMPLES

AS_OF = dt.date(2027, 1, 1)
NIGHTS = 20


def read(rooms: list[tuple[int, int, int]] | None = None, closed_rate: set[int] = frozenset(),
         nights: int = NIGHTS) -> pd.DataFrame:
    """A fetch frame of room type 101 and room-rate 5001 for ``nights`` nights from AS_OF; ``rooms``: per
    night (rooms to sell, booked, room type closed), default 5 / 0 / open."""
    rows = []
    for d in range(nights):
        sell, booked, shut = (rooms or [])[d] if rooms and d < len(rooms) else (5, 0, 0)
        day = pd.Timestamp(AS_OF) + pd.Timedelta(days=d)
        rows.append({"hotel_code": 1000001, "inv_type_code": "101", "rate_plan_code": None, "date": day,
                     "rooms_to_sell": sell, "booked": booked, "cancelled": 0, "closed": shut})
        rows.append({"hotel_code": 1000001, "inv_type_code": "101", "rate_plan_code": "5001", "date": day,
                     "rooms_to_sell": None, "booked": booked, "cancelled": 0, "closed": int(d in closed_rate)})
    return pd.DataFrame(rows).astype(FETCH_COLUMNS)


def prices(last: int = NIGHTS - 1, first: int = 0, price: float = 100.0) -> pd.DataFrame:
    days = pd.date_range(pd.Timestamp(AS_OF) + pd.Timedelta(days=first), periods=last - first + 1)
    return pd.DataFrame({"hotel_code": 1000001, "inv_type_code": "101", "rate_plan_code": "5001", "date": days,
                         "price": price})


def _found(frame: pd.DataFrame) -> list[tuple]:
    return [(r.finding, r.severity, pd.Timestamp(r.from_date).day, pd.Timestamp(r.to_date).day, int(r.nights))
            for r in frame.itertuples(index=False)]


@pytest.mark.parametrize(("availability", "priced", "horizon", "expected"), [
    # plenty of rooms, priced throughout: nothing
    (read(), prices(), 10, []),
    # one room left on the 3rd and 4th (3 to sell, 2 booked): low, soon; none left on the 5th is not "low"
    (read([(5, 0, 0), (5, 0, 0), (3, 2, 0), (1, 0, 0), (2, 2, 0)]), None, 10,
     [("low_availability", "soon", 3, 4, 2), ("not_bookable", "soon", 5, 5, 1)]),
    # low tonight: now
    (read([(1, 0, 0)]), None, 10, [("low_availability", "now", 1, 1, 1)]),
    # low only beyond the horizon: not a finding
    (read([(5, 0, 0)] * 12 + [(1, 0, 0)]), None, 10, []),
    # priced but the room-rate is closed on the 2nd and 6th, open after: not bookable
    (read(closed_rate={1, 5}), prices(), 10, [("not_bookable", "soon", 2, 6, 2)]),
    # priced, the room type closed tonight: now
    (read([(5, 0, 1)]), prices(), 10, [("not_bookable", "now", 1, 1, 1)]),
    # a closed night that is not priced: nothing
    (read(closed_rate={3}), prices(last=2), 10, []),
    # nothing to sell from the 8th on, priced to the end: bookable until the 7th
    (read([(5, 0, 0)] * 7 + [(0, 0, 0)] * 13), prices(), 10, [("availability_ends", "soon", 8, 20, 13)]),
    # ... with the horizon before the 8th: advice
    (read([(5, 0, 0)] * 7 + [(0, 0, 0)] * 13), prices(), 5, [("availability_ends", "advice", 8, 20, 13)]),
    # ... and priced only to the 7th: nothing
    (read([(5, 0, 0)] * 7 + [(0, 0, 0)] * 13), prices(last=6), 10, []),
    # nothing to sell at all, priced: not bookable from today
    (read([(0, 0, 0)] * NIGHTS), prices(), 10, [("availability_ends", "now", 1, 20, 20)]),
], ids=["fine", "low and sold out", "low tonight", "low beyond the horizon", "closed priced", "room closed tonight",
        "closed unpriced", "availability ends", "ends beyond the horizon", "priced no further", "nothing to sell"])
def test_each_finding_on_its_nights(availability, priced, horizon, expected) -> None:
    found = availability_findings(availability, priced, as_of=AS_OF, horizon=horizon)
    assert _found(found) == expected
    assert set(found["rate_plan_code"].fillna("").tolist()) <= {"", "5001"}
    assert (found.loc[found["finding"] == "low_availability", "rate_plan_code"].isna()).all()


def test_the_read_ending_is_not_availability_ending() -> None:
    """Sellable to the last night read, priced beyond it: the read ended, not the availability."""
    assert availability_findings(read(), prices(last=40), as_of=AS_OF, horizon=10).empty


def test_property_health_adds_what_availability_tells(tmp_path) -> None:
    reg = read_registry(SAMPLES / "registry.xlsx")
    plain = property_health(None, hotels=[1000001], registry=reg, journal=None, as_of=AS_OF, horizon=10)
    with_avail = property_health(None, hotels=[1000001], registry=reg, journal=None, as_of=AS_OF, horizon=10,
                                 availability=read([(1, 0, 0)]))
    added = with_avail.findings[~with_avail.findings["finding"].isin(plain.findings["finding"])]
    assert added["finding"].tolist() == ["low_availability"] and added["hotel_name"].iloc[0] == "Hotel Aurora Amsterdam"
    order = with_avail.findings["severity"].map({"now": 0, "soon": 1, "advice": 2})
    assert order.is_monotonic_increasing
    unread = property_health(None, hotels=[1000001], registry=reg, journal=None, as_of=AS_OF, availability=True)
    assert any("availability was not read" in n for n in unread.notes)
