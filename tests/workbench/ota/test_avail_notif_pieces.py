"""``build_avail_notif`` reuses what follows a message's LocatorID and dates for messages of the same value,
room-rate and weekdays: every message is still exactly the text ``message_xml`` writes."""

from __future__ import annotations

import datetime as dt

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from loaders.schemas import RESTRICTIONS
from workbench.config import LOS_READINGS
from workbench.ota.avail_notif import build_avail_notif, message_xml

TS = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)
_message = st.tuples(st.sampled_from(RESTRICTIONS), st.integers(0, 3), st.sampled_from(["2027-01-01", "2027-01-05"]),
                     st.sampled_from(["2027-01-09", "2027-01-31"]), st.sampled_from(["101", "1&2"]),
                     st.sampled_from([None, pd.NA, "5001"]), st.sampled_from([0b1111111, 0b0110000, 1]))


@settings(max_examples=150, deadline=None)
@given(st.lists(_message, min_size=1, max_size=30), st.sampled_from(LOS_READINGS))
def test_every_message_is_message_xml_text(messages, reading) -> None:
    kinds, values, starts, ends, rooms, rates, masks = (list(c) for c in zip(*messages, strict=True))
    body = build_avail_notif(7, kinds, values, starts, ends, rooms, rates, masks, TS, reading).decode()
    expected = "".join(message_xml(n, *m[:2], m[2], m[3], m[4], m[5], m[6], reading)
                       for n, m in enumerate(messages, start=1))
    start = body.index("<AvailStatusMessage ")
    assert body[start:body.index("</AvailStatusMessages>")] == expected
