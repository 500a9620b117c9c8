"""Affiliate links: put our affiliate id and a campaign ``label`` on a result's ``url.web`` / ``url.app``.

The affiliate id travels as ``aid`` on web links and ``affiliate_id`` on app links. Only those
parameters and ``label`` are touched: every other query parameter keeps its position and its
exact bytes (no decode/re-encode round trip), as do the scheme, host, path and fragment. New
values are percent-encoded (``quote(value, safe="")``), so a label like ``summer & more/2026``
cannot break the query.
"""

from __future__ import annotations

from typing import Literal
from urllib.parse import quote, unquote_plus, urlsplit

import pandas as pd

LinkKind = Literal["web", "app"]
AFFILIATE_PARAM: dict[str, str] = {"web": "aid", "app": "affiliate_id"}


def _set_params(query: str, updates: dict[str, str]) -> str:
    """Replace the first occurrence of each key in ``updates`` in place, drop repeats, append the rest."""
    out: list[str] = []
    done: set[str] = set()
    for part in query.split("&") if query else []:
        key = unquote_plus(part.split("=", 1)[0])
        if key in updates:
            if key not in done:
                out.append(f"{quote(key, safe='')}={quote(updates[key], safe='')}")
                done.add(key)
            continue
        out.append(part)
    out += [f"{quote(k, safe='')}={quote(v, safe='')}" for k, v in updates.items() if k not in done]
    return "&".join(out)


def with_affiliate(url: str, *, kind: LinkKind, affiliate_id: str | None = None, label: str | None = None) -> str:
    """``url`` with the affiliate id replaced (``aid`` for web, ``affiliate_id`` for app) and ``label`` set.

    ``None`` leaves that parameter as it is; every other part of the link is kept byte for byte.
    """
    if kind not in AFFILIATE_PARAM:
        raise ValueError(f"link kind must be `web` or `app`, got `{kind}`")
    if label is not None and not label.strip():
        raise ValueError("`label` is empty; give the campaign name to attribute bookings to, or leave it out")
    updates: dict[str, str] = {}
    if affiliate_id is not None:
        if not str(affiliate_id).strip():
            raise ValueError("`affiliate_id` is empty")
        updates[AFFILIATE_PARAM[kind]] = str(affiliate_id)
    if label is not None:
        updates["label"] = label
    if not updates:
        return url
    if not urlsplit(url).scheme:
        raise ValueError(f"`{url}` is not an absolute link (no scheme)")
    head, hash_mark, fragment = url.partition("#")  # spliced, not re-assembled: nothing else moves
    base, _, query = head.partition("?")
    return f"{base}?{_set_params(query, updates)}{hash_mark}{fragment}"


def affiliate_links(frame: pd.DataFrame, *, affiliate_id: str | None = None, label: str | None = None,
                    web_column: str = "url_web", app_column: str = "url_app") -> pd.DataFrame:
    """A copy of ``frame`` whose web and app link columns carry ``affiliate_id`` and ``label``."""
    out = frame.copy()
    for column, kind in ((web_column, "web"), (app_column, "app")):
        if column in out.columns:
            out[column] = out[column].map(
                lambda u, k=kind: u if pd.isna(u) or u == "" else with_affiliate(str(u), kind=k,
                                                                                affiliate_id=affiliate_id, label=label))
    return out
