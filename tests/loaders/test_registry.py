"""The property registry: sheets recognised by their headers, typed, with clear errors."""

from __future__ import annotations

import pandas as pd
import pytest

from loaders import LoadError, Registry, read_registry
from workbench.paths import SAMPLES


def test_sample_registry() -> None:
    reg = read_registry(SAMPLES / "registry.xlsx")
    assert reg.properties.set_index("hotel_code")["pricing_model"].to_dict()[1000003] == "OBP"
    assert reg.rooms.query("hotel_code == 1000003 and inv_type_code == '301'")["max_adult_occupancy"].item() == 3
    child = reg.room_rates.query("rate_plan_code == '5002'").iloc[0]
    assert child["parent_rate_plan_code"] == "5001" and bool(child["follows_price"])
    assert str(reg.room_rates["active"].dtype) == "boolean"


def test_csv_files_are_recognised_by_their_headers(write_csv) -> None:
    props = write_csv([["hotel_id", "currency", "pricing"], [7, "eur", "occupancy based"]], name="p.csv")
    rates = write_csv([["HotelCode", "InvTypeCode", "RatePlanCode"], [7, "A", "R"]], name="rr.csv")
    reg = read_registry([props, rates])
    assert reg.properties[["hotel_code", "currency_code", "pricing_model"]].values.tolist() == [[7, "EUR", "OBP"]]
    got = reg.room_rates.iloc[0]
    assert (got["active"], got["read_only"]) == (True, False)
    assert pd.isna(got["follows_price"]) and pd.isna(got["is_child_rate"])  # not given: not known


@pytest.mark.parametrize(("rows", "child", "follows"), [
    ([["HotelCode", "InvTypeCode", "RatePlanCode", "ParentRatePlanCode", "FollowsPrice"], [7, "A", "C", "R", ""]],
     True, None),
    ([["HotelCode", "InvTypeCode", "RatePlanCode", "ParentRatePlanCode", "FollowsPrice"], [7, "A", "C", "R", 0]],
     True, False),
    ([["HotelCode", "InvTypeCode", "RatePlanCode", "ParentRatePlanCode"], [7, "A", "R", ""]], False, None),
    ([["HotelCode", "InvTypeCode", "RatePlanCode", "IsChildRate"], [7, "A", "C", "yes"]], True, None),
])
def test_child_rates_and_their_follows_price(write_csv, rows, child, follows) -> None:
    got = read_registry(write_csv(rows, name="rr.csv")).room_rates.iloc[0]
    assert bool(got["is_child_rate"]) is child
    assert (pd.isna(got["follows_price"]) if follows is None else bool(got["follows_price"]) is follows)


@pytest.mark.parametrize(("name", "rows", "sheet"), [
    ("rates.csv", [["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "AmountAfterTax"], [1, "A", "R", "2027-01-01",
                                                                                          "100"]], "`rates.csv` has"),
    ("seasons.csv", [["HotelCode", "InvTypeCode", "RatePlanCode", "Start", "End", "price"], [1, "A", "R", "2027-01-01",
                                                                                           "2027-01-31", "9"]],
     "`seasons.csv` has"),
    ("wide.csv", [["HotelCode", "InvTypeCode", "RatePlanCode", "2027-01-01"], [1, "A", "R", "100"]], "`wide.csv` has"),
    ("notes.csv", [["Comment"], ["hello"]], "`notes.csv` is not a registry sheet"),
])
def test_a_file_that_is_not_a_registry_is_refused_naming_what_a_registry_holds(write_csv, name, rows, sheet) -> None:
    """A rates file given as --registry used to be read as a room-rates sheet and silently misused."""
    with pytest.raises(LoadError) as info:
        read_registry(write_csv(rows, name=name))
    message = str(info.value)
    assert message.startswith(f"`{name}` is not a registry: ") and sheet in message
    for expected in ("properties (`HotelCode`, `CurrencyCode`, `PricingModel`)", "rooms (", "room-rates (",
                     "`FollowsPrice`"):
        assert expected in message


def test_the_sample_rates_workbook_is_not_a_registry() -> None:
    with pytest.raises(LoadError, match=r"^`rates.xlsx` is not a registry: `rates.xlsx` sheet `Amsterdam` has rates "
                                        r"columns \(`Date`, `AmountAfterTax`\)"):
        read_registry(SAMPLES / "rates.xlsx")


def test_merge_keeps_what_the_platform_leaves_blank_and_the_refused_reads() -> None:
    platform = Registry.from_frames(
        room_rates=pd.DataFrame({"hotel_code": [1], "inv_type_code": ["A"], "rate_plan_code": ["C"],
                                 "is_child_rate": [True], "read_only": [False]}),
        refused=pd.DataFrame({"hotel_code": [9], "code": [None], "text": ["not enabled"], "ruid": ["x=="]}))
    sheet = Registry.from_frames(room_rates=pd.DataFrame({"hotel_code": [1], "inv_type_code": ["A"],
                                                          "rate_plan_code": ["C"], "parent_rate_plan_code": ["R"],
                                                          "follows_price": [False]}))
    merged = sheet.merge(platform)
    got = merged.room_rates.iloc[0]
    assert (bool(got["is_child_rate"]), got["parent_rate_plan_code"], bool(got["follows_price"])) == (True, "R", False)
    assert merged.refused[["hotel_code", "text"]].values.tolist() == [[9, "not enabled"]]


def test_merge_prefers_the_newer_facts() -> None:
    a = Registry.from_frames(properties=_props(1, "EUR"))
    b = Registry.from_frames(properties=_props(1, "PLN"))
    assert a.merge(b).properties["currency_code"].tolist() == ["PLN"]


def _props(hotel: int, currency: str):
    import pandas as pd

    return pd.DataFrame({"hotel_code": [hotel], "currency_code": [currency]})


@pytest.mark.parametrize(("rows", "message"), [
    ([["Foo", "Bar"], [1, 2]], "is not a registry: `reg.csv` is not a registry sheet"),
    ([["HotelCode", "CurrencyCode", "PricingModel"], [1, "EUR", "Dynamic"]],
     "row 2: pricing model `Dynamic` is not one of Standard, OBP, LOS."),
    ([["HotelCode", "InvTypeCode", "MaxAdultOccupancy"], [1, "A", "two"]],
     "row 2, column `MaxAdultOccupancy`: `two` is not a whole number."),
])
def test_bad_registry_sheets(write_csv, rows, message) -> None:
    path = write_csv(rows, name="reg.csv")
    with pytest.raises(LoadError, match=message.replace("(", r"\(").replace(")", r"\)")):
        read_registry(path)
