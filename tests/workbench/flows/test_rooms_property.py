"""The property of issue 10 for room types, against the sandbox answering as the platform publishes (in-process):
for random stored room types (apartments with sub-rooms and their beds, doubles with beds in both arrangements,
non-bed amenities) and random analyst edits of a fetched workbook, a push never removes or changes a stored fact
the analyst did not change (the sandbox's own tables, /_sandbox/*.csv, before and after), and every change the
analyst made is applied, or refused with an issue on the edited cell.

Each example's sheet keeps to the E1 rules by construction, so the workbook is read with ``loaders.read_rooms``
and not put through the Great Expectations suites (seconds per run; they are tested in tests/expectations and by
the regression tests in test_rooms_safety.py, which use ``check_rooms``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from lxml import etree

from loaders import read_rooms
from workbench.errors import BlockedByErrors
from workbench.flows.rooms import RoomsCheck, push_rooms
from workbench.ota.ns import OTA_NS
from workbench.sandbox.testing import inv_notif_request, product

HOTEL = 1000005
NON_BEDS = ["2", "13", "50", "69", "92", "123"]
BEDS = ["33", "58", "86", "113", "203"]


@st.composite
def occupancy(draw, payable: int | None = None) -> dict[str, int]:
    children = draw(st.integers(payable or 0, 2))
    adults = draw(st.integers(1, 4))
    return {"MaxOccupancy": draw(st.integers(children + 1, adults + children)), "MaxAdultOccupancy": adults,
            "MaxChildOccupancy": children}


@st.composite
def quantities(draw) -> dict[str, int]:
    extra = draw(st.integers(0, 2))
    return {"MaximumAdditionalGuests": extra, "MaxCribs": draw(st.integers(0, extra)),
            "MaxRollaways": draw(st.integers(0, extra))}


def bed(code: str, n: int, conf: int | None = None) -> dict:
    return {"AmenityCode": code, "Value": n, **({"Configuration": conf} if conf is not None else {})}


@st.composite
def stored_room(draw, n: int, apartment: bool) -> dict:
    """A New product for the sandbox: an apartment with sub-rooms, or a double with both bed arrangements."""
    occ = draw(occupancy())
    payable = draw(st.integers(0, occ["MaxChildOccupancy"]))
    room = {"RoomID": 7000 + n, "RoomType": "Apartment" if apartment else "9",
            "SizeMeasurement": draw(st.integers(15, 90)), "SizeMeasurementUnit": draw(st.sampled_from(["sqm", "sqft"])),
            "NonSmoking": draw(st.sampled_from([0, 1, 2])), "Quantity": draw(st.integers(1, 9))}
    amenities = [{"AmenityCode": c} for c in draw(st.lists(st.sampled_from(NON_BEDS), unique=True, max_size=3))]
    subs = None
    if apartment:
        amenities.append({"AmenityCode": "59"})
        subs = []
        for kind in draw(st.lists(st.sampled_from(["Bedroom", "Living room", "Bathroom"]), min_size=1, max_size=3)):
            if kind == "Bedroom":
                beds = draw(st.lists(st.sampled_from(BEDS), min_size=1, max_size=2, unique=True))
                subs.append({"attrs": {"RoomType": kind, "MaxGuests": draw(st.integers(1, 3)),
                                       "PrivateBathroom": draw(st.sampled_from([0, 1]))},
                             "amenities": [bed(b, draw(st.integers(1, 2))) for b in beds]})
            elif kind == "Living room":
                sofa = draw(st.booleans())
                subs.append({"attrs": {"RoomType": kind, "MaxGuests": draw(st.integers(0, 2)), "Number": 1},
                             "amenities": [bed("102", 1)] if sofa else []})
            else:
                subs.append({"attrs": {"RoomType": kind, "Number": draw(st.integers(1, 2))}})
    else:
        standard = draw(st.lists(st.sampled_from(BEDS + ["102"]), min_size=1, max_size=2, unique=True))
        alternative = draw(st.lists(st.sampled_from(BEDS + ["102"]), min_size=1, max_size=2, unique=True))
        if draw(st.booleans()):  # the same bed in both arrangements (finding 5)
            alternative = list(dict.fromkeys([standard[0], *alternative]))
        amenities += [bed(b, draw(st.integers(1, 2)), 1) for b in standard]
        amenities += [bed(b, draw(st.integers(1, 2)), 2) for b in alternative]
    return product("New", room=room, name=f"Room {n} {draw(st.sampled_from(['Garden', 'Sea', 'Loft']))}",
                   occupancy=occ, quantities=draw(quantities()), amenities=amenities, child_payable=payable,
                   sub_rooms=subs)


@dataclass
class Expect:
    """What the analyst changed: the expected stored tables and the cells that must be refused."""

    rooms: dict[str, dict[str, str]]
    subrooms: list[dict[str, str]]
    amenities: Counter
    refused: list[tuple[str, int, str]] = field(default_factory=list)  # (sheet, row, column)


def amenity_key(a: dict[str, str]) -> tuple:
    return a["HotelCode"], a["InvCode"], a["SubRoom"], a["AmenityCode"], a["Quantity"], a["Configuration"]


def created(box, body: bytes) -> list[str]:
    r = box.inv_notif(body)
    root = etree.fromstring(r.content.split(b"<!--")[0].split(b"?>", 1)[1])
    refs = [x.get("ResponseInvCode") for x in root.iterfind(f".//{{{OTA_NS}}}InventoryCrossRef")]
    assert refs, r.text
    return refs


KINDS = ["amenity_value", "amenity_add", "amenity_remove", "occupancy", "quantities", "rename", "room_partial",
         "room_whole", "deactivate", "subroom_partial", "subroom_whole"]


def edit(data, p, sheets, path, inv: str, kind: str, expect: Expect, used: set) -> None:
    """Make one edit of room ``inv`` in the fetched workbook and record what it must do."""
    tables = p.tables()
    subs = [s for s in tables["subrooms"] if s["InvCode"] == inv]
    own = [a for a in tables["amenities"] if a["InvCode"] == inv and a["SubRoom"] == ""]
    family = kind.split("_")[0] if kind.startswith(("amenity", "subroom")) else kind
    if (inv, family) in used or ({"room", "room_partial", "room_whole"} & {f for i, f in used if i == inv}
                                 and family.startswith("room")):
        return
    used.add((inv, family))
    event(kind)
    n = sheets.row_of(path, "Rooms", InvCode=inv)
    stored = expect.rooms[inv]
    if kind in ("amenity_value", "amenity_remove") and own:
        a = data.draw(st.sampled_from(own), label="amenity")
        conf = int(a["Configuration"]) if a["Configuration"] else None
        r = sheets.row_of(path, "Amenities", InvCode=inv, AmenityCode=int(a["AmenityCode"]), Configuration=conf)
        key = amenity_key(a)
        if kind == "amenity_remove":
            sheets.set_cells(path, "Amenities", r, {"Value": "remove"})
            expect.amenities[key] -= 1
        else:
            v = data.draw(st.integers(1, 3), label="value")
            sheets.set_cells(path, "Amenities", r, {"Value": v})
            expect.amenities[key] -= 1
            expect.amenities[(*key[:4], str(v), key[5])] += 1
    elif kind == "amenity_add":
        present = {a["AmenityCode"] for a in own}
        code = data.draw(st.sampled_from([c for c in NON_BEDS if c not in present] or ["5"]), label="code")
        sheets.append_rows(path, "Amenities", [{"HotelCode": HOTEL, "InvCode": inv, "AmenityCode": int(code)}])
        expect.amenities[(str(HOTEL), inv, "", code, "", "")] += 1
    elif kind == "occupancy":
        payable = int(stored["MaxChildPayableOccupancy"] or 0)
        occ = data.draw(occupancy(payable), label="occupancy")
        sheets.set_cells(path, "Rooms", n, occ)
        stored.update({k: str(v) for k, v in occ.items()})
    elif kind == "quantities":
        q = data.draw(quantities(), label="quantities")
        sheets.set_cells(path, "Rooms", n, q)
        stored.update({k: str(v) for k, v in q.items()})
    elif kind == "rename":
        name = data.draw(st.sampled_from(["Renamed Room", "Blue Suite", "Corner Flat"]), label="name")
        sheets.set_cells(path, "Rooms", n, {"RoomTypeName": name})
        stored["RoomTypeName"] = name
    elif kind in ("room_partial", "room_whole"):
        value = data.draw(st.sampled_from([v for v in ("0", "1", "2") if v != stored["NonSmoking"]]), label="smoking")
        cells: dict[str, object] = {"NonSmoking": int(value)}
        if kind == "room_whole":  # the analyst's own records: every attribute of the Room part
            cells.update({k: stored[k] for k in ("RoomID", "SizeMeasurement", "SizeMeasurementUnit", "Quantity")})
            stored["NonSmoking"] = value
        else:
            expect.refused.append(("Rooms", n, "NonSmoking"))
        sheets.set_cells(path, "Rooms", n, cells)
    elif kind == "deactivate":
        sheets.set_cells(path, "Rooms", n, {"Active": 0})
        stored["Active"] = "0"
    elif kind in ("subroom_partial", "subroom_whole"):
        target = data.draw(st.integers(0, len(subs) - 1), label="subroom")
        guests = str(int(subs[target]["MaxGuests"] or 0) + 1)
        if kind == "subroom_partial":
            s = subs[target]
            (r,) = sheets.append_rows(path, "SubRooms", [{"HotelCode": HOTEL, "InvCode": inv,
                                                          "SubRoom": f"{s['RoomType']} 1", "RoomType": s["RoomType"],
                                                          "MaxGuests": int(guests)}])
            expect.refused.append(("SubRooms", r, "MaxGuests"))
        else:  # every sub-room with its beds, from the analyst's own records, and how many there are
            sheets.set_cells(path, "Rooms", n, {"SubRoomCount": len(subs)})
            sheets.append_rows(path, "SubRooms", [
                {"HotelCode": HOTEL, "InvCode": inv, "SubRoom": f"S{s['SubRoom']}", "RoomType": s["RoomType"],
                 "MaxGuests": int(guests) if i == target else (int(s["MaxGuests"]) if s["MaxGuests"] else None),
                 "Number": int(s["Number"]) if s["Number"] else None,
                 "PrivateBathroom": int(s["PrivateBathroom"]) if s["PrivateBathroom"] else None}
                for i, s in enumerate(subs)])
            sheets.append_rows(path, "Amenities", [
                {"HotelCode": HOTEL, "InvCode": inv, "SubRoom": f"S{a['SubRoom']}", "AmenityCode": int(a["AmenityCode"]),
                 "Value": int(a["Quantity"]) if a["Quantity"] else None}
                for a in tables["amenities"] if a["InvCode"] == inv and a["SubRoom"]])
            for s in expect.subrooms:
                if s["InvCode"] == inv and s["SubRoom"] == subs[target]["SubRoom"]:
                    s["MaxGuests"] = guests


@pytest.mark.parametrize("primary", KINDS)
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                HealthCheck.too_slow])
@given(data=st.data())
def test_a_push_changes_exactly_what_the_analyst_changed_or_is_refused_on_the_edited_cell(
        primary, data, platform_factory, sheets, tmp_path_factory) -> None:
    """Each kind of edit leads (``primary``) a few examples, with up to two more edits drawn beside it."""
    with platform_factory() as p:
        invs = created(p.box, inv_notif_request(HOTEL, [data.draw(stored_room(0, True), label="apartment"),
                                                        data.draw(stored_room(1, False), label="double")]))
        before = p.tables()
        path = p.fetch_workbook([HOTEL], tmp_path_factory.mktemp("prop") / "fetched.xlsx")
        expect = Expect({r["InvCode"]: dict(r) for r in before["rooms"]}, [dict(s) for s in before["subrooms"]],
                        Counter(amenity_key(a) for a in before["amenities"]))
        used: set = set()
        others = data.draw(st.lists(st.sampled_from(KINDS), max_size=2, unique=True), label="other edits")
        kinds = [primary, *(k for k in others if k != primary)]
        for kind in kinds:
            inv = invs[0] if kind.startswith("subroom") else data.draw(st.sampled_from(invs), label="room")
            edit(data, p, sheets, path, inv, kind, expect, used)
        loaded = read_rooms(path)
        assert loaded.issues.empty, loaded.issues
        check = RoomsCheck(loaded.rooms, loaded.subrooms, loaded.amenities, loaded.issues, [path])
        try:
            result = push_rooms(check, p.settings, client=p.client,  # each example a platform and journal of its own
                                journal=tmp_path_factory.mktemp("journal") / "journal.sqlite")
        except BlockedByErrors as exc:
            assert expect.refused, exc.issues  # only an edit that cannot be sent whole is refused
            errors = exc.issues[exc.issues["severity"] == "error"]
            located = set(zip(errors["sheet"], errors["row"], errors["column"], strict=True))
            assert set(expect.refused) <= located, (expect.refused, errors)
            assert (errors["source"] == "fetched.xlsx").all() and set(errors["rule"]) == {"part_incomplete"}
            assert p.tables() == before  # nothing was sent
            event("refused")
            return
        assert not expect.refused, ("an edit that cannot be sent whole was sent", expect.refused)
        assert result.ok, result.results
        event("applied")
        after = p.tables()
        assert {r["InvCode"]: r for r in after["rooms"]} == expect.rooms
        assert after["subrooms"] == expect.subrooms
        assert Counter(amenity_key(a) for a in after["amenities"]) == +expect.amenities
