"""One short message per property, in plain words an account manager can send: what is wrong,
from which date, what to do. Markdown and HTML from the same sentences.

Only the findings frame goes in, so nothing else (settings, addresses, request ids) can come out;
finding codes are never printed, every room and rate is named with its name and platform id.
Names are typed by properties: in Markdown they are escaped too (:func:`markdown_text`), since
Markdown renderers pass raw HTML such as ``<script>`` through.
"""

from __future__ import annotations

import datetime as dt
import html
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from workbench.health.findings import CLOSED_WINDOW, YEAR

_MARKDOWN = re.compile(r"([\\`*_\[\]|~])")
HEADINGS = {"now": "Guests cannot book these now", "soon": "These stop being bookable soon",
            "advice": "Good to know"}


def markdown_text(text: str) -> str:
    """``text`` shown as typed in Markdown: HTML escaped (``<script>`` stays text) and the marks that
    make emphasis, code, links or tables backslash-escaped."""
    return _MARKDOWN.sub(r"\\\1", html.escape(text, quote=False))


def human_date(day: object) -> str:
    """``2026-12-01`` -> ``1 December 2026``."""
    d = pd.Timestamp(day)
    return f"{d.day} {d:%B %Y}"


def human_range(start: object, end: object) -> str:
    s, e = pd.Timestamp(start), pd.Timestamp(end)
    if s == e:
        return f"on {human_date(s)}"
    if (s.year, s.month) == (e.year, e.month):
        return f"from {s.day} to {e.day} {e:%B %Y}"
    if s.year == e.year:
        return f"from {s.day} {s:%B} to {human_date(e)}"
    return f"from {human_date(s)} to {human_date(e)}"


def _thing(r: object) -> str:
    room = r.room_name if isinstance(r.room_name, str) and r.room_name else None  # type: ignore[attr-defined]
    rate = r.rate_name if isinstance(r.rate_name, str) and r.rate_name else None  # type: ignore[attr-defined]
    room_part = f"{room} (room {r.inv_type_code})" if room else f"room {r.inv_type_code}"  # type: ignore[attr-defined]
    if pd.isna(r.rate_plan_code):  # type: ignore[attr-defined]
        return room_part
    rate_part = f"{rate} (rate {r.rate_plan_code})" if rate else f"rate {r.rate_plan_code}"  # type: ignore[attr-defined]
    return f"{room_part}, {rate_part}"


def sentence(r: object, as_of: dt.date) -> tuple[str, str]:
    """(what is wrong, what to do) for one finding row, in plain words."""
    f = r.finding  # type: ignore[attr-defined]
    start, end = r.from_date, r.to_date  # type: ignore[attr-defined]
    year_end = human_date(pd.Timestamp(as_of) + pd.Timedelta(days=YEAR - 1))
    if f == "not_priced":
        return ("is open for booking on our side but has no prices at all, so guests cannot book it.",
                f"Please connect it in your system and load prices up to at least {year_end}, or tell us to "
                "switch it off.")
    if f == "not_sent":
        return ("has prices ready on our side that have not reached the platform yet, so guests cannot book it.",
                "No action needed from you: we will send them and confirm.")
    if f == "unknown_to_platform":
        return (f"has prices from {human_date(start)}, but the platform does not offer this room with this "
                "rate, so guests cannot book it.",
                "Please check that this room and rate are switched on for each other in your extranet, or tell "
                "us which room and rate they should be.")
    if f == "ended":
        return (f"cannot be booked for any night from {human_date(as_of)}: the prices ran out.",
                f"Please load prices from {human_date(as_of)} up to at least {year_end}.")
    if f == "ending_soon":
        last = pd.Timestamp(start) - pd.Timedelta(days=1)
        return (f"can be booked only until the night of {human_date(last)}; after that it cannot be booked.",
                f"Please load prices after {human_date(last)}, up to at least {year_end}.")
    if f == "gap":
        when = human_range(start, end) if pd.notna(start) else "on some nights"
        nights = f" ({int(r.nights)} nights in all)" if pd.notna(r.nights) and int(r.nights) > 1 else ""  # type: ignore[attr-defined]
        those = "that night" if pd.notna(start) and pd.Timestamp(start) == pd.Timestamp(end) else "those nights"
        return (f"has no prices {when}{nights}, so guests cannot book {those}.",
                "Please load prices for these nights, or price them 0 if you mean to close them.")
    if f == "short_of_year":
        return (f"has prices for {int(r.nights)} nights ahead; the platform asks for at least a full year.",  # type: ignore[attr-defined]
                f"Please load prices up to at least {year_end}.")
    if f == "closed":
        share = int(r.nights) / CLOSED_WINDOW  # type: ignore[attr-defined]
        return (f"is closed (priced 0) on {int(r.nights)} of the next {CLOSED_WINDOW} nights ({share:.0%}), "  # type: ignore[attr-defined]
                "so guests cannot book those nights.",
                "If these nights should be open, please load prices above 0 for them.")
    if f == "child_rate_priced":
        return ("receives its own prices, but it is linked to another rate and takes its price from it.",
                "Please price the main rate instead, or tell us if this rate should have its own prices.")
    if f == "read_only_rate_priced":
        return ("receives prices, but the platform sets this rate's prices itself.",
                "No action needed from you: we will stop sending prices for it.")
    if f == "no_kitchen":
        return ("is an apartment-type room without a kitchen or kitchenette listed, and the platform does not "
                "let guests book such a room.",
                "Please add the kitchen or kitchenette to the room's facilities (or tell us, and we will).")
    if f == "inactive_room_priced":
        return ("has prices ahead, but the room is switched off on the platform, so guests cannot book it.",
                "Please switch the room on again in your extranet, or tell us to stop sending its prices.")
    return ("needs a look.", str(r.fix))  # type: ignore[attr-defined]


@dataclass
class Letter:
    hotel_code: int
    hotel_name: str
    markdown: str
    html: str


def write_letter(hotel_code: int, hotel_name: str | None, findings: pd.DataFrame | Sequence[Any],
                 as_of: dt.date) -> Letter:
    """The message for one property from its rows of the findings frame (or those rows as tuples,
    ``findings.itertuples()``, when writing thousands)."""
    rows = list(findings.itertuples(index=False)) if isinstance(findings, pd.DataFrame) else list(findings)
    name = hotel_name if isinstance(hotel_name, str) and hotel_name else f"Property {hotel_code}"
    title = f"{name}: what guests can and cannot book"
    intro = (f"We checked the prices and availability of {name} (property {hotel_code}) on the platform on "
             f"{human_date(as_of)}.")
    md = [f"# {markdown_text(title)}", "", markdown_text(intro), ""]
    hx = [f"<h1>{html.escape(title)}</h1>", f"<p>{html.escape(intro)}</p>"]
    if not rows:
        ok = ("Everything we checked can be booked: every room and rate has prices for at least a year "
              "ahead, without gaps. No action needed.")
        md += [ok, ""]
        hx.append(f"<p>{html.escape(ok)}</p>")
    for severity, heading in HEADINGS.items():
        part = [r for r in rows if r.severity == severity]
        if not part:
            continue
        md += [f"## {heading}", ""]
        hx.append(f"<h2>{html.escape(heading)}</h2><ul>")
        for r in part:
            thing = _thing(r)
            what, todo = sentence(r, as_of)
            md.append(f"- **{markdown_text(thing)}** {markdown_text(what)} {markdown_text(todo)}")
            hx.append(f"<li><strong>{html.escape(thing)}</strong> {html.escape(what)} {html.escape(todo)}</li>")
        md.append("")
        hx.append("</ul>")
    closing = "If anything here is not what you expect, reply to this message and we will look at it together."
    md += [closing, ""]
    hx.append(f"<p>{html.escape(closing)}</p>")
    page = ("<!doctype html><html lang='en'><head><meta charset='utf-8'>"
            f"<title>{html.escape(title)}</title><style>body{{font-family:system-ui,sans-serif;max-width:46rem;"
            "margin:2rem auto;line-height:1.5;color:#1f2328}} li{{margin:.4rem 0}}</style></head><body>"
            + "\n".join(hx) + "</body></html>\n")
    return Letter(int(hotel_code), name, "\n".join(md), page)
