"""``build_avail_notif`` reuses what follows a message's LocatorID and dates for messages of the same value,
room-rate and weekdays: every message is still exactly the text ``message_xml`` writes."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from loaders.schemas import RESTRICTIONS
from workbench.config import LOS_READINGS
from workbench.ota.avail_notif import build_avail_notif, message_xml, messages_xml, request_xml

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


@settings(max_examples=100, deadline=None)
@given(st.lists(_message, min_size=1, max_size=30), st.sampled_from(LOS_READINGS), st.integers(0, 5))
def test_messages_xml_offsets_cut_each_message(messages, reading, shift) -> None:
    """The folder's builder (whole columns, as pandas Series with any index, numpy dates): message ``i`` is
    ``texts[at[i]:at[i + 1]]``, exactly ``message_xml``'s text, and a request's slice is its messages in order."""
    kinds, values, starts, ends, rooms, rates, masks = (list(c) for c in zip(*messages, strict=True))
    index = pd.RangeIndex(shift, shift + len(messages))
    locators = np.arange(1, len(messages) + 1) * 3
    texts, at = messages_xml(locators, pd.Series(kinds, index=index), pd.Series(values, index=index),
                             np.array(starts), np.array(ends), pd.Series(rooms, index=index, dtype="string"),
                             pd.Series(rates, index=index, dtype=object), pd.Series(masks, index=index), reading)
    assert len(at) == len(messages) + 1 and at[0] == 0 and at[-1] == len(texts)
    for i, m in enumerate(messages):
        assert texts[at[i]:at[i + 1]].decode() == message_xml(int(locators[i]), *m[:2], m[2], m[3], m[4], m[5], m[6],
                                                               reading)
    numbered, _ = messages_xml(range(1, len(messages) + 1), kinds, values, starts, ends, rooms, rates, masks, reading)
    assert request_xml(7, numbered, TS) == build_avail_notif(7, kinds, values, starts, ends, rooms, rates, masks, TS,
                                                             reading)
