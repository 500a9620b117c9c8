"""Reconciling availability: each night the platform and the journal disagree on is one located line of the
right kind (changed on the platform, lost update, never sent); nights they agree on are not listed."""

from __future__ import annotations

import pandas as pd
import pytest

from workbench.flows.availability_read import CHANGED, LOST, NEVER, compare, platform_values

COLS = ["hotel_code", "inv_type_code", "rate_plan_code", "restriction", "date", "value"]


def _values(rows: list[tuple]) -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=COLS)
    return frame.assign(date=pd.to_datetime(frame["date"]))


@pytest.mark.parametrize(("platform", "accepted", "before", "expected"), [
    # the same value: nothing to say
    ([5], [5], [], []),
    # another value, never sent by this journal: changed on the platform
    ([7], [5], [5], [(CHANGED, 7, 5)]),
    # an older value this journal sent: the last update was lost
    ([4], [5], [4, 5], [(LOST, 4, 5)]),
    # nothing to sell on the platform where rooms were accepted: lost
    ([0], [5], [5], [(LOST, 0, 5)]),
    # the platform does not list the night at all: lost
    ([], [5], [5], [(LOST, None, 5)]),
    # rooms on a night this journal never sent a value for
    ([3], [], [], [(NEVER, 3, None)]),
    # nothing on a night never sent: nothing to say
    ([0], [], [], []),
], ids=["equal", "changed", "older value", "zero", "missing", "never sent", "empty never sent"])
def test_each_difference_is_one_line_of_its_kind(platform, accepted, before, expected) -> None:
    key = (1000001, "101", "", "rooms_to_sell", "2027-01-05")
    found = compare(_values([(*key, v) for v in platform]), _values([(*key, v) for v in accepted]),
                    _values([(*key, v) for v in before]))
    got = [(d, None if pd.isna(p) else int(p), None if pd.isna(a) else int(a))
           for d, p, a in zip(found["difference"], found["platform"], found["accepted"], strict=True)]
    assert got == expected
    assert all(found["date"] == pd.Timestamp("2027-01-05"))


def test_the_read_gives_rooms_to_sell_per_room_type_and_closed_per_room_type_and_room_rate() -> None:
    read = pd.DataFrame({"hotel_code": [1, 1], "inv_type_code": ["101", "101"], "rate_plan_code": [None, "5001"],
                         "date": pd.to_datetime(["2027-01-05"] * 2), "rooms_to_sell": [4, None], "booked": [1, 1],
                         "cancelled": [0, 0], "closed": [0, 1]}).astype({"rate_plan_code": "string",
                                                                          "rooms_to_sell": "Int64"})
    values = platform_values(read)
    assert sorted(zip(values["rate_plan_code"], values["restriction"], values["value"], strict=True)) == [
        ("", "closed", 0), ("", "rooms_to_sell", 4), ("5001", "closed", 1)]
