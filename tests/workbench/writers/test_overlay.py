"""plan_rooms (pure): the platform's read from the fixtures of the published shapes, a sheet as frames; a part is
planned only whole, amenities are keyed by (code, Configuration), and plan.parts shows each part replaced."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from expectations import bed_types
from loaders.schemas import AMENITIES_COLUMNS, ROOMS_COLUMNS, SUBROOMS_COLUMNS, empty_frame
from workbench.ota.descriptive_info import PlatformRooms, parse_descriptive_info
from workbench.ota.inv_notif import NEW, Amenity, RoomTypeMessage, SubRoom, build_inv_notif
from workbench.writers.overlay import plan_rooms
from workbench.writers.room_sent import AcceptedRoomRequest, sent_rooms, with_sent

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "descriptive_info"
PUBLISHED = parse_descriptive_info((FIXTURES / "published.xml").read_bytes())
E2 = parse_descriptive_info((FIXTURES / "spec_e2_all_fields.xml").read_bytes())
E1 = parse_descriptive_info((FIXTURES / "e1_parts_echoed.xml").read_bytes())


def frame(columns: dict[str, str], sheet: str, rows: list[dict]) -> pd.DataFrame:
    out = empty_frame(columns)
    for n, r in enumerate(rows, start=2):
        out.loc[len(out)] = {**{c: pd.NA for c in columns}, "remove": False, **r, "source": "s.xlsx", "sheet": sheet,
                             "row": n}
    return out.astype(columns)


def sheet(rooms: list[dict] = (), subrooms: list[dict] = (), amenities: list[dict] = ()):  # type: ignore[assignment]
    r = frame(ROOMS_COLUMNS, "Rooms", list(rooms)).drop(columns="remove", errors="ignore")
    s = frame(SUBROOMS_COLUMNS, "SubRooms", list(subrooms))
    a = frame(AMENITIES_COLUMNS, "Amenities", list(amenities))
    a["remove"] = a["remove"].fillna(False) | a["value"].eq(0).fillna(False)
    return r.astype(ROOMS_COLUMNS), s, a.astype(AMENITIES_COLUMNS)


def issues(plan) -> list[tuple]:
    return [(i.sheet, i.row, i.column, i.rule) for i in plan.issues.itertuples()]


def test_occupancy_with_unknown_adults_and_children_is_refused_until_stated_whole() -> None:
    """The published read gives @MaxOccupancy only: sending Occupancy would clear the adults and children."""
    plan = plan_rooms(*sheet([{"hotel_code": 1000001, "inv_code": "101", "max_occupancy": 3}]), PUBLISHED)
    assert issues(plan) == [("Rooms", 2, "MaxOccupancy", "part_incomplete")] and plan.requests == []
    assert "`MaxAdultOccupancy`, `MaxChildOccupancy`" in plan.issues["message"].iloc[0]
    whole = plan_rooms(*sheet([{"hotel_code": 1000001, "inv_code": "101", "max_occupancy": 3,
                                "max_adult_occupancy": 2, "max_child_occupancy": 1}]), PUBLISHED)
    (req,) = whole.requests
    assert req.message.occupancy == {"MaxOccupancy": 3, "MaxAdultOccupancy": 2, "MaxChildOccupancy": 1}
    assert whole.diff[["item", "before", "after", "change"]].values.tolist() == [
        ["MaxOccupancy", "2", "3", "changed"], ["MaxAdultOccupancy", "(not in the platform's read)", "2", "set"],
        ["MaxChildOccupancy", "(not in the platform's read)", "1", "set"]]
    assert whole.parts[["part", "replaces", "before", "after"]].values.tolist() == [
        ["Occupancy", "the whole part", "MaxOccupancy=2, MaxAdultOccupancy=?, MaxChildOccupancy=?",
         "MaxOccupancy=3, MaxAdultOccupancy=2, MaxChildOccupancy=1"]]


def test_room_part_keeps_the_type_and_needs_what_the_read_lacks() -> None:
    plan = plan_rooms(*sheet([{"hotel_code": 1000001, "inv_code": "101", "non_smoking": 0, "room_id": "11",
                               "size_measurement": 18, "size_measurement_unit": "sqm", "quantity": 20}]), E2)
    (req,) = plan.requests
    assert req.message.room == {"RoomID": "11", "SizeMeasurement": "18", "SizeMeasurementUnit": "sqm",
                                "NonSmoking": "0", "Quantity": "20"}  # RoomType left out: a room type keeps it
    assert plan.parts["after"].tolist() == [
        "RoomID=11, SizeMeasurement=18, SizeMeasurementUnit=sqm, NonSmoking=0, Quantity=20 (RoomType kept)"]


def test_a_changed_bed_of_one_arrangement_sends_every_bed_with_its_configuration() -> None:
    """Finding 5 (pure): keyed by (code, Configuration), the other sofa bed and both double beds are sent again."""
    plan = plan_rooms(*sheet(amenities=[{"hotel_code": 1000001, "inv_code": "101", "amenity_code": 102, "value": 3,
                                         "configuration": 2}]), E2)
    (req,) = plan.requests
    assert set(req.message.amenities) == {Amenity(33, 1, 1), Amenity(102, 1, 1), Amenity(33, 1, 2),
                                          Amenity(102, 3, 2)}  # beds only: air conditioning is left alone
    assert plan.diff[["item", "before", "after", "change"]].values.tolist() == [
        ["102", "2 (configuration 2)", "3 (configuration 2)", "changed"]]
    assert plan.parts["part"].tolist() == ["Amenities (beds)"]


def test_a_bed_without_configuration_stored_in_both_arrangements_is_ambiguous_but_removal_takes_both() -> None:
    plan = plan_rooms(*sheet(amenities=[{"hotel_code": 1000001, "inv_code": "101", "amenity_code": 33, "value": 2}]),
                      E2)
    assert issues(plan) == [("Amenities", 2, "Configuration", "configuration_ambiguous")] and not plan.requests
    removal = plan_rooms(*sheet(amenities=[{"hotel_code": 1000001, "inv_code": "101", "amenity_code": 33,
                                            "remove": True}]), E2)
    (req,) = removal.requests
    assert set(req.message.amenities) == {Amenity(102, 1, 1), Amenity(102, 2, 2), Amenity(33, 0, 1),
                                          Amenity(33, 0, 2)}


def test_without_a_read_only_removals_and_whole_parts_are_planned() -> None:
    add = plan_rooms(*sheet(amenities=[{"hotel_code": 1000001, "inv_code": "101", "amenity_code": 69}]), None)
    assert issues(add) == [("Amenities", 2, "AmenityCode", "part_incomplete")]
    assert "the platform's state was not read" in add.issues["message"].iloc[0]
    removal = plan_rooms(*sheet(amenities=[{"hotel_code": 1000001, "inv_code": "101", "amenity_code": 69,
                                            "remove": True}]), None)
    (req,) = removal.requests
    assert req.message.amenities == (Amenity(69, 0),) and removal.parts["replaces"].tolist() == [
        "only the amenities listed (Value 0 removes them)"]
    name = plan_rooms(*sheet([{"hotel_code": 1000001, "inv_code": "101", "room_name": "Blue Room", "active": 0}]),
                      None)
    (req,) = name.requests
    assert (req.message.name, req.message.status, req.parts) == ("Blue Room", "Deactivated",
                                                                 "Description, InvStatusType")


def test_subrooms_in_the_read_are_merged_by_key_and_sent_whole() -> None:
    plan = plan_rooms(*sheet(subrooms=[{"hotel_code": 1000004, "inv_code": "402", "subroom": "Bedroom 2",
                                        "max_guests": 3}]), E1)
    (req,) = plan.requests
    assert req.message.subrooms == (SubRoom("Bedroom", 2, None, 1, (Amenity(58, 1),)),
                                    SubRoom("Bedroom", 3, None, 0, (Amenity(113, 2),)),
                                    SubRoom("Living room", 1, 1, None, (Amenity(102, 1),)),
                                    SubRoom("Bathroom", None, 2, None, ()))
    assert plan.diff[["subroom", "item", "before", "after"]].values.tolist() == [["Bedroom 2", "MaxGuests", "2", "3"]]


def test_subrooms_not_in_the_read_need_the_whole_list() -> None:
    """Finding 4 (pure): one sub-room alone would replace all of them."""
    change = [{"hotel_code": 1000001, "inv_code": "102", "subroom": "Bedroom 1", "subroom_type": "Bedroom",
               "max_guests": 3}]
    plan = plan_rooms(*sheet(subrooms=change), PUBLISHED)
    assert issues(plan) == [("SubRooms", 2, "MaxGuests", "part_incomplete")] and not plan.requests
    assert "on a Rooms row for InvCode 102 (add one)" in plan.issues["message"].iloc[0]
    whole = plan_rooms(*sheet([{"hotel_code": 1000001, "inv_code": "102", "subroom_count": 1}], change,
                              [{"hotel_code": 1000001, "inv_code": "102", "subroom": "Bedroom 1", "amenity_code": 58,
                                "value": 1}]), PUBLISHED)
    (req,) = whole.requests
    assert req.message.subrooms == (SubRoom("Bedroom", 3, None, None, (Amenity(58, 1),)),)
    assert whole.parts[["part", "before"]].values.tolist() == [["SubRooms", "(not in the platform's read)"]]


def test_an_empty_sub_rooms_part_is_sent_only_when_asked_to_remove_them_all() -> None:
    """Issue 22: an empty `<SubRooms/>` replaces every sub-room and bed with nothing. A SubRoomCount with no
    sub-room listed is refused on its cell; 0, or a Remove on every stored sub-room, says "remove them all"."""
    room = {"hotel_code": 1000001, "inv_code": "102"}
    plan = plan_rooms(*sheet([{**room, "subroom_count": 2}]), PUBLISHED)
    assert issues(plan) == [("Rooms", 2, "SubRoomCount", "part_incomplete")] and not plan.requests
    assert "put 0 in `SubRoomCount` to remove them all" in plan.issues["message"].iloc[0]
    (req,) = plan_rooms(*sheet([{**room, "subroom_count": 0}]), PUBLISHED).requests
    assert req.message.subrooms == ()
    keys = ("Bedroom 1", "Bedroom 2", "Living room 1", "Bathroom 1")
    removed = plan_rooms(*sheet(subrooms=[{"hotel_code": 1000004, "inv_code": "402", "subroom": k, "remove": True}
                                          for k in keys]), E1)
    (req,) = removed.requests
    assert req.message.subrooms == ()
    some = plan_rooms(*sheet(subrooms=[{"hotel_code": 1000004, "inv_code": "402", "subroom": k, "remove": True}
                                       for k in keys[:3]]), E1)
    (req,) = some.requests
    assert req.message.subrooms == (SubRoom("Bathroom", None, 2, None, ()),)


def test_a_room_created_earlier_ignores_its_sub_room_count_with_its_sub_rooms() -> None:
    """Issue 22: the second push of a new apartment's workbook finds the room type by the mapping; its sub-rooms
    are not compared (the read has none), and its SubRoomCount must not plan an empty part either."""
    mapping = pd.DataFrame({"hotel_code": ["1000001"], "room_id": ["77"], "room_name": ["Loft"], "inv_code": ["102"],
                            "how": ["created"]})
    new = {"hotel_code": 1000001, "room_id": "77", "room_type": "Suite", "room_name": "Loft", "subroom_count": 1}
    plan = plan_rooms(*sheet([new], [{"hotel_code": 1000001, "room_id": "77", "subroom": "Bedroom 1",
                                      "subroom_type": "Bedroom", "max_guests": 2}],
                             [{"hotel_code": 1000001, "room_id": "77", "subroom": "Bedroom 1", "amenity_code": 58,
                               "value": 1}]), PUBLISHED, mapping=mapping)
    assert all(r.message.subrooms is None for r in plan.requests)
    assert [(i.rule, i.severity) for i in plan.issues.itertuples()] == [("not_compared", "warning")]
    assert "its sub-rooms and their beds cannot be compared" in plan.issues["message"].iloc[0]


FILLED = ([{"hotel_code": 1000001, "inv_code": "102", "room_id": "77", "room_type": "Suite", "room_name": "Junior Suite",
            "non_smoking": 1}],
          [{"hotel_code": 1000001, "inv_code": "102", "room_id": "77", "subroom": "Bedroom 1", "subroom_type": "Bedroom",
            "max_guests": 2}],
          [{"hotel_code": 1000001, "inv_code": "102", "room_id": "77", "subroom": "Bedroom 1", "amenity_code": 58,
            "value": 1}])
MAPPED = pd.DataFrame({"hotel_code": ["1000001"], "room_id": ["77"], "room_name": ["Loft"], "inv_code": ["102"],
                       "how": ["created"]})


def _created(**room: object) -> PlatformRooms:
    """What the push that created room type 102 sent, as the journal would give it back."""
    msg = RoomTypeMessage(NEW, None, name="Junior Suite", room={"RoomID": "77", "RoomType": "Suite", "NonSmoking": "1",
                                                       **{k: str(v) for k, v in room.items()}},
                          subrooms=(SubRoom("Bedroom", 2, None, None, (Amenity(58, 1),)),))
    return sent_rooms([AcceptedRoomRequest(1000001, "102", build_inv_notif(1000001, [msg]))])


def test_a_room_type_an_earlier_push_created_is_not_refused_for_what_the_read_lacks() -> None:
    """Issue 22: the filled copy of a new apartment's workbook, pushed again: the read has no RoomID, size or
    sub-rooms, so those parts cannot be compared. For a room type of the mapping they are not sent, with a
    warning saying what to fill in; for any other room type the push is refused, as before."""
    refused = plan_rooms(*sheet(*FILLED), PUBLISHED)
    assert {(i.rule, i.severity) for i in refused.issues.itertuples()} == {("part_incomplete", "error")}
    plan = plan_rooms(*sheet(*FILLED), PUBLISHED, mapping=MAPPED)
    assert plan.requests == [] and plan.ok
    assert issues(plan) == [("Rooms", 2, "RoomID", "part_not_compared"), ("SubRooms", 2, "MaxGuests",
                                                                          "part_not_compared")]
    assert "fill in `SizeMeasurement`, `SizeMeasurementUnit`, `Quantity` on this row too" in plan.issues["message"][0]
    assert "their number in `SubRoomCount` on its Rooms row" in plan.issues["message"][1]


def test_what_an_earlier_push_sent_fills_what_the_read_lacks_so_only_a_change_is_sent() -> None:
    """The lead's journal gives the requests the platform accepted (``sent_rooms``): the Room part and the
    sub-rooms are then known, an unchanged sheet sends nothing, and a change sends its part whole."""
    sent = _created(SizeMeasurement=50, SizeMeasurementUnit="sqm", Quantity=1)
    rooms, subs, amen = FILLED
    same = [{**rooms[0], "size_measurement": 50, "size_measurement_unit": "sqm", "quantity": 1, "subroom_count": 1}]
    unchanged = plan_rooms(*sheet(same, subs, amen), PUBLISHED, mapping=MAPPED, sent=sent)
    assert unchanged.requests == [] and unchanged.issues.empty
    assert plan_rooms(*sheet(*FILLED), PUBLISHED, sent=sent).requests == []  # blank cells keep what was sent
    changed = plan_rooms(*sheet(rooms, [{**subs[0], "max_guests": 3}], amen), PUBLISHED, sent=sent)
    (req,) = changed.requests
    assert req.message.subrooms == (SubRoom("Bedroom", 3, None, None, (Amenity(58, 1),)),) and req.message.room is None
    assert changed.diff[["subroom", "item", "before", "after"]].values.tolist() == [["Bedroom 1", "MaxGuests", "2", "3"]]
    assert changed.parts[["part", "before"]].values.tolist() == [["SubRooms", "Bedroom 1: Bedroom, MaxGuests=2, beds 58×1"]]


def test_a_fact_the_read_carries_wins_over_what_was_sent() -> None:
    sent = _created(NonSmoking=0)  # the read says NonSmoking 1 (E2 shape): the platform's word is kept
    state = with_sent(E2, sent)
    assert state.rooms.loc[state.rooms["inv_code"] == "101", "non_smoking"].tolist() == \
        E2.rooms.loc[E2.rooms["inv_code"] == "101", "non_smoking"].tolist()
    unknown = with_sent(PUBLISHED, sent).unknown_facts(1000001, "102")
    assert "subrooms" not in unknown and "room_id" not in unknown and "room_name" not in PUBLISHED.unknown_facts(
        1000001, "102")


def test_a_row_giving_an_amenity_another_row_removes_is_a_conflict_not_a_guess() -> None:
    """Found by the property below: one row removes amenity 58 (every arrangement), another gives 58 in
    configuration 1. The sheet says both; the plan names the row and sends nothing (it used to build a
    request listing 58/1 twice, which the request builder refused with a traceback)."""
    state = PlatformRooms(E2.rooms[E2.rooms["inv_code"] == "104"], E2.subrooms.iloc[:0],
                          frame(AMENITIES_COLUMNS, "x", [{"hotel_code": 1000001, "inv_code": "104", "amenity_code": 58,
                                                          "configuration": 1, "value": None}]), E2.unknown)
    rows = [{"hotel_code": 1000001, "inv_code": "104", "amenity_code": 58, "value": 0, "remove": True},
            {"hotel_code": 1000001, "inv_code": "104", "amenity_code": 58, "configuration": 1, "value": None,
             "remove": False}]
    plan = plan_rooms(*sheet(amenities=rows), state)
    assert issues(plan) == [("Amenities", 3, "AmenityCode", "amenity_conflict")] and not plan.requests
    assert "removed by another row of the sheet" in plan.issues["message"].iloc[0]


def test_a_sub_rooms_bed_removed_and_given_again_is_a_conflict_too() -> None:
    rows = [{"hotel_code": 1000004, "inv_code": "402", "subroom": "Bedroom 1", "amenity_code": 58, "value": 0,
             "remove": True},
            {"hotel_code": 1000004, "inv_code": "402", "subroom": "Bedroom 1", "amenity_code": 58, "value": 2,
             "remove": False}]
    plan = plan_rooms(*sheet(amenities=rows), E1)
    assert issues(plan) == [("Amenities", 3, "AmenityCode", "amenity_conflict")] and not plan.requests
    assert "sub-room `Bedroom 1`" in plan.issues["message"].iloc[0]
    given = plan_rooms(*sheet(amenities=rows[1:]), E1)  # the same row alone changes the bed
    assert given.ok and given.requests


def test_an_unchanged_read_plans_nothing() -> None:
    for state in (PUBLISHED, E2, E1):
        rooms = state.rooms.assign(active=pd.array([1] * len(state.rooms), dtype="Int64"))
        plan = plan_rooms(rooms, state.subrooms, state.amenities, state)
        assert plan.ok and not plan.requests and plan.diff.empty and plan.parts.empty


BEDS = sorted(bed_types())
CODES = [33, 58, 102, 113, 2, 5, 69, 123]
stored_amenities = st.lists(st.tuples(st.sampled_from(CODES), st.sampled_from([None, 1, 2]),
                                      st.one_of(st.none(), st.integers(1, 3))),
                            max_size=7, unique_by=lambda t: (t[0], t[1]))
edits = st.lists(st.tuples(st.sampled_from(CODES), st.sampled_from([None, 1, 2]),
                           st.one_of(st.none(), st.integers(0, 3))), min_size=1, max_size=4,
                 unique_by=lambda t: (t[0], t[1]))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(stored=stored_amenities, edited=edits)
def test_every_kind_sent_lists_every_stored_amenity_of_that_kind_not_removed(stored, edited) -> None:
    """An amenity part is never partial: for any stored list (a code in one or both arrangements) and any rows
    of the sheet, each kind of amenity the request carries (beds, or the others) holds every stored (code,
    Configuration) of that kind that the sheet did not remove, and no row's change is lost or guessed."""
    state = PlatformRooms(
        E2.rooms[E2.rooms["inv_code"] == "104"],
        E2.subrooms.iloc[:0],
        frame(AMENITIES_COLUMNS, "x", [{"hotel_code": 1000001, "inv_code": "104", "amenity_code": c,
                                        "configuration": f, "value": v} for c, f, v in stored]),
        E2.unknown)
    rows = [{"hotel_code": 1000001, "inv_code": "104", "amenity_code": c, "configuration": f, "value": v,
             "remove": v == 0} for c, f, v in edited]
    plan = plan_rooms(*sheet(amenities=rows), state)
    keys = {(c, f) for c, f, _ in stored}
    ambiguous = [(c, f) for c, f, v in edited if f is None and v != 0 and len({k for k in keys if k[0] == c}) > 1]
    if ambiguous:
        assert "configuration_ambiguous" in set(plan.issues["rule"]) and not plan.requests
        return
    removed = {k for c, f, v in edited if v == 0 for k in keys if k[0] == c and (f is None or k[1] == f)}

    def resolved(c: int, f: int | None) -> tuple[int, int | None]:
        return next((k for k in keys if k[0] == c), (c, None)) if f is None else (c, f)
    if {resolved(c, f) for c, f, v in edited if v != 0} & removed:  # one row removes what another gives
        assert "amenity_conflict" in set(plan.issues["rule"]) and not plan.requests
        return
    assert plan.ok
    for req in plan.requests:
        sent = {a.key: a.value for a in req.message.amenities or ()}
        kinds = {c in BEDS for c, _ in sent}
        for key in keys - removed:
            if (key[0] in BEDS) in kinds:
                assert key in sent and sent[key] != 0, (key, sent)
        for key in removed:
            assert sent.get(key) == 0
    values = {(c, f): v for c, f, v in stored}
    unchanged = not removed and all(resolved(c, f) in keys and v in (None, values[resolved(c, f)])
                                    for c, f, v in edited if v != 0)
    assert (plan.requests == []) == unchanged


@pytest.mark.parametrize("read", [PUBLISHED, E2], ids=["published", "e2"])
def test_active_zero_is_a_status_change_of_a_listed_room(read) -> None:
    plan = plan_rooms(*sheet([{"hotel_code": 1000001, "inv_code": "101", "active": 0}]), read)
    (req,) = plan.requests
    assert (req.message.status, req.message.amenities, req.message.room) == ("Deactivated", None, None)
    assert plan.parts[["part", "before", "after"]].values.tolist() == [["InvStatusType", "Active", "Deactivated"]]
