"""Property content (spec E4) from workbooks: load and check, with the platform's lookups when reachable.

>>> from workbench import check_content
>>> check = check_content("data/samples/content.xlsx", today=dt.date(2026, 12, 1))
>>> check                      # in Jupyter: the verdict, counts by rule, the first issues
>>> check.parts["Contacts"]    # the canonical frames, one per part (loaders.read_content)

The platform's lists (currencies, countries, city tax categories: spec E5) come from ``lookups``
when given, else from the platform named by ``settings`` (cached a day, see
``workbench.platform.lookups``); without either, the rules needing them are not run and one
``not_checked`` warning says so for each. Pushing is ``workbench.flows.content_push``'s.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

import pandas as pd

from expectations import ContentLookups, cet_today, validate_content
from expectations.sunset import GoneElement, sunset_content
from loaders import read_content
from loaders.issues import combine
from workbench.flows.checked import IssuesView, refuse_other_kind
from workbench.platform import (
    DEFAULT_CACHE,
    SHIPPED,
    LookupCache,
    Lookups,
    fetch_lookups,
    shipped_currencies,
)
from workbench.reports.about import describe, facility_labels, names_from, row_map
from workbench.transport.operations import gone_elements
from workbench.wording import fact

if TYPE_CHECKING:
    from workbench.config import Settings

PathLike = str | Path


@dataclass(repr=False)
class ContentCheck(IssuesView):
    """A loaded and validated content workbook: the parts (one frame each), the issues, and where the
    platform's lists came from (``notes``)."""

    parts: dict[str, pd.DataFrame]
    issues: pd.DataFrame
    files: list[Path] = field(default_factory=list)
    lookups: ContentLookups = field(default_factory=ContentLookups)
    notes: list[str] = field(default_factory=list)
    title: ClassVar[str] = "Content check"

    @property
    def properties(self) -> pd.DataFrame:
        """One row per property on the Property sheet: its key, whether it is new, name and country."""
        prop = self.parts["Property"]
        new = (prop["notif_type"].str.casefold().eq("new").fillna(False)
               | (prop["notif_type"].isna() & prop["hotel_code"].isna()))
        return pd.DataFrame({"property": prop["property"], "hotel_code": prop["hotel_code"],
                             "custom_id": prop["custom_id"], "hotel_name": prop["hotel_name"],
                             "new": new.astype(bool), "latitude": prop["latitude"], "longitude": prop["longitude"]})

    @property
    def locations(self) -> pd.DataFrame:
        """Where each property is: its coordinates, the country of its address (the ``PhysicalLocation``
        contact) and the country its coordinates fall in (offline country outlines, the same as the
        ``coordinates_country`` rule), and whether the two agree (NA: coordinates or country missing)."""
        from expectations.content_geo import located

        props = self.properties[["property", "hotel_name", "new", "latitude", "longitude"]]
        contacts = self.parts["Contacts"]
        physical = contacts[contacts["profile_type"].str.casefold().eq("physicallocation").fillna(False)
                            & contacts["country"].notna()]
        country = physical.drop_duplicates("property").set_index("property")["country"].str.upper()
        out = props.assign(address_country=props["property"].map(country).astype("string"))
        known = out["address_country"].notna() & out["latitude"].notna() & out["longitude"].notna()
        inside, actual = located(out.loc[known, "address_country"], out.loc[known, "latitude"],
                                 out.loc[known, "longitude"])
        at = pd.Series(pd.NA, index=out.index, dtype="string")
        at[known] = out.loc[known, "address_country"].where(inside.eq(True).fillna(False), actual).astype("string")
        agrees = pd.Series(pd.NA, index=out.index, dtype="boolean")
        agrees[known] = inside
        return out.assign(country_at_coordinates=at, in_address_country=agrees).reset_index(drop=True)

    def facts(self) -> list[tuple[str, str]]:
        props = self.properties
        with_rows = [p for p, f in self.parts.items() if len(f)]
        return [fact(len(props), "property", "properties"), (f"{int(props['new'].sum()):,}", "new"),
                fact(len(with_rows), "part with rows", "parts with rows"),
                (", ".join(p.name for p in self.files) or "nothing", "read:")]


def check_content(files: PathLike | Iterable[PathLike], *, settings: Settings | None = None,
                  lookups: ContentLookups | Lookups | None = None, today: dt.date | None = None,
                  rtb_enabled: bool | None = None, sheet: str | Sequence[str] | None = None,
                  encoding: str | None = None, header_row: int | None = None,
                  cache: PathLike | LookupCache | None = None, client_options: dict | None = None,
                  refresh_lookups: bool = False) -> ContentCheck:
    """Load a content workbook and check it against every E4 rule.

    ``lookups``: the platform's lists (else read through ``settings`` when it names a platform, cached
    in ``cache``, default ``.workbench/lookups.json``); ``rtb_enabled``: the provider setting
    ``content_api_rtb_enabled`` (default: the settings' ``content_api_rtb_enabled``, i.e.
    ``WORKBENCH_CONTENT_API_RTB_ENABLED``, else off); ``today``: the CET date (birth dates). ``sheet``, ``encoding``, ``header_row``: see
    :func:`loaders.read_content`. ``client_options`` go to the client (e.g. an in-process sandbox).
    """
    paths = [Path(files)] if isinstance(files, (str, Path)) else [Path(p) for p in files]
    refuse_other_kind(paths, "content")
    loaded = read_content(paths, sheet=sheet, encoding=encoding, header_row=header_row)
    notes: list[str] = []
    known = _lookups(lookups, settings, cache, client_options, refresh_lookups, notes)
    if rtb_enabled is None:
        rtb_enabled = bool(settings.content_api_rtb_enabled) if settings is not None else False
    day = today or cet_today()
    issues = validate_content(loaded.parts, load_issues=loaded.issues, lookups=known, today=day,
                              rtb_enabled=rtb_enabled)
    parts = loaded.parts
    issues = combine([issues, sunset_content(parts, gone_content(settings, day))])
    # the report groups by property (HotelCode or ID) and part, and names each property (HotelName)
    describe(issues, kind="content", names=names_from(parts["Property"], code="property"),
             rows=row_map((f, f["property"], f["sheet"]) for f in parts.values()),
             labels=facility_labels(parts["Services"]))
    return ContentCheck(parts, issues, paths, known, notes)


def gone_content(settings: Settings | None, day: dt.date) -> list[GoneElement]:
    """The content elements the platform refuses on ``day`` (the operation catalogue), as the rule takes them."""
    provider = settings.provider_type if settings is not None else None
    return [GoneElement(d.element, d.sunset, d.replacement)
            for d in gone_elements("OTA_HotelDescriptiveContentNotif", provider, day)]


def _lookups(lookups: ContentLookups | Lookups | None, settings: Settings | None, cache: PathLike | LookupCache | None,
             client_options: dict | None, refresh: bool, notes: list[str]) -> ContentLookups:
    if isinstance(lookups, ContentLookups):
        return lookups
    if isinstance(lookups, Lookups):
        notes.extend(lookups.warnings)
        return lookups.content_lookups()
    if settings is None or not settings.base_url:
        notes.append("the platform's lists (countries, city tax categories) were not read: no platform is "
                     f"configured; currencies: {SHIPPED}")
        return ContentLookups(currencies=frozenset(r["code"] for r in shipped_currencies()))
    from workbench.transport import SyncPlatformClient

    store = cache if isinstance(cache, LookupCache) else LookupCache(Path(cache) if cache else DEFAULT_CACHE)
    with SyncPlatformClient(settings, **(client_options or {})) as client:
        read = fetch_lookups(client, store, settings.base_url, refresh=refresh)
    notes.extend(read.warnings)
    for kind, when in read.fetched_at.items():
        notes.append(f"/xml/{kind} as fetched {when.isoformat(timespec='minutes')}")
    notes.append(f"currencies: {SHIPPED} (/xml/currencies was sunset on 2025-09-22)")
    return read.content_lookups()
