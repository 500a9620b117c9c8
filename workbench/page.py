"""The one page template of every HTML page the workbench writes (validation, plan, push and health
reports, the letters) and the words they share: cards, headings, counts, code in messages.

Every page is ``<body><div class="wb-report">…</div></body>`` with the stylesheet scoped to that
container, so a report shown inside another page (a notebook's output) restyles nothing else.
Colours come from JupyterLab's ``--jp-*`` variables when the page sits in JupyterLab (its dark
theme included) and fall back to a light page on their own.
"""

from __future__ import annotations

import html
import re

from workbench.wording import agree
from workbench.wording import count as count  # the pages' name for it, kept

PAGE_CLASS = "wb-report"
#: every selector starts with the container class; the alignment is ``!important`` because
#: JupyterLab right-aligns output tables with a more specific rule
PAGE_CSS = """
.wb-report{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:1.5rem 1rem;line-height:1.45;
  color:var(--jp-content-font-color1,#1f2328);background:var(--jp-layout-color0,#fff)}
.wb-report h1{font-size:1.5rem;margin-bottom:.2rem} .wb-report h2{font-size:1.2rem;margin:1.6rem 0 .4rem}
.wb-report .meta{color:var(--jp-content-font-color2,#57606a);margin-bottom:1.5rem}
.wb-report .cards{display:flex;flex-wrap:wrap;gap:1rem;margin:1rem 0 1.5rem}
.wb-report .card{padding:.8rem 1.2rem;border-radius:8px;min-width:8rem;background:var(--jp-layout-color2,#f6f8fa);
  color:var(--jp-content-font-color1,#1f2328)}
.wb-report .card b{display:block;font-size:1.6rem}
.wb-report .err{background:var(--jp-error-color3,#ffebe9);color:#1f2328}
.wb-report .warn{background:var(--jp-warn-color3,#fff8c5);color:#1f2328}
.wb-report .okc{background:var(--jp-success-color3,#dafbe1);color:#1f2328}
.wb-report .neutral{background:var(--jp-layout-color2,#f6f8fa)}
.wb-report table{border-collapse:collapse;table-layout:auto;width:100%;font-size:.9rem;margin-bottom:2rem}
.wb-report th,.wb-report td{border:0;border-bottom:1px solid var(--jp-border-color2,#d0d7de);padding:.35rem .5rem;
  text-align:left!important;vertical-align:top;white-space:normal;overflow-wrap:break-word;max-width:none;
  color:inherit;background:transparent}
.wb-report th{background:var(--jp-layout-color2,#f6f8fa);color:var(--jp-content-font-color1,#1f2328);position:sticky;top:0}
.wb-report tr.error td.sev{color:var(--jp-error-color1,#cf222e);font-weight:600}
.wb-report tr.warning td.sev{color:var(--jp-warn-color1,#9a6700);font-weight:600}
.wb-report td.num{text-align:right!important}
.wb-report code{background:var(--jp-layout-color2,#f6f8fa);color:inherit;padding:0 .2rem;word-break:break-all}
.wb-report td code{display:inline-block;min-width:12ch}
.wb-report .note{color:var(--jp-content-font-color2,#57606a);margin:.2rem 0 1rem}
.wb-report.letter{max-width:46rem;margin:2rem auto} .wb-report.letter li{margin:.4rem 0}
"""
#: the names people read for the columns the pages show (anything else: its words, capitalised)
HEADINGS = {"hotel_code": "Property", "hotel": "Property", "hotel_name": "Name", "inv_type_code": "Room",
            "inv_code": "Room", "rate_plan_code": "Rate", "currency_code": "Currency", "change_pct": "Change %",
            "source": "File", "sheet": "Sheet", "row": "Row", "column": "Column", "rule": "Rule",
            "message": "What to do", "nights": "Nights", "text": "Change", "request_id": "Request",
            "http_status": "HTTP", "ruid": "ruid", "source_rows": "Rows"}
_CODE = re.compile(r"`([^`]+)`")


def page(title: str, body: str, *, css: str = "", script: str = "", variant: str = "") -> str:
    """A whole page: ``body`` (HTML) in the report container under the shared stylesheet."""
    cls = f"{PAGE_CLASS} {variant}".strip()
    tail = f"<script>{script}</script>" if script else ""
    return (f"<!doctype html><html lang='en'><head><meta charset='utf-8'><meta name='viewport' "
            f"content='width=device-width,initial-scale=1'><title>{html.escape(title)}</title>"
            f"<style>{PAGE_CSS}{css}</style></head><body><div class='{cls}'>{body}{tail}</div></body></html>\n")


def card(figure: str | int, label: str, tone: str = "neutral", one: str = "") -> str:
    """One figure above its label (the stylesheet makes the figure a block of its own; the markup
    ``<b>10</b>errors`` is the one the reports have always had). ``one``: the label when the figure
    is exactly 1 (``error`` beside ``errors``), so a card never reads ``1 errors``."""
    shown = f"{figure:,}" if isinstance(figure, int) else figure
    if one and isinstance(figure, int):
        label = agree(figure, one, label)
    return f"<div class='card {tone}'><b>{html.escape(shown)}</b>{html.escape(label)}</div>"


def heading(column: str) -> str:
    """``hotel_code`` -> ``Property``; ``rooms_to_sell`` -> ``Rooms to sell``."""
    return HEADINGS.get(column) or (column.replace("_", " ").capitalize() if "_" in column else column)


def with_code(text: str) -> str:
    """``text`` escaped, with its `backticked` names shown as code instead of printed backticks."""
    return _CODE.sub(lambda m: f"<code>{m.group(1)}</code>", html.escape(text, quote=False))


def plain(text: str) -> str:
    """``text`` without the backticks that mark names (for a console line or a CSV cell)."""
    return _CODE.sub(lambda m: m.group(1), text)
