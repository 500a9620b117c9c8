"""Issues summarised as ranges: every issue is in exactly one line, and expanding the lines gives
back exactly the issues' nights (a hypothesis property), consecutive nights always share a line."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pandas as pd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workbench.reports.ranges import (
    expand_ranges,
    issue_ranges,
    message_template,
    nights_text,
    weekdays_text,
)

DAY0 = dt.date(2027, 1, 1)
issue = st.tuples(st.sampled_from(["error", "warning"]), st.sampled_from(["price_cap", "price_negative"]),
                  st.sampled_from([1000001, 1000002, None]), st.sampled_from(["101", "102"]),
                  st.integers(0, 70), st.sampled_from([0, 0, 0, 0, 3]), st.integers(1, 99_999))


def frames(rows: list[tuple]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Issues and their locations: a hotel of None is an issue with no row (a file's); a span of 3 a range row."""
    issues = pd.DataFrame({
        "source": "r.xlsx", "sheet": "S", "row": pd.array([None if h is None else 2 + i for i, (_, _, h, *_) in
                                                           enumerate(rows)], dtype="Int64"),
        "column": "AmountAfterTax", "value": [str(v) for *_, v in rows], "rule": [r for _, r, *_ in rows],
        "severity": [s for s, *_ in rows],
        "message": [f"{v} EUR on {DAY0 + dt.timedelta(days=d)} breaks {r}" for _, r, _, _, d, _, v in rows],
    })
    located = pd.DataFrame({
        "hotel_code": pd.array([h for _, _, h, *_ in rows], dtype="Int64"),
        "inv_type_code": pd.array([None if h is None else room for _, _, h, room, *_ in rows], dtype="string"),
        "rate_plan_code": pd.array([None if h is None else "5001" for _, _, h, *_ in rows], dtype="string"),
        "first": pd.to_datetime([None if h is None else DAY0 + dt.timedelta(days=d) for _, _, h, _, d, _, _ in rows]),
        "last": pd.to_datetime([None if h is None else DAY0 + dt.timedelta(days=d + span)
                                for _, _, h, _, d, span, _ in rows]),
    })
    return issues, located


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(issue, max_size=120))
def test_expanding_the_ranges_gives_back_exactly_the_issues(rows: list[tuple]) -> None:
    issues, located = frames(rows)
    ranges = issue_ranges(issues, located)
    lines, line_of = ranges.lines, ranges.line_of
    assert len(line_of) == len(issues) and lines["issues"].sum() == len(issues)
    assert (np.bincount(line_of, minlength=len(lines)) == lines["issues"].to_numpy()).all()
    key = pd.concat([issues[["severity", "rule"]], located[["hotel_code", "inv_type_code", "rate_plan_code"]],
                     message_template(issues["message"]).rename("template")], axis=1).astype("string").fillna("")
    assert (key.groupby(line_of).nunique() <= 1).all().all()  # a line's issues share severity, rule, room-rate
    single = (located["first"] == located["last"]).to_numpy()
    nights = expand_ranges(lines)
    for line in range(len(lines)):
        mine = line_of == line
        expanded = set(nights.loc[nights["line"] == line, "date"])
        if single[mine].all():  # one-night issues: the line's nights are exactly theirs
            assert expanded == set(located.loc[mine, "first"])
            assert lines["nights"].iloc[line] == len(expanded)
        else:  # a range row or an issue without nights is a line of its own
            assert mine.sum() == 1
    if not len(issues):
        return
    # consecutive nights of one key always share a line
    one = pd.DataFrame({"k": key.agg("|".join, axis=1), "d": located["first"], "line": line_of})[single]
    nxt = one.assign(d=one["d"] - pd.Timedelta(days=1)).merge(one, on=["k", "d"], suffixes=("", "_next"))
    assert (nxt["line"] == nxt["line_next"]).all()


def test_a_month_of_nights_is_one_line_and_weekends_one_line_with_their_weekdays() -> None:
    march = [d for d in range(59, 90)]  # 2027-03-01 .. 2027-03-31
    weekends = [d for d in march if (DAY0 + dt.timedelta(days=d)).weekday() in (4, 5)]
    rows = [("warning", "price_cap", 1000001, "101", d, 0, 120 + d) for d in march]
    rows += [("warning", "price_negative", 1000001, "101", d, 0, 5) for d in weekends]
    lines = issue_ranges(*frames(rows)).lines
    assert len(lines) == 2
    text = dict(zip(lines["rule"], zip(nights_text(lines), weekdays_text(lines), lines["issues"], strict=True),
                    strict=True))
    assert text["price_cap"] == ("2027-03-01 – 2027-03-31", "every day", 31)
    assert text["price_negative"] == ("2027-03-05 – 2027-03-27", "Fri–Sat", 8)
    assert lines.set_index("rule").loc["price_cap", "value"] == "179 … 209 (31 values)"


def test_a_gap_or_another_room_starts_a_new_line() -> None:
    rows = [("error", "price_cap", 1000001, "101", d, 0, 1) for d in (0, 1, 2, 4, 5)]
    rows += [("error", "price_cap", 1000001, "102", 3, 0, 1)]
    lines = issue_ranges(*frames(rows)).lines
    assert nights_text(lines).tolist() == ["2027-01-01 – 2027-01-03", "2027-01-05 – 2027-01-06", "2027-01-04"]
    assert lines["inv_type_code"].tolist() == ["101", "101", "102"]
    assert lines["rows"].tolist() == ["2–4", "5–6", "7"]


def test_without_locations_every_issue_is_a_line_and_nothing_reads_nan() -> None:
    issues, _ = frames([("warning", "price_cap", None, "101", 0, 0, 1), ("error", "price_cap", 1000001, "101", 0, 0, 2)])
    lines = issue_ranges(issues).lines
    assert len(lines) == 2 and nights_text(lines).tolist() == ["", ""] and weekdays_text(lines).tolist() == ["", ""]
    shown = lines.astype(str).to_numpy().ravel().tolist()
    assert not {"nan", "None", "<NA>", "NaT"} & set(shown) - set(lines["hotel_code"].astype(str))
