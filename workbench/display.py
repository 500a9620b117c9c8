"""What a result shows in Jupyter (``_repr_html_``): a short summary, not a truncated frame dump.

A title with a verdict, a line of figures, then a few small tables (counts by rule, the first
problems) with every cell escaped and no text cut off. The CSS travels with each summary and every
selector starts with the summary's own container class (:data:`CSS_CLASS`), so it restyles
nothing else on the page (notebook tables included); JupyterLab's fixed table layout is undone
inside the container so long ids and messages wrap instead of running over the next column.
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import pandas as pd

CSS_CLASS = "wb-summary"
TONES = ("ok", "error", "warning", "info")
ROW_TONES = {"error": "error", "warning": "warning"}  # a row's value -> its mark (red / yellow)
#: a request's outcome -> its row's mark: what was not applied is red
OUTCOME_TONES = {"rejected": "error", "failed": "error", "unknown": "error", "not sent": "error",
                 "interrupted": "error", "partial": "warning"}

CSS = """
.wb-summary{font-size:13px;line-height:1.45;margin:.2rem 0;max-width:100%}
.wb-summary .wb-head{display:flex;flex-wrap:wrap;gap:.6rem;align-items:baseline;margin:0 0 .3rem}
.wb-summary .wb-title{font-weight:600;font-size:14px}
.wb-summary .wb-verdict{padding:.05rem .5rem;border-radius:4px;font-weight:600}
.wb-summary .wb-ok{background:#dafbe1;color:#116329}
.wb-summary .wb-error{background:#ffebe9;color:#a40e26}
.wb-summary .wb-warning{background:#fff8c5;color:#7d4e00}
.wb-summary .wb-info{background:#ddf4ff;color:#0a3069}
.wb-summary .wb-facts{margin:0 0 .5rem;padding:0;list-style:none;display:flex;flex-wrap:wrap;gap:.2rem 1.2rem}
.wb-summary .wb-facts b{font-weight:600}
.wb-summary .wb-caption{font-weight:600;margin:.5rem 0 .15rem}
.wb-summary .wb-note{opacity:.75;margin:.1rem 0 .4rem}
.wb-summary table.wb-table{border-collapse:collapse;table-layout:auto;width:auto;max-width:100%;margin:0 0 .4rem}
.wb-summary table.wb-table th,.wb-summary table.wb-table td{border:0;border-bottom:1px solid #d0d7de;
  padding:.2rem .55rem;text-align:left;vertical-align:top;white-space:normal;overflow-wrap:break-word;max-width:36ch}
.wb-summary table.wb-table td.wb-wide{max-width:90ch;min-width:28ch;overflow-wrap:anywhere}
.wb-summary table.wb-table td.wb-num{text-align:right;white-space:nowrap}
.wb-summary table.wb-table th{font-weight:600}
.wb-summary table.wb-table tr.wb-row-error td:first-child{box-shadow:inset 3px 0 #cf222e}
.wb-summary table.wb-table tr.wb-row-warning td:first-child{box-shadow:inset 3px 0 #bf8700}
.wb-summary code{overflow-wrap:anywhere}
"""


@dataclass
class Table:
    """A small table of a summary: ``frame`` shown whole (cut it to the first rows before), and a note."""

    caption: str
    frame: pd.DataFrame
    note: str = ""
    wide: Sequence[str] = ()     # columns of long text (messages): wider before they wrap
    tone_column: str = ""        # a column whose value marks its row (through ``tones``)
    tones: Mapping[str, str] = field(default_factory=lambda: dict(ROW_TONES))


@dataclass
class Summary:
    title: str
    verdict: str
    tone: str = "info"
    #: (figure, label): ("1,287", "prices") reads "1,287 prices"; a label ending in ":" comes first
    facts: list[tuple[str, str]] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)

    def html(self) -> str:
        e = html.escape
        tone = self.tone if self.tone in TONES else "info"
        parts = [f"<div class='{CSS_CLASS}'><style>{CSS}</style>",
                 f"<div class='wb-head'><span class='wb-title'>{e(self.title)}</span>"
                 f"<span class='wb-verdict wb-{tone}'>{e(self.verdict)}</span></div>"]
        if self.facts:
            parts.append("<ul class='wb-facts'>" + "".join(
                f"<li>{e(k)} <b>{e(v)}</b></li>" if k.endswith(":") else f"<li><b>{e(v)}</b> {e(k)}</li>"
                for v, k in self.facts) + "</ul>")
        for t in self.tables:
            parts.append(f"<div class='wb-caption'>{e(t.caption)}</div>")
            if len(t.frame.columns):
                parts.append(table_html(t.frame, wide=t.wide, tone_column=t.tone_column, tones=t.tones))
            if t.note:
                parts.append(f"<div class='wb-note'>{e(t.note)}</div>")
        parts.append("</div>")
        return "".join(parts)


def table_html(frame: pd.DataFrame, *, wide: Sequence[str] = (), tone_column: str = "",
               tones: Mapping[str, str] = ROW_TONES) -> str:
    """``frame`` (index left out) as an escaped table of the summary's own classes."""
    e = html.escape
    cols = list(frame.columns)
    numeric = {c for c in cols if pd.api.types.is_numeric_dtype(frame[c]) and not pd.api.types.is_bool_dtype(frame[c])}
    head = "".join(f"<th>{e(str(c))}</th>" for c in cols)
    rows = []
    for values in frame.itertuples(index=False, name=None):
        cells = dict(zip(cols, values, strict=True))
        tone = tones.get(str(cells.get(tone_column, "")), "") if tone_column else ""
        cls = f" class='wb-row-{tone}'" if tone in ("error", "warning") else ""
        tds = "".join(f"<td{_cell_class(c, wide, numeric)}>{e(cell_text(cells[c]))}</td>" for c in cols)
        rows.append(f"<tr{cls}>{tds}</tr>")
    return f"<table class='wb-table'><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def _cell_class(column: object, wide: Sequence[str], numeric: set[object]) -> str:
    if column in wide:
        return " class='wb-wide'"
    return " class='wb-num'" if column in numeric else ""


def cell_text(value: object) -> str:
    """A value as people read it: blank for missing, whole numbers without ``.0``, dates without a
    midnight, times to the second, durations in hours and minutes."""
    if value is None or value is pd.NA or value is pd.NaT:
        return ""
    if isinstance(value, float) and value != value:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and math.isfinite(value) and value == int(value):
        return str(int(value))  # ids and row numbers: no separators
    if isinstance(value, pd.Timestamp):
        return value.strftime("%Y-%m-%d") if value == value.normalize() else value.strftime("%Y-%m-%d %H:%M:%S")
    if isinstance(value, pd.Timedelta):
        return duration_text(value)
    if hasattr(value, "item") and not isinstance(value, str):  # numpy scalars
        try:
            return cell_text(value.item())
        except (TypeError, ValueError):
            pass
    return str(value)


def duration_text(value: pd.Timedelta) -> str:
    """``2 h 05 min``, ``1 d 3 h``, ``45 s``; negative durations get a minus sign."""
    seconds = int(value.total_seconds())
    sign, seconds = ("-" if seconds < 0 else ""), abs(seconds)
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{sign}{days} d {hours} h"
    if hours:
        return f"{sign}{hours} h {minutes:02d} min"
    if minutes:
        return f"{sign}{minutes} min"
    return f"{sign}{secs} s"


def facts_text(facts: Sequence[tuple[str, str]]) -> str:
    """The facts as one line of plain text (for ``__repr__``)."""
    return ", ".join(f"{k} {v}" if k.endswith(":") else f"{v} {k}" for v, k in facts)
