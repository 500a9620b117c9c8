"""What a result shows in Jupyter (``_repr_html_``): a short summary, not a truncated frame dump.

A title with a verdict, a line of figures, then a few small tables (counts by rule, the first
problems) with every cell escaped and no text cut off. The CSS travels with each summary and every
selector starts with the summary's own container class (:data:`CSS_CLASS`), so it restyles
nothing else on the page (notebook tables included); JupyterLab's fixed table layout is undone
inside the container so long ids and messages wrap instead of running over the next column.
"""

from __future__ import annotations

import functools
import html
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from workbench.wording import count

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


#: the same look as :data:`CSS`, inline: what survives an untrusted notebook (JupyterLab keeps ``style``
#: attributes, drops ``<style>``); the ``--jp-*`` variables follow JupyterLab's theme, the fallbacks a plain page
_TEXT = "color:var(--jp-content-font-color1,#1f2328)"
_LINE = "border:0;border-bottom:1px solid var(--jp-border-color2,#d0d7de)"
INLINE = {
    "box": "font-size:13px;line-height:1.45;margin:.2rem 0;max-width:100%;text-align:left",
    "head": "margin:0 0 .3rem",
    "title": "font-weight:600;font-size:14px",
    "verdict": "padding:.05rem .5rem;border-radius:4px;font-weight:600;color:#1f2328;",
    "ok": "background:var(--jp-success-color3,#dafbe1)", "error": "background:var(--jp-error-color3,#ffebe9)",
    "warning": "background:var(--jp-warn-color3,#fff8c5)", "info": "background:var(--jp-info-color3,#ddf4ff)",
    "facts": "margin:0 0 .5rem;padding-left:1.2rem",
    "caption": "font-weight:600;margin:.5rem 0 .15rem",
    "note": "opacity:.75;margin:.1rem 0 .4rem",
    "table": "border-collapse:collapse;table-layout:auto;width:auto;max-width:100%;margin:0 0 .4rem",
    "th": f"{_LINE};padding:.2rem .55rem;text-align:left;vertical-align:top;font-weight:600;{_TEXT};"
          "background:var(--jp-layout-color2,#f6f8fa)",
    "td": f"{_LINE};padding:.2rem .55rem;text-align:left;vertical-align:top;white-space:normal;"
          f"overflow-wrap:break-word;max-width:36ch;{_TEXT};background:transparent;",
    "wide": "max-width:90ch;min-width:28ch;overflow-wrap:anywhere;",
    "num": "text-align:right;white-space:nowrap;",
    "row-error": "box-shadow:inset 3px 0 var(--jp-error-color1,#cf222e);",
    "row-warning": "box-shadow:inset 3px 0 var(--jp-warn-color1,#bf8700);",
}


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
        """The summary's HTML. The ``<style>`` block is a bonus: an untrusted notebook drops it, so
        what matters is inline too, in JupyterLab's ``--jp-*`` colours (its dark theme included),
        and the text reads in order without any CSS (``Rates check — blocked: 10 errors``)."""
        e = html.escape
        tone = self.tone if self.tone in TONES else "info"
        parts = [f"<div class='{CSS_CLASS}' style='{INLINE['box']}'><style>{CSS}</style>"]
        if self.title or self.verdict:
            dash = " — " if self.title and self.verdict else ""
            parts.append(f"<div class='wb-head' style='{INLINE['head']}'><span class='wb-title' "
                         f"style='{INLINE['title']}'>{e(self.title)}</span>{dash}<span class='wb-verdict wb-{tone}' "
                         f"style='{INLINE['verdict']}{INLINE[tone]}'>{e(self.verdict)}</span></div>")
        if self.facts:
            parts.append(f"<ul class='wb-facts' style='{INLINE['facts']}'>" + "".join(
                f"<li>{e(k)} <b>{e(v)}</b></li>" if k.endswith(":") else f"<li><b>{e(v)}</b> {e(k)}</li>"
                for v, k in self.facts) + "</ul>")
        for t in self.tables:
            parts.append(f"<div class='wb-caption' style='{INLINE['caption']}'>{e(t.caption)}</div>")
            if len(t.frame.columns):
                parts.append(table_html(t.frame, wide=t.wide, tone_column=t.tone_column, tones=t.tones))
            if t.note:
                parts.append(f"<div class='wb-note' style='{INLINE['note']}'>{e(t.note)}</div>")
        parts.append("</div>")
        return "".join(parts)

    def markdown(self) -> str:
        """The same summary as Markdown: what a frontend without HTML shows (``_repr_markdown_``)."""
        return markdown_from_html(self.html())


def table_html(frame: pd.DataFrame, *, wide: Sequence[str] = (), tone_column: str = "",
               tones: Mapping[str, str] = ROW_TONES) -> str:
    """``frame`` (index left out) as an escaped table of the summary's own classes."""
    e = html.escape
    cols = list(frame.columns)
    numeric = {c for c in cols if pd.api.types.is_numeric_dtype(frame[c]) and not pd.api.types.is_bool_dtype(frame[c])}
    head = "".join(f"<th style='{INLINE['th']}'>{e(str(c))}</th>" for c in cols)
    rows = []
    for values in frame.itertuples(index=False, name=None):
        cells = dict(zip(cols, values, strict=True))
        tone = tones.get(str(cells.get(tone_column, "")), "") if tone_column else ""
        cls = f" class='wb-row-{tone}'" if tone in ("error", "warning") else ""
        mark = INLINE.get(f"row-{tone}", "")
        tds = "".join(f"<td{_cell_class(c, wide, numeric)} style='{_cell_style(c, wide, numeric)}"
                      f"{mark if i == 0 else ''}'>{e(cell_text(cells[c]))}</td>" for i, c in enumerate(cols))
        rows.append(f"<tr{cls}>{tds}</tr>")
    return (f"<table class='wb-table' style='{INLINE['table']}'><thead><tr>{head}</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>")


def _cell_style(column: object, wide: Sequence[str], numeric: set[object]) -> str:
    if column in wide:
        return INLINE["td"] + INLINE["wide"]
    return INLINE["td"] + (INLINE["num"] if column in numeric else "")


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


def markdown_from_html(page: str) -> str:
    """Summaries (:meth:`Summary.html`, one or several in a row) as Markdown: the title and verdict,
    the facts as a list, each table as a pipe table, its note in italics."""
    from lxml import html as lxml_html

    out: list[str] = []
    for box in lxml_html.fragments_fromstring(page):
        if not hasattr(box, "iter"):
            continue
        for el in box.iter():
            cls = el.get("class") or ""
            if "wb-head" in cls:
                out.append("**" + _md(el.find_class("wb-title")[0].text_content()) + "** — "
                           + _md(el.find_class("wb-verdict")[0].text_content()))
            elif "wb-facts" in cls:
                out.append("\n".join("- " + _md(li.text_content()) for li in el.iter("li")))
            elif "wb-caption" in cls:
                out.append("**" + _md(el.text_content()) + "**")
            elif "wb-note" in cls:
                out.append("_" + _md(el.text_content()) + "_")
            elif el.tag == "table":
                heads = [_md(th.text_content()) for th in el.iter("th")]
                rows = [[_md(td.text_content()) for td in tr.iter("td")] for tr in el.iter("tr") if tr.find("td") is not None]
                out.append("\n".join(["| " + " | ".join(heads) + " |", "|" + "---|" * len(heads)]
                                     + ["| " + " | ".join(r) + " |" for r in rows]))
    return "\n\n".join(o for o in out if o.strip("*_ —")) + "\n"


def _md(text: str) -> str:
    """Text safe inside Markdown (and a pipe table's cell)."""
    return " ".join(text.split()).replace("|", "\\|").replace("*", "\\*").replace("_", "\\_")


class MarkdownSummary:
    """Mixin: ``_repr_markdown_`` from the result's own ``_repr_html_`` (frontends without HTML, exports)."""

    def _repr_markdown_(self) -> str:
        return markdown_from_html(self._repr_html_())  # type: ignore[attr-defined]


#: code columns shown with their names beside them (``amenity_code`` 2 -> ``amenity`` Air conditioning)
NAMED_CODES = {"amenity_code": "amenity", "room_amenity_code": "room amenity"}
#: the column beside a content Services row's ``code`` (the hotel amenity code): its facility's name
FACILITY = "facility"
SHOW_ROWS = 50


@pd.api.extensions.register_dataframe_accessor("wb")
class FrameView:
    """``frame.wb.show()``: any frame the workbench returns, as people read it in a notebook: every
    message whole and left-aligned, blanks for missing values (never ``None``, ``<NA>``, ``NaN``,
    ``NaT``), whole numbers without ``.0``, and amenity and facility codes with their names beside them."""

    def __init__(self, frame: pd.DataFrame) -> None:
        self._frame = frame

    def named(self) -> pd.DataFrame:
        """The frame with a name column beside each code column :data:`NAMED_CODES` knows, and a
        :data:`FACILITY` column beside ``code`` on the rows of the content ``Services`` part.

        A column called ``code`` is no sign of a facility (Fees and Taxes have one too): the rows are
        Services rows by the frame's own header map (``attrs["headers"]``: the part of each sheet or
        CSV file, as ``loaders.read_content`` and ``fetch_content_modular`` record it) or, for a frame
        without one, by a ``sheet`` column saying ``Services``
        (:func:`expectations.hotel_amenities.services_rows`). The names: the Facilities meta's, where a
        frame read back through the Facilities API carries them, else ``data/codes/hac.csv``'s. Other
        rows, and codes with no known name, show a blank name."""
        out = self._with_facilities(self._frame)
        for code, label in NAMED_CODES.items():
            if code in out and label not in out:
                from expectations.rooms import amenity_names

                names = amenity_names()
                values = pd.to_numeric(out[code], errors="coerce")
                at = list(out.columns).index(code) + 1
                out = out.copy() if out is self._frame else out
                out.insert(at, label, [names.get(int(v), "") if pd.notna(v) else "" for v in values])
        return out

    @staticmethod
    def _with_facilities(frame: pd.DataFrame) -> pd.DataFrame:
        from expectations.hotel_amenities import FACILITY_NAMES, facility_name, services_rows

        if FACILITY in frame:
            return frame
        rows = services_rows(frame)
        if not rows.any():
            return frame
        known = frame.attrs.get(FACILITY_NAMES)
        out = frame.copy()
        out.insert(list(out.columns).index("code") + 1, FACILITY,
                   [facility_name(c, known) if is_service else "" for c, is_service in zip(out["code"], rows, strict=True)])
        return out

    def show(self, rows: int = SHOW_ROWS) -> Shown:
        """The first ``rows`` rows (all of them: ``rows=len(frame)``) as a table people read: HTML
        through a pandas Styler in Jupyter, plain text elsewhere."""
        named = self.named()
        shown = named.head(rows)
        styler = shown.style.format(cell_text, na_rep="")
        if isinstance(shown.index, pd.RangeIndex):  # row positions say nothing; a named index (a pivot) stays
            styler = styler.hide(axis="index")
        if len(shown) < len(named):
            styler = styler.set_caption(f"The first {len(shown):,} of {count(len(named), 'row')} (all of them: "
                                        f".wb.show(rows={len(named)}))")
        styler = styler.set_table_styles([
            {"selector": "th, td", "props": "text-align:left!important;vertical-align:top;white-space:normal;"
                                           "overflow-wrap:anywhere;max-width:70ch"},
            {"selector": "", "props": "table-layout:auto;border-collapse:collapse"}], overwrite=True)
        return Shown(shown, styler)


class Shown:
    """What ``frame.wb.show()`` returns: ``styler`` (a pandas Styler) for Jupyter, blanks in plain text."""

    def __init__(self, frame: pd.DataFrame, styler: Any) -> None:
        self.frame, self.styler = frame, styler

    def to_html(self) -> str:
        return str(self.styler.to_html())

    def _repr_html_(self) -> str:
        return self.to_html()

    def __repr__(self) -> str:
        return self.frame.astype(object).map(cell_text).to_string(index=not isinstance(self.frame.index, pd.RangeIndex))


def xml_excerpt(body: bytes | str, lines: int = 25) -> str:
    """The first ``lines`` lines of an XML message, pretty-printed (one element a line, never cut
    mid-tag), then how many lines follow: a request shown in a notebook."""
    from lxml import etree

    raw = body.encode() if isinstance(body, str) else body
    root = etree.fromstring(raw, etree.XMLParser(remove_blank_text=True, resolve_entities=False, no_network=True))
    text = etree.tostring(root, pretty_print=True, encoding="unicode").rstrip("\n").split("\n")
    shown = text[:lines]
    rest = len(text) - len(shown)
    return "\n".join(shown) + (f"\n… {count(rest, 'more line')}" if rest else "")


def progress_bar(*args: Any, **kwargs: Any) -> Any:
    """``tqdm.auto.tqdm``, except in a notebook: there the widget bar, once closed, is replaced by
    its last line as text, so a saved or shared notebook shows ``Pushing rates: 100% 19/19``, never
    "Loading widget..." where widgets cannot be drawn (an untrusted or exported notebook)."""
    from tqdm import notebook
    from tqdm.auto import tqdm

    if not issubclass(tqdm, notebook.tqdm) or kwargs.get("disable"):  # a terminal, or no bar
        return tqdm(*args, **kwargs)
    return _text_when_done_class()(*args, **kwargs)


@functools.cache
def _text_when_done_class() -> type:
    """Built on first use: tqdm's notebook module imports ipywidgets."""
    from tqdm.auto import tqdm

    class TextWhenDone(tqdm):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            from IPython.display import display

            super().__init__(*args, display=False, **kwargs)
            self._handle = display(self.container, display_id=True)

        def close(self) -> None:
            if self.disable or getattr(self, "_closed_as_text", False):
                return super().close()
            self._closed_as_text = True
            line = self.format_meter(**self.format_dict)
            super().close()
            if self._handle is not None:
                self._handle.update({"text/plain": line, "text/html": f"<pre>{html.escape(line)}</pre>"}, raw=True)
            return None

    return TextWhenDone

