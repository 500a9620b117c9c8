"""A result's facts agree with their figures: a check of one property says "1 property", never "1 properties"."""

from __future__ import annotations

import pytest

from workbench.wording import fact


@pytest.mark.parametrize(("n", "expected"), [(0, ("0", "properties")), (1, ("1", "property")),
                                             (2, ("2", "properties")), (1183, ("1,183", "properties"))])
def test_a_fact_agrees_with_its_figure(n: int, expected: tuple[str, str]) -> None:
    assert fact(n, "property", "properties") == expected


def test_a_content_check_of_one_property_says_property() -> None:
    import pandas as pd

    from loaders import empty_issues
    from workbench.flows import ContentCheck

    prop = pd.DataFrame({"property": ["1000001"], "hotel_code": [1000001], "custom_id": [None], "hotel_name": ["Bela"],
                         "notif_type": ["Overlay"], "latitude": [38.7], "longitude": [-9.1]})
    facts = dict((label, figure) for figure, label in ContentCheck({"Property": prop}, empty_issues()).facts())
    assert facts["property"] == "1" and "properties" not in facts
    assert facts["part with rows"] == "1"
