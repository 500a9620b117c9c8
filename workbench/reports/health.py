"""Health reports and letters.

- ``.csv``: the findings frame;
- ``.xlsx``: sheets ``Findings``, ``Properties`` and ``RoomRates`` (how far each is priced);
- ``.html``: counts, then one section per property: its findings with their fixes, and a timeline
  of each room-rate's priced ranges, gaps and closed nights, the as-of night and the horizon;
- letters: one Markdown and one HTML message per property (``<hotel>.md``, ``<hotel>.html``).
"""

from __future__ import annotations

import html
from pathlib import Path

import pandas as pd

from workbench.health import FINDINGS, PropertyHealth
from workbench.health.coverage import KEY
from workbench.health.letters import write_letter
from workbench.page import card, page, with_code
from workbench.reports.cells import XLSXWRITER_OPTIONS, write_csv
from workbench.reports.output_files import whole_file, write_text_whole
from workbench.wording import count

ROOM_RATE_COLUMNS = ["hotel_code", "hotel_name", "inv_type_code", "room_name", "rate_plan_code", "rate_name", "role",
                     "on_platform", "first_night", "bookable_until", "nights_ahead", "gap_nights", "closed_nights",
                     "sheet_until"]
TIMELINE_LABELS = ["room_name", "rate_name", "role", "on_platform", "platform_known"]
HEALTH_CSS = """
.wb-report tr.now td.sev{color:var(--jp-error-color1,#cf222e);font-weight:600}
.wb-report tr.soon td.sev{color:var(--jp-warn-color1,#9a6700);font-weight:600}
.wb-report tr.advice td.sev{color:var(--jp-content-font-color2,#57606a)} .wb-report section{margin-bottom:2.5rem}
.wb-report .timeline svg{max-width:100%;height:auto}
"""


def write_health_report(health: PropertyHealth, path: str | Path, *, timelines: bool = True) -> Path:
    """Write ``health`` to ``path``; the extension picks the format (.csv, .xlsx, .html)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".csv":
        return write_csv(health.findings, path, date_format="%Y-%m-%d")
    if suffix == ".xlsx":
        with whole_file(path) as tmp:
            _xlsx(health, tmp)
        return path
    if suffix == ".html":
        return write_text_whole(path, render_health_html(health, timelines=timelines))
    raise ValueError(f"cannot write a health report to `{path.name}`: use a name ending in .csv, .xlsx or .html")


def _dates(frame: pd.DataFrame) -> pd.DataFrame:
    out = frame.copy()
    for c in out.columns:
        if pd.api.types.is_datetime64_any_dtype(out[c]):
            out[c] = out[c].dt.date
    return out


def _xlsx(health: PropertyHealth, path: Path) -> None:
    sheets = {"Findings": health.findings, "Properties": health.properties(),
              "RoomRates": health.room_rates[ROOM_RATE_COLUMNS]}
    with pd.ExcelWriter(path, engine="xlsxwriter", date_format="yyyy-mm-dd", datetime_format="yyyy-mm-dd",
                        engine_kwargs={"options": XLSXWRITER_OPTIONS}) as xw:
        for name, frame in sheets.items():
            out = _dates(frame)
            out.to_excel(xw, sheet_name=name, index=False)
            ws = xw.sheets[name]
            ws.freeze_panes(1, 0)
            ws.autofilter(0, 0, max(len(out), 1), len(out.columns) - 1)
            for i, col in enumerate(out.columns):
                sample = [str(col), *(str(v) for v in out[col].head(200).tolist())]
                ws.set_column(i, i, min(70, max(8, max(map(len, sample)) + 2)))


def render_health_html(health: PropertyHealth, *, timelines: bool = True) -> str:
    e = html.escape
    f = health.findings
    counts = f["severity"].value_counts().to_dict()
    props = health.properties()
    verdict = (card("OK", "nothing blocks bookings within the horizon", "okc") if health.ok else
               card("Action needed", "bookings are blocked now or within the horizon", "err"))
    read = health.sources.phrases()
    parts = ["<h1>Property health</h1>",
             f"<div class='meta'>As of {health.as_of:%Y-%m-%d} (CET) · horizon {health.horizon} nights · "
             f"{count(len(props), 'property', 'properties')} · {count(len(health.room_rates), 'room-rate')}"
             f" · read: {e(', '.join(read) if read else 'nothing')}</div>",
             f"<div class='cards'>{verdict}{card(int(counts.get('now', 0)), 'block bookings now', 'err')}"
             f"{card(int(counts.get('soon', 0)), 'block bookings within ' + count(health.horizon, 'night'), 'warn')}"
             f"{card(int(counts.get('advice', 0)), 'advice')}</div>"]
    if health.notes:
        parts.append("<h2>Not checked</h2><ul>" + "".join(f"<li>{with_code(n)}</li>" for n in health.notes) + "</ul>")
    parts.append("<h2>What the findings mean</h2><table><thead><tr><th>Finding</th><th>Meaning</th><th>Found</th>"
                 "</tr></thead><tbody>")
    found = f["finding"].value_counts().to_dict()
    for code, meaning in FINDINGS.items():
        parts.append(f"<tr><td><code>{e(code)}</code></td><td>{e(meaning)}</td><td class='num'>"
                     f"{found.get(code, 0)}</td></tr>")
    parts.append("</tbody></table>")
    by_hotel = dict(tuple(f.groupby("hotel_code", sort=False))) if len(f) else {}
    rates_by_hotel = dict(tuple(health.room_rates.groupby("hotel_code", sort=False)))
    order = props.assign(_w=props["worst"].map({"now": 0, "soon": 1, "advice": 2}).fillna(3)) \
        .sort_values(["_w", "hotel_code"])
    ranges = None
    if timelines:
        ranges = health.timeline(order["hotel_code"].tolist())
        ranges_by_hotel = dict(tuple(ranges.groupby("hotel_code", sort=False))) if len(ranges) else {}
    for p in order.itertuples(index=False):
        name = p.hotel_name if isinstance(p.hotel_name, str) else ""
        parts.append(f"<section><h2>{e(name or 'Property')} <code>{p.hotel_code}</code></h2>"
                     f"<div class='meta'>{p.room_rates} room-rates · {p.now} now · {p.soon} soon · {p.advice} advice"
                     "</div>")
        hf = by_hotel.get(p.hotel_code)
        if hf is None or hf.empty:
            parts.append("<p>Nothing found: every room-rate is priced a year ahead without gaps.</p>")
        else:
            parts.append("<table><thead><tr><th>Severity</th><th>Room</th><th>Rate</th><th>Finding</th><th>From</th>"
                         "<th>What</th><th>Fix</th></tr></thead><tbody>")
            for r in hf.itertuples(index=False):
                room = f"{r.inv_type_code}" + (f" {r.room_name}" if isinstance(r.room_name, str) else "")
                rate = "" if pd.isna(r.rate_plan_code) else f"{r.rate_plan_code}" + (
                    f" {r.rate_name}" if isinstance(r.rate_name, str) else "")
                start = "" if pd.isna(r.from_date) else f"{r.from_date:%Y-%m-%d}"
                parts.append(f"<tr class='{e(r.severity)}'><td class='sev'>{e(r.severity)}</td><td>{e(room)}</td>"
                             f"<td>{e(rate)}</td><td><code>{e(r.finding)}</code></td><td>{start}</td>"
                             f"<td>{e(str(r.message))}</td><td>{e(str(r.fix))}</td></tr>")
            parts.append("</tbody></table>")
        if timelines and ranges is not None:
            from workbench.health.timeline import timeline_svg

            rows = rates_by_hotel.get(p.hotel_code)
            if rows is not None and len(rows):
                hr = ranges_by_hotel.get(p.hotel_code, ranges.iloc[:0])
                parts.append("<div class='timeline'>" + timeline_svg(hr, rows[[*KEY, *TIMELINE_LABELS]],
                                                                     as_of=health.as_of, horizon=health.horizon)
                             + "</div>")
        parts.append("</section>")
    return page("Property health", "\n".join(parts), css=HEALTH_CSS)


def write_letters(health: PropertyHealth, directory: str | Path) -> list[Path]:
    """One message per property: ``<hotel>.md`` and ``<hotel>.html`` in ``directory``."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    props = health.properties()
    by_hotel: dict[int, list] = {}
    for r in health.findings.itertuples(index=False):  # one pass, not one filter per property
        by_hotel.setdefault(int(r.hotel_code), []).append(r)
    written = []
    for p in props.itertuples(index=False):
        letter = write_letter(int(p.hotel_code), p.hotel_name if isinstance(p.hotel_name, str) else None,
                              by_hotel.get(int(p.hotel_code), []), health.as_of, health.sources)
        for ext, text in (("md", letter.markdown), ("html", letter.html)):
            written.append(write_text_whole(out / f"{letter.hotel_code}.{ext}", text))
    return written
