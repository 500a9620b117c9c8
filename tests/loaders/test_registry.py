"""The property registry: sheets recognised by their headers, typed, with clear errors."""

from __future__ import annotations

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
    assert reg.room_rates[["active", "follows_price", "read_only"]].values.tolist() == [[True, False, False]]


def test_merge_prefers_the_newer_facts() -> None:
    a = Registry.from_frames(properties=_props(1, "EUR"))
    b = Registry.from_frames(properties=_props(1, "PLN"))
    assert a.merge(b).properties["currency_code"].tolist() == ["PLN"]


def _props(hotel: int, currency: str):
    import pandas as pd

    return pd.DataFrame({"hotel_code": [hotel], "currency_code": [currency]})


@pytest.mark.parametrize(("rows", "message"), [
    ([["Foo", "Bar"], [1, 2]], "is not a registry sheet"),
    ([["HotelCode", "CurrencyCode", "PricingModel"], [1, "EUR", "Dynamic"]],
     "row 2: pricing model `Dynamic` is not one of Standard, OBP, LOS."),
    ([["HotelCode", "InvTypeCode", "MaxAdultOccupancy"], [1, "A", "two"]],
     "row 2, column `MaxAdultOccupancy`: `two` is not a whole number."),
])
def test_bad_registry_sheets(write_csv, rows, message) -> None:
    path = write_csv(rows, name="reg.csv")
    with pytest.raises(LoadError, match=message.replace("(", r"\(").replace(")", r"\)")):
        read_registry(path)
