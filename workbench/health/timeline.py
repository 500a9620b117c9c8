"""One timeline per property: each room-rate a row, its priced ranges, gaps and closed nights,
the as-of night and the horizon; drawn with matplotlib (no pyplot state), returned as SVG text."""

from __future__ import annotations

import datetime as dt
import io

import matplotlib.dates as mdates
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from workbench.health.coverage import KEY

COLOURS = {"priced": "#2da44e", "closed": "#8c959f", "gap": "#cf222e", "sheet": "#0969da"}
LABELS = {"priced": "bookable (price > 0)", "closed": "closed (price 0)", "gap": "unpriced (gap)",
          "sheet": "in sheets, not pushed yet"}


def plot_timeline(ranges: pd.DataFrame, room_rates: pd.DataFrame, *, as_of: dt.date, horizon: int,
                  title: str = "") -> Figure:
    """A figure for one property. ``ranges``: ``coverage.RANGE_COLUMNS`` (plus ``kind`` = ``sheet``);
    ``room_rates``: the rows to draw (``KEY`` plus optional ``room_name``, ``rate_name``)."""
    rows = room_rates.drop_duplicates(KEY).reset_index(drop=True)
    fig = Figure(figsize=(11, 1.2 + 0.4 * max(len(rows), 1)), layout="constrained")
    ax = fig.add_subplot()
    a = pd.Timestamp(as_of)
    last = max([a + pd.Timedelta(days=400), *([ranges["end"].max()] if len(ranges) else [])])
    left = a - pd.Timedelta(days=14)
    position = {(int(r.hotel_code), str(r.inv_type_code), str(r.rate_plan_code)): i
                for i, r in enumerate(rows.itertuples(index=False))}
    for kind, height, offset in (("priced", 0.5, 0), ("closed", 0.5, 0), ("gap", 0.5, 0), ("sheet", 0.14, 0.36)):
        part = ranges[ranges["kind"] == kind]
        for key, g in part.groupby(KEY, sort=False):
            y = position.get((int(key[0]), str(key[1]), str(key[2])))
            if y is None:
                continue
            start = g["start"].clip(lower=left)
            end = g["end"] + pd.Timedelta(days=1)  # a night is drawn as the whole day
            keep = end > left
            spans = [(mdates.date2num(s), (e - s).days) for s, e in zip(start[keep], end[keep], strict=True)]
            ax.broken_barh(spans, (y - height / 2 + offset, height), facecolors=COLOURS[kind], linewidth=0)
    ax.axvspan(mdates.date2num(a), mdates.date2num(a + pd.Timedelta(days=horizon)), color="#fff8c5", zorder=0)
    ax.axvline(mdates.date2num(a), color="#1f2328", linewidth=1)
    ax.axvline(mdates.date2num(a + pd.Timedelta(days=364)), color="#57606a", linewidth=0.8, linestyle=":")
    ax.set_xlim(mdates.date2num(left), mdates.date2num(last + pd.Timedelta(days=7)))
    ax.set_ylim(len(rows) - 0.4, -0.6)
    ax.set_yticks(range(len(rows)), [_label(r) for r in rows.itertuples(index=False)], fontsize=8)
    ax.xaxis.set_major_locator(mdates.MonthLocator(bymonth=(1, 4, 7, 10)))
    ax.xaxis.set_minor_locator(mdates.MonthLocator())
    ax.xaxis.set_major_formatter(mdates.DateFormatter("%b %Y"))
    ax.tick_params(axis="x", labelsize=8)
    ax.grid(axis="x", which="major", color="#d0d7de", linewidth=0.6)
    handles = [Patch(color=COLOURS[k], label=LABELS[k]) for k in COLOURS]
    handles.append(Patch(color="#fff8c5", label=f"as of {a:%d %b %Y} + {horizon}-night horizon"))
    fig.legend(handles=handles, loc="outside lower center", ncol=5, fontsize=7, frameon=False)
    if title:
        ax.set_title(title, fontsize=10, loc="left")
    return fig


#: how a room-rate's row is marked when it is not one the partner prices
ROLE_MARKS = {"child": "child rate", "read_only": "read-only"}


def _label(r: object) -> str:
    room = getattr(r, "room_name", None)
    rate = getattr(r, "rate_name", None)
    text = f"{r.inv_type_code} / {r.rate_plan_code}"  # type: ignore[attr-defined]
    names = " · ".join(str(x) for x in (room, rate) if isinstance(x, str) and x)
    label = f"{text}  {names[:40]}" if names else text
    mark = ROLE_MARKS.get(str(getattr(r, "role", "")))
    if getattr(r, "on_platform", True) is False and getattr(r, "platform_known", False):
        mark = "not active on the platform"
    return f"{label} ({mark})" if mark else label


def timeline_svg(ranges: pd.DataFrame, room_rates: pd.DataFrame, *, as_of: dt.date, horizon: int,
                 title: str = "") -> str:
    """:func:`plot_timeline` as inline SVG text (for the HTML report)."""
    fig = plot_timeline(ranges, room_rates, as_of=as_of, horizon=horizon, title=title)
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None})
    text = buf.getvalue()
    return text[text.index("<svg"):]
