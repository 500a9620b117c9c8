"""``expectations.sunset``: rows the platform no longer takes, each refused on its first filled cell inside the
gone element, with the date; the facts come as plain arguments (the workbench's catalogue gives them)."""

from __future__ import annotations

import datetime as dt

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from expectations.sunset import RULE, GoneElement, sunset_content
from loaders.content_schema import frames_from_rows

ATTRACTIONS = GoneElement("AreaInfo/Attractions", dt.date(2023, 6, 30), "nothing: leave these rows out")
TRANSPORT = GoneElement("HotelInfo/RelativePositions", dt.date(2023, 6, 30), "nothing: leave these rows out")


def parts(**sheets: list[dict]) -> dict[str, pd.DataFrame]:
    return frames_from_rows(sheets)


def test_each_row_of_a_gone_sheet_is_an_error_on_its_first_filled_cell() -> None:
    found = sunset_content(parts(
        Attractions=[{"hotel_code": 1, "category_code": 5, "attraction_name": "Tower", "distance": 2.5},
                     {"hotel_code": 1, "attraction_name": "Museum"},
                     {"hotel_code": 2}],
        Transport=[{"hotel_code": 1, "transport_type_code": 10, "journey_minutes": 30}],
        Property=[{"hotel_code": 1, "hotel_name": "Aurora"}]), [ATTRACTIONS, TRANSPORT])
    assert found[["sheet", "row", "column", "value"]].values.tolist() == [
        ["Attractions", 2, "AttractionCategoryCode", "5"], ["Attractions", 3, "AttractionName", "Museum"],
        ["Attractions", 4, "AttractionCategoryCode", ""], ["Transport", 2, "TransportType", "10"]]
    assert set(found["rule"]) == {RULE} and set(found["severity"]) == {"error"}
    assert found["message"].iloc[0] == ("`AreaInfo/Attractions` was sunset on 2023-06-30 and the platform refuses "
                                        "it: use nothing: leave these rows out")


def test_nothing_is_refused_when_nothing_is_gone_or_the_sheets_are_empty() -> None:
    rows = parts(Attractions=[{"hotel_code": 1, "attraction_name": "Tower"}])
    assert sunset_content(rows, []).empty
    assert sunset_content(parts(Attractions=[]), [ATTRACTIONS]).empty
    assert sunset_content(rows, [TRANSPORT]).empty


@settings(max_examples=40, deadline=None)
@given(st.lists(st.fixed_dictionaries({}, optional={"category_code": st.integers(1, 99),
                                                    "attraction_name": st.text("abc ", min_size=1, max_size=8),
                                                    "distance": st.floats(0, 50)}), max_size=12))
def test_every_row_of_a_gone_sheet_gets_exactly_one_error_on_its_own_row(rows: list[dict]) -> None:
    found = sunset_content(parts(Attractions=[{"hotel_code": 7, **r} for r in rows]), [ATTRACTIONS])
    assert sorted(found["row"].tolist()) == list(range(2, 2 + len(rows)))
