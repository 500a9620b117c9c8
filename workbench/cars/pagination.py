"""Follow a paginated JSON listing to its end: token or offset, with a page cap and a progress bar.

The service says how to get the next page in ``metadata``: ``next_page`` (a token, sent back as
the whole body ``{"page": <token>}``) or ``next_offset`` (the first body again with ``offset``).
Records are merged in order, each once (by ``id``; a record without one by its whole content).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tqdm import tqdm

from workbench.cars.errors import CarsResponseError

log = logging.getLogger(__name__)

DEFAULT_MAX_PAGES = 50
HARD_MAX_PAGES = 10_000  # every loop stops by itself, whatever the caller asks


@dataclass(frozen=True)
class Page:
    """One answer: its number (1-based), request id, records, metadata and the whole body as received."""

    number: int
    request_id: str | None
    data: list[dict[str, Any]]
    metadata: dict[str, Any]
    body: dict[str, Any]


@dataclass
class Paged:
    """Every record of a listing, each once, with what happened on the way."""

    records: list[dict[str, Any]] = field(default_factory=list)
    pages: list[Page] = field(default_factory=list)
    record_pages: list[int] = field(default_factory=list)  # page number of each record
    duplicates: int = 0
    truncated: bool = False  # the page cap stopped the listing before its end
    total_results: int | None = None
    warnings: list[str] = field(default_factory=list)

    @property
    def request_ids(self) -> list[str | None]:
        return [p.request_id for p in self.pages]


def next_body(first: Mapping[str, Any], metadata: Mapping[str, Any]) -> dict[str, Any] | None:
    """The body that asks for the page after the one whose ``metadata`` is given; ``None`` at the end."""
    token = metadata.get("next_page")
    if token not in (None, "", False):
        return {"page": token}
    offset = metadata.get("next_offset")
    if offset is not None and not isinstance(offset, bool):
        try:
            return {**first, "offset": int(offset)}
        except (TypeError, ValueError):
            raise CarsResponseError(f"`metadata.next_offset` is `{offset!r}`, not a whole number") from None
    return None


def record_key(record: Mapping[str, Any]) -> str:
    """What makes a record the same record: its ``id``, else its whole content."""
    rid = record.get("id")
    if rid is not None and rid != "":
        return f"id:{rid}"
    return "json:" + json.dumps(record, sort_keys=True, default=str)


def collect(fetch: Callable[[dict[str, Any]], dict[str, Any]], body: Mapping[str, Any], *,
            what: str = "results", max_pages: int = DEFAULT_MAX_PAGES, progress: bool = False) -> Paged:
    """Call ``fetch(body)`` for the first page, then for each following one, until the end or the cap."""
    if not 1 <= max_pages <= HARD_MAX_PAGES:
        raise ValueError(f"`max_pages` must be between 1 and {HARD_MAX_PAGES}, got {max_pages}")
    out = Paged()
    seen: set[str] = set()
    seen_requests: set[str] = set()
    request: dict[str, Any] | None = dict(body)
    with tqdm(desc=what, unit=" rec", disable=not progress, leave=False) as bar:
        while request is not None:
            if len(out.pages) == max_pages:
                out.truncated = True
                out.warnings.append(f"stopped after {max_pages} pages (the page cap); more {what} were available")
                log.warning("%s: page cap of %d reached, listing truncated", what, max_pages)
                break
            answer = fetch(request)
            page = _page(answer, len(out.pages) + 1, what)
            out.pages.append(page)
            if out.total_results is None and isinstance(page.metadata.get("total_results"), int):
                out.total_results = page.metadata["total_results"]
                bar.total = out.total_results
                bar.refresh()
            new = 0
            for rec in page.data:
                key = record_key(rec)
                if key in seen:
                    out.duplicates += 1
                    continue
                seen.add(key)
                out.records.append(rec)
                out.record_pages.append(page.number)
                new += 1
            bar.update(new)
            request = next_body(body, page.metadata)
            if request is not None:
                fingerprint = json.dumps(request, sort_keys=True, default=str)
                if fingerprint in seen_requests or fingerprint == json.dumps(dict(body), sort_keys=True, default=str):
                    raise CarsResponseError(f"{what}: the service asked for the same page twice "
                                            f"(page {page.number}, request_id {page.request_id}); stopped to avoid a loop")
                seen_requests.add(fingerprint)
    if out.duplicates:
        out.warnings.append(f"{out.duplicates} {what} repeated across pages were dropped (kept the first)")
    if not out.truncated and out.total_results is not None and out.total_results != len(out.records):
        out.warnings.append(f"the service announced {out.total_results} {what} but {len(out.records)} distinct "
                            "ones arrived")
    return out


def _page(answer: Any, number: int, what: str) -> Page:
    if not isinstance(answer, dict):
        raise CarsResponseError(f"{what}: page {number} is not a JSON object")
    data = answer.get("data")
    if not isinstance(data, list) or not all(isinstance(x, dict) for x in data):
        raise CarsResponseError(f"{what}: page {number} has no `data` list of objects "
                                f"(request_id {answer.get('request_id')})")
    meta = answer.get("metadata")
    rid = answer.get("request_id")
    return Page(number, None if rid is None else str(rid), data, meta if isinstance(meta, dict) else {}, answer)
