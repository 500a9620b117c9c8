"""Push reports: what the platform answered, traced to the spreadsheet rows.

- ``.csv``: one line per spreadsheet row (request, outcome, codes, texts, ruid), rows left out
  for errors included as ``not sent (errors)``;
- ``.xlsx``: a ``Problems`` sheet linking to each flagged cell, the analyst's sheets (values) with
  the rows the platform warned about or refused, and the rows not sent, marked; then ``Requests``
  and ``Rows`` sheets (written with xlsxwriter: seconds for 73,000 prices);
- ``.html``: counts, then every request (with its ruid to quote to support), then the rows that
  got a warning or an error or were not sent.

A push that sent nothing (blocked by errors, a dry run, settings that cannot be used) still gets
its report, from a :class:`NothingSent`: it says nothing was sent, why, and which rows had errors.
Missing values are blank, never ``nan``/``None``/``NaT``.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from workbench.page import card, page
from workbench.reports.about import named, names_of
from workbench.reports.dry_run import DryRunLike, is_dry_run, render_dry_run_html, write_dry_run_report
from workbench.reports.output_files import whole_file, write_text_whole
from workbench.reports.tables import write_table
from workbench.reports.text import DASH, text
from workbench.writers import NOT_SENT_ERRORS, RATES, KindInfo, PushOutcome

FORMATS = (".csv", ".xlsx", ".html")
REQUEST_COLUMNS = RATES.request_columns  # a rates push's (each kind names its own: ``KindInfo.request_columns``)
ROW_COLUMNS = RATES.row_columns
NOT_SENT = NOT_SENT_ERRORS
NOTHING_SENT = "nothing sent"
#: request columns that hold a property's code: shown with its name beside it when known
PROPERTY_KEYS = frozenset({"hotel", "hotel_code", "property"})


@dataclass
class NothingSent:
    """A push that sent nothing: ``reason`` says why; ``not_sent`` lists the rows with errors (the
    columns of a push's ``rows``, e.g. ``RatesCheck.not_sent()``); ``kind``: what was to be pushed."""

    reason: str
    not_sent: pd.DataFrame | None = None
    files: Sequence[Path] = ()
    target: str = ""
    kind: KindInfo = RATES


@dataclass
class _View:
    """What every format shows, from a push result or from a push that sent nothing."""

    kind: KindInfo
    requests: pd.DataFrame
    rows: pd.DataFrame          # sent rows, then the rows not sent
    files: list[Path]
    target: str
    headline: str               # run id and the delta figures, or why nothing was sent
    nothing_sent: str = ""      # the reason, when nothing was sent
    extra: dict[str, str] = field(default_factory=dict)
    names: Mapping[str, str] = field(default_factory=dict)  # property code -> name, where the check knew them

    @property
    def flagged(self) -> pd.DataFrame:
        return self.rows[self.rows["severity"] != "ok"] if len(self.rows) else self.rows


def check_push_report_path(path: str | Path) -> Path:
    """``path`` if its extension names a push report format; else ``ValueError`` saying which do."""
    path = Path(path)
    if path.suffix.lower() not in FORMATS:
        raise ValueError(f"cannot write a push report to `{path.name}`: use a name ending in .csv, .xlsx or .html")
    return path


def write_push_report(result: PushOutcome | NothingSent | DryRunLike, path: str | Path) -> Path:
    """Write a push result (any :class:`~workbench.writers.outcome.PushOutcome`: rates, rooms, content ...),
    a :class:`NothingSent`, or a dry run (what it wrote: :mod:`workbench.reports.dry_run`); the
    extension picks the format (.csv, .xlsx, .html)."""
    path = check_push_report_path(path)
    if is_dry_run(result):
        return write_dry_run_report(result, path)
    view = _view(result)
    suffix = path.suffix.lower()
    if suffix == ".csv":
        return write_table(_rows_table(view), path)
    if suffix == ".html":
        return write_text_whole(path, _html(view))
    from workbench.reports.marked_values import write_marked_values

    with whole_file(path) as tmp:
        write_marked_values(tmp, view.files, _marks(view), problems_sheet="Problems",
                            tables={"Requests": view.requests[view.kind.request_columns], "Rows": _rows_table(view)})
    return path


def render_push_html(result: PushOutcome | NothingSent | DryRunLike) -> str:
    if is_dry_run(result):
        return render_dry_run_html(result)
    return _html(_view(result))


def _view(result: PushOutcome | NothingSent) -> _View:
    if isinstance(result, NothingSent):
        kind = result.kind
        rows = _frame(result.not_sent, kind.row_columns)
        return _View(kind, pd.DataFrame(columns=kind.request_columns), rows, [Path(f) for f in result.files],
                     result.target, f"Nothing was sent: {result.reason}", nothing_sent=result.reason)
    kind = result.kind
    sent = _frame(result.rows, kind.row_columns)
    not_sent = result.not_sent_rows
    rows = pd.concat([f for f in (sent, not_sent) if len(f)], ignore_index=True) if len(sent) or len(not_sent) \
        else sent
    return _View(kind, _frame(result.requests, kind.request_columns), rows, [Path(f) for f in result.files],
                 str(result.target or ""), result.headline(),
                 names=names_of(result.named_frame, result.rows if isinstance(result.rows, pd.DataFrame) else None))


def _frame(frame: pd.DataFrame | None, columns: list[str]) -> pd.DataFrame:
    if frame is None or frame.empty:
        return pd.DataFrame(columns=columns)
    return frame.reindex(columns=[*columns, *[c for c in frame.columns if c not in columns]])


def _rows_table(view: _View) -> pd.DataFrame:
    """The rows as the CSV and the ``Rows`` sheet show them; a push that sent nothing starts with a
    row saying so (outcome ``nothing sent``, the reason as its message)."""
    columns = view.kind.row_columns
    rows = view.rows[columns]
    if view.nothing_sent:
        head = pd.DataFrame([{"outcome": NOTHING_SENT, "severity": "error", "message": view.nothing_sent}],
                            columns=columns)
        rows = pd.concat([head, rows], ignore_index=True) if len(rows) else head
        for c in ("row", "hotel", "nights", "request_id"):  # whole numbers stay whole (never `2.0`)
            if c in rows and pd.api.types.is_numeric_dtype(rows[c]):
                rows[c] = pd.array(rows[c], dtype="Int64")
    return rows


def _marks(view: _View) -> pd.DataFrame:
    """The flagged rows as issues (for the Problems sheet and the marked cells)."""
    f = view.flagged
    ruid = f["ruid"].map(text) if len(f) else pd.Series(dtype=str)
    message = [f"{text(m) or text(o)} (ruid {r})" if r else (text(m) or text(o))
               for m, o, r in zip(f["message"], f["outcome"], ruid, strict=True)]
    outcome = [text(o) for o in f["outcome"]]
    marks = pd.DataFrame({"source": f["source"].map(text), "sheet": f["sheet"].map(text), "row": f["row"],
                          "column": f["column"].map(text), "value": outcome, "rule": f["codes"].map(text),
                          "severity": f["severity"].map(text), "message": message},
                         columns=["source", "sheet", "row", "column", "value", "rule", "severity", "message"])
    if view.nothing_sent:
        head = pd.DataFrame([{"source": "", "sheet": "", "row": pd.NA, "column": "", "value": NOTHING_SENT,
                              "rule": "nothing_sent", "severity": "error",
                              "message": f"Nothing was sent: {view.nothing_sent}"}], columns=marks.columns)
        marks = pd.concat([head, marks], ignore_index=True) if len(marks) else head
    return marks


def _html(view: _View) -> str:
    e = html.escape
    req, rows, flagged, kind = view.requests, view.rows, view.flagged, view.kind
    keys = kind.request_keys
    ok = int((req["outcome"] == "success").sum()) if len(req) else 0
    bad = len(req) - ok
    warn = int((rows["severity"] == "warning").sum()) if len(rows) else 0
    not_sent = int((rows["outcome"] == NOT_SENT).sum()) if len(rows) else 0
    meta = [f"Platform <code>{e(view.target)}</code>"] if view.target else []
    if view.files:
        meta.append("Files: " + ", ".join(f"<code>{e(f.name)}</code>" for f in view.files))
    meta.append(e(view.headline) if not view.nothing_sent else "")
    # the banner's markup is pinned by the push report tests (``<b>Nothing was sent</b>reason``)
    banner = (f"<div class='cards'><div class='card err banner'><b>Nothing was sent</b>{e(view.nothing_sent)}</div>"
              "</div>" if view.nothing_sent else "")
    parts = ["<h1>Push results</h1>", f"<div class='meta'>{' · '.join(m for m in meta if m)}</div>", banner,
             f"<div class='cards'>{card(ok, 'requests applied', 'okc', one='request applied')}"
             f"{card(bad, 'requests refused or failed', 'err', one='request refused or failed')}"
             f"{card(warn, 'rows with warnings', 'warn', one='row with warnings')}"
             f"{card(not_sent, 'rows not sent (errors)', 'err', one='row not sent (errors)')}</div>",
             f"<h2>{e(kind.plural.capitalize())}</h2><table><thead><tr>" + "".join(
                 f"<th>{e(kind.label(k))}</th>" for k in keys) +
             "<th>Outcome</th><th>HTTP</th><th>Codes</th><th>What the platform said</th><th>ruid</th>"
             "<th>Attempts</th><th>Rows</th></tr></thead><tbody>"]
    for r in req.to_dict("records"):
        cls = "error" if r["outcome"] != "success" else ("warning" if text(r["codes"]) else "")
        said = text(r["texts"]) or text(r["error"])
        http = text(r["http_status"]) or ("no answer" if r["outcome"] != "success" else "")
        own = "".join(f"<td>{e(named(r[k], view.names))}</td>" if k in PROPERTY_KEYS else
                      f"<td{' class=' + chr(39) + 'num' + chr(39) if isinstance(r[k], (int, float)) else ''}>"
                      f"{e(text(r[k]))}</td>"
                      for k in keys)
        parts.append(f"<tr class='{cls}'>{own}"
                     f"<td class='sev'>{e(text(r['outcome']))}</td><td>{e(http)}</td><td>{e(text(r['codes']))}</td>"
                     f"<td>{e(said)}</td><td><code>{e(text(r['ruid'], DASH))}</code></td>"
                     f"<td class='num'>{e(text(r['attempts']))}</td><td>{e(text(r['source_rows']))}</td></tr>")
    if req.empty:
        empty = ("Nothing was sent." if view.nothing_sent else
                 "Nothing to send: the platform already has every price." if kind.name == "rates" else
                 f"Nothing to send: the platform already has every {kind.noun} as the sheet says it.")
        parts.append(f"<tr><td colspan='{len(keys) + 7}'>{empty}</td></tr>")
    parts.append("</tbody></table>")
    parts += _ranges_html(view)
    parts.append("<h2>Rows with warnings or errors, and rows not sent</h2><table><thead><tr>"
                 "<th>File</th><th>Sheet</th><th>Row</th><th>Cell</th><th>Outcome</th><th>Codes</th>"
                 "<th>What the platform or the check said</th><th>ruid</th></tr></thead><tbody>")
    for r in flagged.itertuples(index=False):  # each on the cell it concerns (room, rate plan, price ...)
        parts.append(f"<tr class='{e(text(r.severity))}'><td>{e(text(r.source))}</td><td>{e(text(r.sheet))}</td>"
                     f"<td>{e(text(r.row))}</td><td>{e(text(r.column))}</td><td class='sev'>{e(text(r.outcome))}</td>"
                     f"<td>{e(text(r.codes))}</td><td>{e(text(r.message))}</td><td><code>{e(text(r.ruid))}</code></td>"
                     "</tr>")
    if flagged.empty:
        if view.nothing_sent or rows.empty:
            parts.append("<tr><td colspan='8'>No row was sent in this run.</td></tr>")
        else:
            parts.append("<tr><td colspan='8'>Every row was applied without a warning.</td></tr>")
    parts.append("</tbody></table>")
    return page("Push results", "\n".join(parts))


#: a kind whose row lines name their room-rate and nights (availability) also gets them as ranges of nights
RANGE_KEYS = {"hotel", "room", "rate", "first", "last"}


def flagged_ranges(result: PushOutcome | NothingSent) -> pd.DataFrame:
    """The rows with warnings or errors (and the rows not sent) of a kind whose lines name their room-rate and
    nights, summarised as ranges of nights (:func:`workbench.reports.ranges.issue_ranges`: one line per outcome,
    codes and message on consecutive nights, or a weekday a week apart); empty for other kinds."""
    return _ranges_of(_view(result))


def _ranges_of(view: _View) -> pd.DataFrame:
    from workbench.reports.ranges import issue_ranges

    f = view.flagged
    if not RANGE_KEYS <= set(view.kind.row_keys) or f.empty:
        return pd.DataFrame()
    codes = f["codes"].fillna("").astype(str)
    issues = pd.DataFrame({"severity": f["severity"].astype(str).to_numpy(),
                           "rule": codes.where(codes != "", f["outcome"].astype(str)).to_numpy(),
                           "message": f["message"].fillna("").astype(str).to_numpy(),
                           "source": f["source"].to_numpy(), "sheet": f["sheet"].to_numpy(),
                           "row": f["row"].astype("Int64").to_numpy(), "column": f["column"].to_numpy(),
                           "value": f["outcome"].astype(str).to_numpy()})
    located = pd.DataFrame({"hotel_code": pd.array(f["hotel"].to_numpy(), dtype="Int64"),
                            "inv_type_code": f["room"].astype("string").to_numpy(),
                            "rate_plan_code": f["rate"].astype("string").replace("", pd.NA).to_numpy(),
                            "first": pd.to_datetime(f["first"]).to_numpy(), "last": pd.to_datetime(f["last"]).to_numpy()})
    return issue_ranges(issues, located).lines


def _ranges_html(view: _View) -> list[str]:
    from workbench.reports.ranges import nights_text, weekdays_text

    e = html.escape
    lines = _ranges_of(view)
    if lines.empty:
        return []
    nights, days = nights_text(lines), weekdays_text(lines)
    out = ["<h2>The same, as ranges of nights</h2><table><thead><tr><th>Outcome</th><th>Codes</th><th>Property</th>"
           "<th>Room type</th><th>Rate plan</th><th>Nights</th><th>Weekdays</th><th>File</th><th>Sheet</th>"
           "<th>Rows</th><th>What the platform or the check said</th></tr></thead><tbody>"]
    for r, n, d in zip(lines.itertuples(index=False), nights, days, strict=True):
        out.append(f"<tr class='{e(text(r.severity))}'><td class='sev'>{e(text(r.value))}</td><td>{e(text(r.rule))}"
                   f"</td><td>{e(text(r.hotel_code))}</td><td>{e(text(r.inv_type_code))}</td>"
                   f"<td>{e(text(r.rate_plan_code))}</td><td>{e(n)}</td><td>{e(d)}</td><td>{e(text(r.source))}</td>"
                   f"<td>{e(text(r.sheet))}</td><td>{e(text(r.rows))}</td><td>{e(text(r.message))}</td></tr>")
    out.append("</tbody></table>")
    return out
