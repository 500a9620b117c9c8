"""The report of a dry run: what was written (requests, messages, prices per property), never "nothing
was sent" in red, since writing the requests without sending them is what a dry run is for.

- ``.csv``: one line per request written (file, property, what, messages, cells, rows, SHA-256),
  whole numbers written as whole numbers;
- ``.xlsx``: the same as a sheet ``Written``;
- ``.html``: the figures in neutral colours, a table per property, then every request.

A dry run is anything with a ``directory`` and a ``manifest`` (``workbench.flows.rates.DryRun``; not
imported: flows sit above reports).
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Protocol

import pandas as pd
from typing_extensions import TypeIs

from workbench.page import card, heading, page
from workbench.reports.about import named, names_of
from workbench.reports.output_files import write_text_whole
from workbench.reports.tables import write_table
from workbench.reports.text import text
from workbench.wording import count

#: the manifest's columns a report shows, in order (the others stay in manifest.csv)
WRITTEN_COLUMNS = ["file", "property", "what", "messages", "cells", "source_rows", "sha256"]
MAX_HTML_REQUESTS = 5_000


class DryRunLike(Protocol):
    directory: Path
    manifest: pd.DataFrame


def is_dry_run(result: object) -> TypeIs[DryRunLike]:
    """A dry run's result (what it wrote: ``directory`` and ``manifest``), not a push's."""
    return hasattr(result, "directory") and isinstance(getattr(result, "manifest", None), pd.DataFrame)


def written_table(result: DryRunLike) -> pd.DataFrame:
    """The requests written, one line each; counts as integers."""
    m = result.manifest
    out = m.reindex(columns=WRITTEN_COLUMNS).copy()
    if "property" in m and "hotel" in m:
        out["property"] = m["property"].where(m["property"].map(text) != "", m["hotel"])
    for c in ("messages", "cells"):
        out[c] = pd.array(pd.to_numeric(out[c], errors="coerce"), dtype="Int64")
    return out


def write_dry_run_report(result: DryRunLike, path: Path) -> Path:
    """Write the dry run's report; the extension picks the format (checked by the caller)."""
    table = written_table(result)
    if path.suffix.lower() == ".html":
        return write_text_whole(path, render_dry_run_html(result))
    return write_table(table, path, sheet_name="Written")


def render_dry_run_html(result: DryRunLike, names: dict[str, str] | None = None) -> str:
    e = html.escape
    table = written_table(result)
    names = names or dict(names_of(result.manifest))
    skipped = int(getattr(result, "skipped_rows", 0) or 0)
    per = table.assign(_p=table["property"].map(text)).groupby("_p", sort=True).agg(
        requests=("file", "size"), messages=("messages", "sum"), cells=("cells", "sum"))
    cards = [card(len(table), "requests written", "neutral", one="request written"),
             card(int(table["messages"].sum()), "messages", one="message"),
             card(int(table["cells"].sum()), "prices", one="price"), card(len(per), "properties", one="property")]
    if skipped:
        cards.append(card(skipped, "prices with errors left out", "warn", one="price with errors left out"))
    parts = ["<h1>Dry run: requests written, nothing sent</h1>",
             f"<div class='meta'>Written to <code>{e(str(result.directory))}</code> (one file per request, listed "
             "in <code>manifest.csv</code>) · send them with <code>workbench push requests</code></div>",
             f"<div class='cards'>{''.join(cards)}</div>",
             "<h2>By property</h2><table><thead><tr><th>Property</th><th>Requests</th><th>Messages</th><th>Prices</th>"
             "</tr></thead><tbody>"]
    for code, r in per.iterrows():
        parts.append(f"<tr><td>{e(named(code, names))}</td><td class='num'>{int(r.requests):,}</td>"
                     f"<td class='num'>{int(r.messages):,}</td><td class='num'>{int(r.cells):,}</td></tr>")
    if per.empty:
        parts.append("<tr><td colspan='4'>No request was written: the platform already has every price.</td></tr>")
    parts.append("</tbody></table>")
    shown = table.head(MAX_HTML_REQUESTS)
    if len(shown):
        cols = ["file", "property", "what", "messages", "cells", "source_rows"]
        parts.append(f"<h2>Requests written ({count(len(table), 'request')})</h2><table><thead><tr>"
                     + "".join(f"<th>{e(heading(c))}</th>" for c in cols) + "</tr></thead><tbody>")
        for r in shown[cols].itertuples(index=False):
            parts.append(f"<tr><td><code>{e(text(r.file))}</code></td><td>{e(named(r.property, names))}</td>"
                         f"<td>{e(text(r.what))}</td><td class='num'>{e(text(r.messages))}</td>"
                         f"<td class='num'>{e(text(r.cells))}</td><td>{e(text(r.source_rows))}</td></tr>")
        parts.append("</tbody></table>")
        if len(shown) < len(table):
            parts.append(f"<p class='note'>The first {len(shown):,} of {len(table):,}; all of them: the CSV report "
                         "or manifest.csv.</p>")
    return page("Dry run", "\n".join(parts))
