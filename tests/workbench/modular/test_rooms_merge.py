"""Units that exist updated from the rooms workbook (issue 25): every part built from the read merged with the
analyst's edits, since the Rooms API replaces a unit's rooms whole and the Facilities API replaces what a PUT
names (bathrooms whole). The read is the hand-written fixtures (tests/fixtures/modular, SOURCE.md)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.workbench.modular.conftest import data, fixture_meta
from workbench.modular.rooms_merge import RoomsUpdate, update_units
from workbench.modular.rooms_read import UnitAnswers, rooms_from_answers

HOTEL = 7
APARTMENT, DOUBLE = 1048000101, 1048000102
LIVING_SOFA = {"type": "LIVING_ROOM_SUBROOM", "bed_configurations": [
    {"beds": [{"bed_type_id": 5, "bed_count": 1}], "is_default_configuration": True}]}
HOTEL_BATHS = {"hotel_bathroom_details": {"private_bathroom_state": "PRESENT", "shared_bathroom_state": "MISSING",
                                          "number_of_bathrooms": 1,
                                          "private_bathroom_details": {"type": "EXTERNAL_BATHROOM"}}}


def answers(units: list[dict] | None = None, facilities: dict | None = None, baths: dict | None = None) -> UnitAnswers:
    """The fixtures' two units, the apartment with a sofa bed in its living room, the fixtures' room facilities
    (air conditioning, a cot with its crib details) and a private bathroom."""
    if units is None:
        units = copy.deepcopy(data("rooms", "units_read_answer.json"))
        units[0]["configuration"]["rooms"][1] = copy.deepcopy(LIVING_SOFA)
    return UnitAnswers(HOTEL, units,
                       facilities if facilities is not None else {APARTMENT: data("facilities", "room_read_answer.json"),
                                                                  DOUBLE: []},
                       baths if baths is not None else {APARTMENT: copy.deepcopy(HOTEL_BATHS), DOUBLE: {}})


def fetched(a: UnitAnswers) -> dict[str, pd.DataFrame]:
    """The sheets ``fetch rooms --api modular`` gives for the read (a copy an analyst edits)."""
    return {k: f.copy() for k, f in rooms_from_answers([a], fixture_meta()).items()}


def merge(sheets: dict[str, pd.DataFrame], a: UnitAnswers, **kw: Any) -> RoomsUpdate:
    return update_units(sheets["Rooms"], sheets["SubRooms"], sheets["Amenities"], {HOTEL: a}, fixture_meta(), **kw)


def bodies(update: RoomsUpdate) -> list[tuple[str, dict, Any]]:
    return [(r.operation, dict(r.ids), r.payload) for r in update.requests]


def test_the_fetched_workbook_pushed_unchanged_sends_nothing() -> None:
    a = answers()
    update = merge(fetched(a), a)
    assert update.requests == () and update.issues.empty and update.changes.empty


def test_an_edit_of_a_bedrooms_beds_keeps_the_living_rooms() -> None:
    a = answers()
    sheets = fetched(a)
    amen = sheets["Amenities"]
    amen.loc[(amen["subroom"] == "Bedroom 1").fillna(False), "value"] = 2
    (op, ids, body), = bodies(merge(sheets, a))
    assert (op, ids) == ("unit.update", {"unit_id": str(APARTMENT)})
    assert body == {"configuration": {"unit_type_id": 1, "rooms": [
        {"type": "BEDROOM_SUBROOM", "bed_configurations": [{"beds": [{"bed_type_id": 3, "bed_count": 2}],
                                                            "is_default_configuration": True}]},
        LIVING_SOFA]}}


def test_a_bed_row_alone_changes_that_bed_and_keeps_every_other_room_and_field() -> None:
    """An analyst's own workbook names only what changes: one bed of one room, no SubRooms rows."""
    a = answers()
    sheets = fetched(a)
    sheets = {"Rooms": sheets["Rooms"].iloc[0:0], "SubRooms": sheets["SubRooms"].iloc[0:0],
              "Amenities": sheets["Amenities"].iloc[[0]].assign(amenity_code=113, value=2)}  # two twin beds
    (_, _, body), = bodies(merge(sheets, a))
    assert body["configuration"]["rooms"] == [
        {"type": "BEDROOM_SUBROOM", "bed_configurations": [{"beds": [{"bed_type_id": 3, "bed_count": 1},
                                                                     {"bed_type_id": 1, "bed_count": 2}],
                                                            "is_default_configuration": True}]},
        LIVING_SOFA]
    assert set(body) == {"configuration"}


def test_a_room_facility_edit_keeps_the_others_with_their_instances() -> None:
    a = answers()
    sheets = fetched(a)
    amen = sheets["Amenities"]
    extra = amen[amen["amenity_code"] == 2].assign(amenity_code=92)  # a safe (38) beside the air conditioning
    sheets["Amenities"] = pd.concat([sheets["Amenities"], extra], ignore_index=True)
    (op, ids, body), = bodies(merge(sheets, a))
    assert (op, ids) == ("room_facilities.write", {"room_id": str(APARTMENT)})
    assert body == [{"room_facility_id": 11, "state": "PRESENT", "room_facility_instances": []},
                    {"room_facility_id": 175, "state": "PRESENT",
                     "room_facility_instances": [{"crib_details": {"is_foldable": True, "is_standalone": False}}]},
                    {"room_facility_id": 38, "state": "PRESENT"}]


def test_a_room_facility_removed_is_sent_missing_without_its_instances() -> None:
    a = answers()
    sheets = fetched(a)
    amen = sheets["Amenities"]
    amen.loc[amen["amenity_code"] == 166, ["value", "remove"]] = [0, True]
    (_, _, body), = bodies(merge(sheets, a))
    assert body[1] == {"room_facility_id": 175, "state": "MISSING"} and body[0]["room_facility_id"] == 11


def test_the_number_of_units_and_one_occupancy_figure_send_what_changes_objects_whole() -> None:
    a = answers()
    sheets = fetched(a)
    sheets["Rooms"].loc[0, ["quantity", "max_infants"]] = [6, 2]
    (_, _, body), = bodies(merge(sheets, a))
    assert body == {"number_of_units": 6, "occupancy_details": {"max_guests": 6, "max_adults": 5, "max_children": 3,
                                                                "max_infants": 2, "max_infants_on_top": 1}}
    changes = merge(sheets, a).changes
    assert list(zip(changes["item"], changes["before"], changes["after"], changes["column"], strict=True)) == [
        ("number of units", "4", "6", "Quantity"), ("max infants", "1", "2", "MaxInfants")]


@pytest.mark.parametrize(("count", "expected"), [
    (2, {"hotel_bathroom_details": {"private_bathroom_state": "PRESENT", "shared_bathroom_state": "MISSING",
                                    "number_of_bathrooms": 2, "private_bathroom_details": {"type": "EXTERNAL_BATHROOM"}}}),
    (0, {"hotel_bathroom_details": {"private_bathroom_state": "MISSING", "shared_bathroom_state": "MISSING",
                                    "number_of_bathrooms": 0}}),
])
def test_bathrooms_are_replaced_whole_from_the_read(count: int, expected: dict) -> None:
    a = answers()
    sheets = fetched(a)
    subs = sheets["SubRooms"]
    subs.loc[subs["subroom_type"] == "Bathroom", "number"] = count
    (op, _, body), = bodies(merge(sheets, a))
    assert (op, body) == ("bathrooms.write", expected)


def test_homes_bathrooms_keep_their_ids_and_details() -> None:
    homes = data("facilities", "bathrooms_read_answer.json")
    a = answers(baths={APARTMENT: homes, DOUBLE: {}})
    sheets = fetched(a)
    assert merge(sheets, a).requests == ()
    subs = sheets["SubRooms"]
    subs.loc[subs["subroom_type"] == "Bathroom", "number"] = 3
    (_, _, body), = bodies(merge(sheets, a))
    assert body["property_bathroom_details"]["bathrooms"] == [*homes["property_bathroom_details"]["bathrooms"],
                                                              {"bathroom_type": "PRIVATE"}]


def test_a_bathroom_added_takes_the_first_location_the_meta_allows_its_unit_type() -> None:
    a = answers(baths={APARTMENT: copy.deepcopy(HOTEL_BATHS), DOUBLE: {"property_bathroom_details": {"bathrooms": []}}})
    sheets = fetched(a)
    subs = sheets["SubRooms"]
    subs.loc[(subs["inv_code"] == str(DOUBLE)) & (subs["subroom_type"] == "Bathroom"), "number"] = 1  # was 0
    (op, ids, body), = bodies(merge(sheets, a))
    assert (op, ids) == ("bathrooms.write", {"room_id": str(DOUBLE)})
    assert body == {"property_bathroom_details": {"bathrooms": [{"bathroom_type": "PRIVATE",
                                                                 "bathroom_location": "ENSUITE"}]}}


def test_a_single_room_units_alternative_configuration_is_merged_and_the_default_kept() -> None:
    a = answers()
    sheets = fetched(a)
    amen = sheets["Amenities"]
    amen.loc[(amen["inv_code"] == str(DOUBLE)) & (amen["configuration"] == 2), "value"] = 3
    (_, _, body), = bodies(merge(sheets, a))
    assert body == {"configuration": {"unit_type_id": 9, "rooms": [{"type": "GUEST_ROOM", "bed_configurations": [
        {"beds": [{"bed_type_id": 3, "bed_count": 1}], "is_default_configuration": True},
        {"beds": [{"bed_type_id": 1, "bed_count": 3}], "is_default_configuration": False}]}]}}


def _issue(update: RoomsUpdate) -> tuple:
    (i,) = update.issues.itertuples()
    return i.sheet, i.column, i.rule


def test_what_the_read_cannot_give_whole_is_refused_on_the_edited_cell() -> None:
    units = copy.deepcopy(data("rooms", "units_read_answer.json"))
    configs = units[1]["configuration"]["rooms"][0]["bed_configurations"]
    configs.append({"beds": [{"bed_type_id": 4, "bed_count": 1}], "is_default_configuration": False})
    a = answers(units)
    sheets = fetched(a)
    amen = sheets["Amenities"]
    amen.loc[(amen["inv_code"] == str(DOUBLE)) & (amen["amenity_code"] == 203), "value"] = 3
    update = merge(sheets, a)
    assert update.requests == () and _issue(update) == ("Amenities", "AmenityCode", "unit_part_not_whole")


def test_an_inactive_bed_type_elsewhere_in_the_unit_refuses_sending_its_rooms() -> None:
    units = copy.deepcopy(data("rooms", "units_read_answer.json"))
    units[0]["configuration"]["rooms"][1] = {"type": "LIVING_ROOM_SUBROOM", "bed_configurations": [
        {"beds": [{"bed_type_id": 7, "bed_count": 1}], "is_default_configuration": True}]}  # a futon (inactive)
    a = answers(units)
    sheets = fetched(a)
    amen = sheets["Amenities"]
    amen.loc[(amen["subroom"] == "Bedroom 1").fillna(False), "value"] = 2
    update = merge(sheets, a)
    assert update.requests == ()
    assert _issue(update) == ("Amenities", "AmenityCode", "unit_part_not_whole")
    assert "bed type 7 (Futon) is inactive" in update.issues["message"].iloc[0]


@pytest.mark.parametrize(("edit", "expected"), [
    (lambda s: s["Rooms"].__setitem__("inv_code", s["Rooms"]["inv_code"].replace(str(DOUBLE), "999")),
     ("Rooms", "InvCode", "unit_not_found")),
    (lambda s: s["Rooms"].__setitem__("room_type", s["Rooms"]["room_type"].replace("9", "Igloo")),
     ("Rooms", "RoomType", "code_not_in_meta")),
    (lambda s: s["Amenities"].loc[s["Amenities"]["subroom"].notna(), "subroom"].__setitem__(
        slice(None), "Bedroom 9") or s["Amenities"].__setitem__(
        "subroom", s["Amenities"]["subroom"].replace("Bedroom 1", "Bedroom 9")), ("Amenities", "SubRoom",
                                                                                 "unknown_subroom")),
])
def test_a_row_naming_what_the_unit_has_not_is_an_issue_on_its_cell(edit: Any, expected: tuple) -> None:
    a = answers()
    sheets = fetched(a)
    edit(sheets)
    update = merge(sheets, a)
    assert _issue(update) == expected


def test_a_bedroom_for_a_single_room_unit_is_a_layout_error() -> None:
    a = answers()
    sheets = fetched(a)
    row = sheets["SubRooms"].iloc[[0]].assign(inv_code=str(DOUBLE), subroom="Bedroom 1")
    sheets["SubRooms"] = pd.concat([sheets["SubRooms"], row], ignore_index=True)
    update = merge(sheets, a)
    assert _issue(update) == ("SubRooms", "SubRoom", "unit_rooms_layout")


def test_a_unit_type_no_bcrt_name_matches_reads_back_by_its_own_name_and_sends_nothing() -> None:
    units = copy.deepcopy(data("rooms", "units_read_answer.json"))
    meta = fixture_meta()
    assert meta.rooms is not None
    meta.rooms.unit_types.append(meta.rooms.unit_types[3].model_copy(update={"unit_type_id": 77,
                                                                             "unit_type_name": "Garden Pod"}))
    units[1]["configuration"]["unit_type_id"] = 77
    a = answers(units)
    sheets = {k: f.copy() for k, f in rooms_from_answers([a], meta).items()}
    assert sheets["Rooms"]["room_type"].tolist() == ["1", "Garden Pod"]
    update = update_units(sheets["Rooms"], sheets["SubRooms"], sheets["Amenities"], {HOTEL: a}, meta)
    assert update.requests == () and update.issues.empty


def test_rooms_removed_and_added_by_their_keys() -> None:
    a = answers()
    sheets = fetched(a)
    subs = sheets["SubRooms"]
    subs.loc[subs["subroom"] == "Living room 1", "remove"] = True
    new = subs.iloc[[0]].assign(subroom="Bedroom 2")
    sheets["SubRooms"] = pd.concat([subs, new], ignore_index=True)
    bed = sheets["Amenities"].iloc[[0]].assign(subroom="Bedroom 2", amenity_code=58, value=1)  # a king bed: extra-large double (6)
    sheets["Amenities"] = pd.concat([sheets["Amenities"], bed], ignore_index=True)
    (_, _, body), = bodies(merge(sheets, a))
    assert [(r["type"], [b["beds"] for b in r.get("bed_configurations", [])]) for r in body["configuration"]["rooms"]
            ] == [("BEDROOM_SUBROOM", [[{"bed_type_id": 3, "bed_count": 1}]]),
                  ("BEDROOM_SUBROOM", [[{"bed_type_id": 6, "bed_count": 1}]])]


BEDS = st.lists(st.tuples(st.sampled_from([1, 3, 4, 5, 6]), st.integers(1, 4)), min_size=1, max_size=3,
                unique_by=lambda b: b[0])


def _config(beds: list[tuple[int, int]], default: bool) -> dict:
    return {"beds": [{"bed_type_id": t, "bed_count": n} for t, n in beds], "is_default_configuration": default}


@st.composite
def units(draw: st.DrawFn) -> list[dict]:
    out = []
    for i in range(draw(st.integers(1, 4))):
        shape = draw(st.sampled_from(["multi", "single", "no rooms"]))
        if shape == "no rooms":  # a room type the InvNotif path made, read with no rooms
            configuration = {"unit_type_id": draw(st.sampled_from([1, 9])), "rooms": []}
        elif shape == "multi":
            rooms = [{"type": draw(st.sampled_from(["BEDROOM_SUBROOM", "LIVING_ROOM_SUBROOM"])),
                      **({"bed_configurations": [_config(draw(BEDS), True)]} if draw(st.booleans()) else {})}
                     for _ in range(draw(st.integers(1, 4)))]
            configuration = {"unit_type_id": 1, "rooms": rooms}
        else:
            configs = [_config(draw(BEDS), True)] + ([_config(draw(BEDS), False)] if draw(st.booleans()) else [])
            configuration = {"unit_type_id": draw(st.sampled_from([7, 8, 9, 10])),
                             "rooms": [{"type": "GUEST_ROOM", "bed_configurations": configs}]}
        name = draw(st.one_of(st.none(), st.text("abc xyz", min_size=1, max_size=12).map(str.strip).filter(bool)))
        out.append({"unit_id": 1000 + i, "unit_name_id": draw(st.sampled_from([69, 255, 865])),
                    "number_of_units": draw(st.integers(0, 32000)), "configuration": configuration,
                    "smoking_policy": draw(st.sampled_from(["SMOKING", "NONSMOKING", "SMOKING_AND_NONSMOKING"])),
                    "occupancy_details": {"max_guests": draw(st.integers(1, 50)), "max_adults": draw(st.integers(1, 50)),
                                          "max_children": draw(st.integers(0, 49)),
                                          "max_infants": draw(st.integers(0, 49)),
                                          "max_infants_on_top": draw(st.integers(0, 49))},
                    "size": {"value": draw(st.floats(1, 9999, allow_nan=False).map(lambda v: round(v, 2))),
                             "unit": draw(st.sampled_from(["SQM", "SQFT"]))},
                    "extra_beds_configuration": {"extra_beds": draw(st.integers(0, 100)),
                                                 "cribs": draw(st.integers(0, 100)),
                                                 "is_crib_and_extra_bed_allowed": draw(st.booleans())},
                    **({"partner_reference_name": name} if name else {})})
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(units(), st.lists(st.tuples(st.sampled_from([11, 38, 175]), st.sampled_from(["PRESENT", "MISSING"])),
                         unique_by=lambda f: f[0], max_size=3), st.integers(0, 5))
def test_any_read_fetched_and_pushed_unchanged_sends_nothing(read: list[dict], facilities: list, baths: int) -> None:
    """For every set of units, facilities and bathrooms: the sheets the read gives, merged with the read, change
    nothing (no request, no issue)."""
    first = read[0]["unit_id"]
    a = UnitAnswers(HOTEL, read, {first: [{"room_facility_id": f, "state": s} for f, s in facilities]},
                    {first: {"hotel_bathroom_details": {"private_bathroom_state": "PRESENT" if baths else "MISSING",
                                                        "shared_bathroom_state": "MISSING",
                                                        "number_of_bathrooms": baths}}})
    update = merge(fetched(a), a)
    assert update.issues.empty, update.issues["message"].tolist()
    assert update.requests == (), json.dumps([r.payload for r in update.requests])[:300]
