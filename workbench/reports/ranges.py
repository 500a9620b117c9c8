"""Issues summarised as ranges: one line per rule on consecutive nights of one room-rate.

Issues of the same severity, rule, property, room, rate plan and message (its numbers and dates
set aside: ``75000 EUR is above ...`` and ``80000 EUR is above ...`` read alike) on consecutive
nights are one line ``2027-03-01 – 2027-03-31``; runs of the same weekdays a week apart are one line
with a weekday mask (``2027-03-05 – 2027-03-27, Fri–Sat``), as the compressor writes messages
(:mod:`workbench.writers.compress`). An issue about several nights (a range row) or about no
night (a file, a coverage gap) is a line of its own. ``line_of`` maps every issue to its line,
and :func:`expand_ranges` gives back the nights of each line: exactly the issues' nights.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from expectations.located import LOCATION_COLUMNS, combined_codes, empty_locations

ALL_DAYS = 0b1111111  # bit 0 = Monday ... bit 6 = Sunday
DAY_NAMES = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
LINE_COLUMNS = ["severity", "rule", "hotel_code", "inv_type_code", "rate_plan_code", "first", "last", "weekdays",
                "nights", "issues", "source", "sheet", "rows", "column", "value", "message", "first_index"]
_NUMBERS = r"\d+(?:[.,:]\d+)*"


@dataclass
class IssueRanges:
    """``lines``: one row per line (see :data:`LINE_COLUMNS`; ``first_index``: position of its first
    issue); ``line_of``: the line of each issue, by position."""

    lines: pd.DataFrame
    line_of: np.ndarray


def message_template(messages: pd.Series) -> pd.Series:
    """The message with its numbers and dates set aside: what issues of one line share."""
    codes, uniques = pd.factorize(messages.astype("string").fillna(""), use_na_sentinel=False)
    templates = pd.Series(uniques, dtype="string").str.replace(_NUMBERS, "#", regex=True).to_numpy()
    return pd.Series(templates[codes], index=messages.index, dtype="string")


def issue_ranges(issues: pd.DataFrame, located: pd.DataFrame | None = None, by: tuple[str, ...] = ()) -> IssueRanges:
    """Summarise ``issues`` (with ``located``: their room-rates and nights, same index) as lines; ``by``:
    more columns of ``issues`` a line's issues share (e.g. the waiver), carried into the lines."""
    n = len(issues)
    if n == 0:
        return IssueRanges(pd.DataFrame(columns=[*LINE_COLUMNS, *by]), np.zeros(0, dtype=np.int64))
    loc = located if located is not None else empty_locations(issues.index)
    first = loc["first"].to_numpy("datetime64[D]")
    last = loc["last"].to_numpy("datetime64[D]")
    one_night = ~np.isnat(first) & (first == last)
    group, _ = combined_codes([issues["severity"], issues["rule"], loc["hotel_code"], loc["inv_type_code"],
                               loc["rate_plan_code"], message_template(issues["message"]), *(issues[c] for c in by)])
    line_of = np.empty(n, dtype=np.int64)
    # nights of one group: distinct (group, day), sorted; runs of consecutive days, then weekly chains
    pos = np.flatnonzero(one_night)
    day = first[pos].astype(np.int64)
    order = np.lexsort((day, group[pos]))
    g_sorted, d_sorted = group[pos][order], day[order]
    new_night = np.ones(len(order), dtype=bool)
    new_night[1:] = (g_sorted[1:] != g_sorted[:-1]) | (d_sorted[1:] != d_sorted[:-1])
    night_id = np.cumsum(new_night) - 1
    ng, nd = g_sorted[new_night], d_sorted[new_night]
    run_start = np.ones(len(nd), dtype=bool)
    run_start[1:] = (ng[1:] != ng[:-1]) | (nd[1:] - nd[:-1] != 1)
    run_id = np.cumsum(run_start) - 1
    r_first = nd[run_start]
    r_len = np.bincount(run_id, minlength=len(r_first)) if len(nd) else np.zeros(0, dtype=np.int64)
    r_group = ng[run_start]
    chained = np.zeros(len(r_first), dtype=bool)  # the run repeats the one before it a week later
    if len(r_first) > 1:
        chained[1:] = ((r_group[1:] == r_group[:-1]) & (r_first[1:] - r_first[:-1] == 7)
                       & (r_len[1:] == r_len[:-1]) & (r_len[1:] < 7))
    chain_id = np.cumsum(~chained) - 1
    c_first = r_first[~chained]
    c_last = np.zeros(len(c_first), dtype=np.int64)
    np.maximum.at(c_last, chain_id, r_first + r_len - 1)
    c_len = r_len[~chained]
    wd0 = (c_first + 3) % 7  # 1970-01-01 was a Thursday
    c_mask = np.where(c_len >= 7, ALL_DAYS, 0)
    for k in range(7):  # a run of fewer than 7 nights covers the weekdays wd0 .. wd0 + len - 1
        c_mask |= np.where((k < c_len) & (c_len < 7), 1 << ((wd0 + k) % 7), 0)
    chain_nights = np.bincount(chain_id[run_id], minlength=len(c_first)) if len(nd) else np.zeros(0, np.int64)
    line_of[pos[order]] = chain_id[run_id[night_id]]
    n_chains = len(c_first)
    # every other issue: a line of its own
    rest = np.flatnonzero(~one_night)
    line_of[rest] = n_chains + np.arange(len(rest))
    # per line: first/last night, mask, nights; then what its issues share
    n_lines = n_chains + len(rest)
    l_first = np.concatenate([c_first.astype("datetime64[D]"), first[rest]])
    l_last = np.concatenate([c_last.astype("datetime64[D]"), last[rest]])
    span = (l_last[n_chains:] - l_first[n_chains:]).astype(np.int64) + 1
    l_nights = np.concatenate([chain_nights, np.where(np.isnat(first[rest]), 0, span)])
    l_mask = np.concatenate([c_mask, np.where(np.isnat(first[rest]), 0, ALL_DAYS)])
    lines = _describe(issues, loc, line_of, n_lines)
    lines["first"] = pd.to_datetime(l_first)
    lines["last"] = pd.to_datetime(l_last)
    lines["weekdays"] = l_mask.astype(np.int64)
    lines["nights"] = l_nights.astype(np.int64)
    for c in by:
        lines[c] = issues[c].iloc[lines["first_index"].to_numpy()].to_numpy()
    lines = lines[[*LINE_COLUMNS, *by]]
    # reading order: errors first, then by property, room, rate, first night, rule
    keys = lines[["hotel_code", "inv_type_code", "rate_plan_code", "first", "rule", "first_index"]].assign(
        _sev=lines["severity"].map({"error": 0, "warning": 1}).fillna(2))
    order_lines = keys.sort_values(["_sev", "hotel_code", "inv_type_code", "rate_plan_code", "first", "rule",
                                    "first_index"], kind="stable", na_position="last").index.to_numpy()
    renumber = np.empty(n_lines, dtype=np.int64)
    renumber[order_lines] = np.arange(n_lines)
    return IssueRanges(lines.iloc[order_lines].reset_index(drop=True), renumber[line_of])


def _describe(issues: pd.DataFrame, loc: pd.DataFrame, line_of: np.ndarray, n_lines: int) -> pd.DataFrame:
    """Per line: its first issue's severity, rule, room-rate, where and message; the issues, rows and values."""
    position = np.arange(len(issues))
    first_pos = np.full(n_lines, len(issues), dtype=np.int64)
    np.minimum.at(first_pos, line_of, position)
    count = np.bincount(line_of, minlength=n_lines)
    head = issues.iloc[first_pos].reset_index(drop=True)
    where = loc.iloc[first_pos].reset_index(drop=True)
    rows = issues["row"].astype("Float64").to_numpy(dtype=np.float64, na_value=np.nan)
    lo = pd.Series(rows).groupby(line_of).min().reindex(range(n_lines)).to_numpy()
    hi = pd.Series(rows).groupby(line_of).max().reindex(range(n_lines)).to_numpy()
    values = issues["value"].astype("string").fillna("")
    v_last = values.iloc[pd.Series(position).groupby(line_of).max().reindex(range(n_lines)).to_numpy()]
    distinct = pd.Series(values.to_numpy()).groupby(line_of).nunique().reindex(range(n_lines)).to_numpy()
    v_first = head["value"].astype("string").fillna("").to_numpy(dtype=object)
    v_last_arr = v_last.to_numpy(dtype=object)
    value_text = np.where(distinct > 1, v_first + " … " + v_last_arr + " (" + distinct.astype(str) + " values)",
                          v_first)
    return pd.DataFrame({
        "severity": head["severity"].astype("string"), "rule": head["rule"].astype("string"),
        "hotel_code": where["hotel_code"].astype(LOCATION_COLUMNS["hotel_code"]),
        "inv_type_code": where["inv_type_code"].astype("string"),
        "rate_plan_code": where["rate_plan_code"].astype("string"),
        "issues": count.astype(np.int64), "source": head["source"].astype("string").fillna(""),
        "sheet": head["sheet"].astype("string").fillna(""), "rows": _row_span(lo, hi),
        "column": head["column"].astype("string").fillna(""), "value": value_text,
        "message": head["message"].astype("string").fillna(""), "first_index": first_pos,
    })


def _row_span(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """``"14"``, ``"14–44"`` (first to last row of the line's issues) or blank."""
    lo_t = np.where(np.isnan(lo), "", np.nan_to_num(lo).astype(np.int64).astype(str))
    hi_t = np.where(np.isnan(hi), "", np.nan_to_num(hi).astype(np.int64).astype(str))
    return np.where(lo_t == hi_t, lo_t, np.char.add(np.char.add(lo_t.astype(str), "–"), hi_t.astype(str)))


def expand_ranges(lines: pd.DataFrame) -> pd.DataFrame:
    """The nights each line stands for: ``line`` (its position) and ``date``, by its weekday mask."""
    has = lines["first"].notna().to_numpy()
    idx = np.flatnonzero(has)
    start = lines["first"].to_numpy("datetime64[D]")[idx]
    n = (lines["last"].to_numpy("datetime64[D]")[idx] - start).astype(np.int64) + 1
    rep = np.repeat(np.arange(len(idx)), n)
    off = np.arange(len(rep)) - np.repeat(np.cumsum(n) - n, n)
    dates = start[rep] + off.astype("timedelta64[D]")
    wd = (dates.astype(np.int64) + 3) % 7
    keep = (lines["weekdays"].to_numpy()[idx][rep] >> wd) & 1 == 1
    return pd.DataFrame({"line": idx[rep[keep]], "date": dates[keep].astype("datetime64[ns]")})


def _mask_text(mask: int) -> str:
    if mask == ALL_DAYS:
        return "every day"
    days = [d for d in range(7) if mask >> d & 1]
    if not days:
        return ""
    starts = [d for d in days if not mask >> ((d - 1) % 7) & 1]
    if len(starts) == 1 and len(days) > 1:  # one block, maybe across Sunday: Sat–Mon
        s = starts[0]
        return f"{DAY_NAMES[s]}–{DAY_NAMES[(s + len(days) - 1) % 7]}"
    return ", ".join(DAY_NAMES[d] for d in days)


WEEKDAY_TEXT = tuple(_mask_text(m) for m in range(128))


def nights_text(lines: pd.DataFrame) -> pd.Series:
    """``2027-03-01`` or ``2027-03-01 – 2027-03-31`` per line; blank when the line has no night."""
    first = pd.DatetimeIndex(lines["first"]).strftime("%Y-%m-%d")
    last = pd.DatetimeIndex(lines["last"]).strftime("%Y-%m-%d")
    out = np.where(first == last, first, first.astype(object) + " – " + last.astype(object))
    return pd.Series(out, index=lines.index).where(lines["first"].notna(), "").astype(str)


def weekdays_text(lines: pd.DataFrame) -> pd.Series:
    """The weekdays of each line (``Fri``, ``Fri–Sat``, ``every day``); blank for a line without nights."""
    text = np.asarray(WEEKDAY_TEXT, dtype=object)[lines["weekdays"].to_numpy(dtype=np.int64) & ALL_DAYS]
    return pd.Series(text, index=lines.index).astype(str)
