"""``roomrates`` answers read in every shape the platform is known to send (tests/fixtures/roomrates/)."""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from workbench.ota.response import parse_response
from workbench.ota.roomrates import parse_roomrates

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "roomrates"
PLATFORM_SHAPES = ["published.xml", "elements.xml", "namespaced.xml"]

#: What every platform shape says (room, rate) -> (is_child_rate, read_only); nothing about FollowsPrice.
LINKS = {("101", "5001"): (0, 0), ("101", "5002"): (1, 0), ("102", "5001"): (0, 0), ("102", "5005"): (0, 1)}


@pytest.mark.parametrize("name", sorted(p.name for p in FIXTURES.glob("*.xml")))
def test_every_fixture_says_where_its_shape_is_documented(name: str) -> None:
    text = (FIXTURES / name).read_text(encoding="utf-8")
    assert text.startswith("<!-- Shape: "), "each fixture opens with a comment naming its shape and source"
    head = text[: text.index("-->")]
    assert "E5" in head and '"not shown beyond hotel_id"' in head
    assert "DESIGN.md" in head or "NOT a platform shape" in head


@pytest.mark.parametrize("name", PLATFORM_SHAPES)
def test_platform_shapes_give_rooms_rates_and_flags_and_nothing_invented(name: str) -> None:
    body = (FIXTURES / name).read_bytes()
    assert parse_response(body).read_ok() and parse_response(body).ruid
    prop, rooms, links = parse_roomrates(body, 1000001)
    assert prop == {"hotel_code": 1000001, "hotel_name": "Hotel Aurora Amsterdam", "currency_code": None,
                    "pricing_model": None}
    assert [(r["inv_type_code"], r["room_name"], r["max_child_occupancy"]) for r in rooms] == [
        ("101", "Standard Double Room", 1), ("102", "Junior Suite", 2)]
    assert all(r["max_adult_occupancy"] is None and r["max_occupancy"] is None for r in rooms)
    got = {(x["inv_type_code"], x["rate_plan_code"]): (x["is_child_rate"], x["read_only"]) for x in links}
    assert got == LINKS
    assert all(x["follows_price"] is None and x["parent_rate_plan_code"] is None for x in links)
    assert all(x["active"] == 1 and x["hotel_code"] == 1000001 for x in links)
    assert [x["policy_id"] for x in links] == ["152", "153", "152", "152"]
    assert [x["max_persons"] for x in links] == [3, 3, 5, 5]


def test_attributes_beyond_the_platforms_are_read_when_an_answer_carries_them() -> None:
    prop, rooms, links = parse_roomrates((FIXTURES / "extended.xml").read_bytes())
    assert (prop["currency_code"], prop["pricing_model"]) == ("EUR", "Standard")
    assert [(r["max_adult_occupancy"], r["max_occupancy"]) for r in rooms] == [(2, 3), (4, 5)]
    child = next(x for x in links if x["rate_plan_code"] == "5002")
    assert (child["is_child_rate"], child["parent_rate_plan_code"], child["follows_price"]) == (1, "5001", 1)


def test_an_empty_answer_is_a_property_without_rooms() -> None:
    body = (FIXTURES / "empty.xml").read_bytes()
    assert parse_response(body).read_ok()
    prop, rooms, links = parse_roomrates(body, 1000009)
    assert prop["hotel_code"] == 1000009 and rooms == [] and links == []


@pytest.mark.parametrize(("value", "flag"), [("1", 1), ("true", 1), ("Yes", 1), ("0", 0), ("false", 0), ("", 0)])
def test_flags_in_any_spelling(value: str, flag: int) -> None:
    body = (f'<rooms><room id="1" hotel_id="7"><rates><rate id="2" is_child_rate="{value}" readonly="{value}"/>'
            "</rates></room></rooms>").encode()
    _, _, (link,) = parse_roomrates(body)
    assert (link["is_child_rate"], link["read_only"]) == (flag, flag)


def test_a_rate_is_read_once_and_under_its_own_room() -> None:
    tree = etree.parse(str(FIXTURES / "published.xml"))
    assert len(tree.getroot().findall(".//rate")) == len(parse_roomrates((FIXTURES / "published.xml").read_bytes())[2])


def test_an_answer_that_is_not_rooms_is_refused() -> None:
    with pytest.raises(ValueError, match="expected a <rooms> answer, got <error>"):
        parse_roomrates(b"<error>reading room rates hasn't been enabled for hotel 9</error>")
