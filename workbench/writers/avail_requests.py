"""Checked availability -> OTA_HotelAvailNotif requests, one hotel and one calendar month each.

The rates' compressor does the work (:func:`workbench.writers.compress.series_months` and
:func:`~workbench.writers.compress.plan_series`): a series is a hotel, room type, rate plan (none for a
room type's own values) and restriction, so rooms to sell and each restriction travel in messages of
their own, each value compressed into date ranges with weekday masks - never more messages than
run-length encoding, and expanding them gives back exactly the nights set. Messages come in hotel,
month, room, rate plan (the room type's own first), restriction (in :data:`loaders.schemas.RESTRICTIONS`
order) and start order, whatever the order of the rows, so requests and ``LocatorID`` numbers are
canonical. Requests are :class:`~workbench.writers.batches.RateRequest` (the rates' shape: hotel,
month, body, messages, cells, and per cell its ``LocatorID`` and source row), and the cells frame is
what a dry-run folder's ``cells.parquet`` and the journal need
(:func:`workbench.writers.request_folder.write_folder` writes both).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa

from loaders.schemas import RESTRICTIONS
from workbench.ota import DEFAULT_READING, messages_xml, parse_avail_notif, request_xml
from workbench.writers.batches import RateRequest, batch_requests, message_locators
from workbench.writers.categories import as_category
from workbench.writers.compress import months_of, plan_series, series_months
from workbench.writers.journal_avail import CELL_FIELDS
from workbench.writers.planned import Planned

OPERATION = "OTA_HotelAvailNotif"
KIND = "availability"
#: What ``cells.parquet`` keeps of each value sent (the canonical availability columns).
AVAIL_CELL_COLUMNS = ["hotel_code", "inv_type_code", "rate_plan_code", "date", "restriction", "value", "source",
                      "sheet", "row", "value_column"]
MESSAGE_COLUMNS = ["hotel_code", "month", "inv_type_code", "rate_plan_code", "restriction", "start", "end", "mask",
                   "value"]


@dataclass
class AvailCompressed:
    """``messages``: one row per AvailStatusMessage (``MESSAGE_COLUMNS``); ``cells``: the input rows
    (``source, sheet, row``) with the ``message`` that carries each."""

    messages: pd.DataFrame
    cells: pd.DataFrame


def compress_availability(frame: pd.DataFrame, weekly: bool = True) -> AvailCompressed:
    """Compress availability rows to send (one value per cell: no repeats, e.g. ``check.valid_frame()``)."""
    f = frame.reset_index(drop=True)
    if f.empty:
        return AvailCompressed(pd.DataFrame({c: pd.Series(dtype=object) for c in MESSAGE_COLUMNS}),
                               pd.DataFrame(columns=["source", "sheet", "row", "message"]))
    codes, names = pd.factorize(f["restriction"])  # a few names: each looked up once
    unknown = [str(n) for n in names if n not in RESTRICTIONS]
    if unknown:
        raise ValueError(f"unknown restriction `{unknown[0]}`: one of {', '.join(RESTRICTIONS)}")
    kind = np.array([RESTRICTIONS.index(str(n)) for n in names], dtype=np.int64)[codes]
    s = series_months(f["hotel_code"], f["date"], [f["inv_type_code"], f["rate_plan_code"], kind])
    if np.bincount(s.cell).max() > 1:
        raise ValueError("two rows set the same value of the same night: send one of them (check.valid_frame() "
                         "leaves the repeats out)")
    value_codes, values = pd.factorize(f["value"].to_numpy(dtype=np.int64), sort=True)
    p = plan_series(s, value_codes.astype(np.int64), weekly=weekly)
    take = s.at[p.series]
    messages = pd.DataFrame({
        "hotel_code": f["hotel_code"].array.take(take), "month": p.months.take(p.series),
        "inv_type_code": f["inv_type_code"].array.take(take), "rate_plan_code": f["rate_plan_code"].array.take(take),
        "restriction": np.asarray(RESTRICTIONS, dtype=object)[kind[take]],
        "start": p.start, "end": p.end, "mask": p.mask, "value": np.asarray(values)[p.value],
    })
    # the cells' files and sheets as categories: a request takes its cells by integer codes, not by text
    cells = pd.DataFrame({"source": as_category(f["source"]), "sheet": as_category(f["sheet"]),
                          "row": f["row"], "message": p.message})
    return AvailCompressed(messages, cells)


def iter_avail_requests(c: AvailCompressed, timestamp: dt.datetime | None = None,
                        reading: str = DEFAULT_READING) -> Iterator[RateRequest]:
    """One request per hotel and month of ``c``, built as it is taken."""
    if c.messages.empty:
        return
    timestamp = timestamp or dt.datetime.now(dt.UTC)

    def bodies(m: pd.DataFrame) -> Callable[[int, int, int], bytes]:
        # every message's XML at once (a request's messages are consecutive in ``m``, numbered by ``locator``)
        texts, at = messages_xml(m["locator"].to_numpy(), m["restriction"], m["value"], _days(m["start"]),
                                 _days(m["end"]), m["inv_type_code"], m["rate_plan_code"], m["mask"], reading)
        return lambda hotel, a, b: request_xml(hotel, texts[at[a]:at[b]], timestamp)

    yield from batch_requests(c.messages, c.cells, bodies)


def _days(dates: pd.Series) -> pa.Array:
    """``YYYY-MM-DD`` of each date (as ``strftime`` writes them), each distinct date written once."""
    codes, days = pd.factorize(dates.to_numpy("datetime64[D]"))
    return pa.array(np.datetime_as_string(np.asarray(days, dtype="datetime64[D]"), unit="D"),
                    pa.large_string()).take(pa.array(codes))


def plan_availability_requests(frame: pd.DataFrame, weekly: bool = True, timestamp: dt.datetime | None = None,
                               reading: str = DEFAULT_READING) -> list[RateRequest]:
    """Compress ``frame`` and build every request (``reading``: ``WORKBENCH_LOS_READING``)."""
    return list(iter_avail_requests(compress_availability(frame, weekly=weekly), timestamp, reading))


def availability_folder_plan(frame: pd.DataFrame, timestamp: dt.datetime | None = None,
                             reading: str = DEFAULT_READING) -> tuple[Iterator[RateRequest], pd.DataFrame]:
    """The requests for ``frame`` (built one by one as they are taken) and its cells: the
    :data:`AVAIL_CELL_COLUMNS` plus ``file`` (its request, ``<hotel>-<YYYY-MM>.xml``), ``month`` and
    ``locator`` (the ``LocatorID`` of the message carrying it), in ``frame``'s order - what
    :func:`workbench.writers.request_folder.write_folder` writes as a dry-run folder."""
    f = frame.reset_index(drop=True)  # a new frame (copy on write): the columns set below leave ``frame`` as it is
    for name in ("restriction", "source", "sheet", "value_column"):  # few distinct texts: Parquet writes them once
        f[name] = as_category(f[name])  # (and the compression finds the restrictions by their codes)
    compressed = compress_availability(f)
    cells = f[AVAIL_CELL_COLUMNS]
    # (``month`` and ``file`` are categories too, below)
    if f.empty:
        return iter(()), cells.assign(file=pd.Series(dtype=object), month=pd.Series(dtype=object),
                                      locator=pd.Series(dtype=np.int64))
    # each cell's request, named once per request (no million string joins): hotel and month as one integer
    months = months_of(f["date"].to_numpy("datetime64[D]")).astype(np.int64)
    request, keys = pd.factorize(f["hotel_code"].to_numpy(dtype=np.int64) * 100_000 + months)
    hotels, month_of = np.divmod(np.asarray(keys, dtype=np.int64), 100_000)
    month_text = np.datetime_as_string(month_of.astype("datetime64[M]"), unit="M")
    month_code, month_values = pd.factorize(months)
    cells["month"] = pd.Categorical.from_codes(month_code, np.datetime_as_string(
        np.asarray(month_values).astype("datetime64[M]"), unit="M").tolist())
    cells["locator"] = message_locators(compressed.messages, compressed.cells)
    cells["file"] = pd.Categorical.from_codes(request, [f"{h}-{m}.xml" for h, m in zip(hotels, month_text,
                                                                                       strict=True)])
    cells.attrs["headers"] = frame.attrs.get("headers", {})
    return iter_avail_requests(compressed, timestamp or dt.datetime.now(dt.UTC), reading), cells


# --- for the one send driver ---------------------------------------------------------------------------

def item_keys(hotel: pd.Series, room: pd.Series, rate: pd.Series, day: pd.Series,
              restriction: pd.Series) -> pd.Series:
    """The journal's item of each value: ``<hotel>/<room>/<rate>/<YYYY-MM-DD>/<restriction>`` (the rate blank
    for a room type's own values)."""
    return (hotel.astype(str) + "/" + room.astype(str) + "/" + rate.astype("string").fillna("").astype(str) + "/"
            + pd.to_datetime(day).dt.strftime("%Y-%m-%d") + "/" + restriction.astype(str))


def avail_items(body: bytes, reading: str = DEFAULT_READING) -> list[tuple[str, str]]:
    """The state a request establishes once accepted: ``(item, value)`` for every night and value it sets,
    read from the body itself (the weekday rules applied), so what is journalled is what was sent."""
    out = []
    for m in parse_avail_notif(body, reading):
        days = pd.date_range(str(m["start"]), str(m["end"]), freq="D")
        keep = days[[bool(m["days"][d]) for d in days.day_of_week]]  # type: ignore[index]
        for day in keep.strftime("%Y-%m-%d"):
            out.append((f"{m['hotel_code']}/{m['inv_type_code']}/{m['rate_plan_code'] or ''}/{day}/{m['restriction']}",
                        str(m["value"])))
    return out


def cell_rows(cells: pd.DataFrame) -> tuple[pd.DataFrame, dict[str, tuple[int, int]]]:
    """``cells`` (:func:`availability_folder_plan`'s, or a dry-run folder's ``cells.parquet``) as the journal
    keeps them (:data:`workbench.writers.journal_avail.CELL_FIELDS` plus ``hotel_code`` and ``file``), sorted
    by request file, and each file's span of rows. Texts are made once per distinct value (dates through
    numpy), not per cell: a million values take a fraction of a second."""
    if cells.empty:
        return pd.DataFrame(columns=[*CELL_FIELDS, "hotel_code", "file"]), {}
    files = cells["file"].astype("category") if not isinstance(cells["file"].dtype, pd.CategoricalDtype) \
        else cells["file"]
    order = np.argsort(files.cat.codes.to_numpy(), kind="stable")
    c = cells.iloc[order]
    day_code, days = pd.factorize(c["date"].to_numpy("datetime64[D]"))
    day_text = np.datetime_as_string(np.asarray(days, dtype="datetime64[D]"), unit="D").astype(object)
    rows = pd.DataFrame({
        "inv_type_code": _texts(c["inv_type_code"]), "rate_plan_code": _texts(c["rate_plan_code"]),
        "date": day_text[day_code] if len(day_code) else np.zeros(0, dtype=object),
        "restriction": _texts(c["restriction"]), "value": c["value"].to_numpy(dtype=np.int64),
        "source": _texts(c["source"]), "sheet": _texts(c["sheet"]), "row": c["row"].to_numpy(dtype=np.int64),
        "column": _texts(c["value_column"]), "locator": c["locator"].to_numpy(dtype=np.int64),
        "hotel_code": c["hotel_code"].to_numpy(dtype=np.int64), "file": files.to_numpy()[order]})
    codes = files.cat.codes.to_numpy()[order]
    bounds = np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]])
    stops = np.append(bounds[1:], len(codes))
    names = files.cat.categories
    return rows, {str(names[codes[a]]): (int(a), int(b)) for a, b in zip(bounds, stops, strict=True)}


def _texts(column: pd.Series) -> np.ndarray:
    """A column's values as Python texts (``''`` for missing), made once per distinct value."""
    codes, uniques = pd.factorize(column.astype(object) if isinstance(column.dtype, pd.CategoricalDtype) else column)
    texts = np.array([str(u) for u in uniques] + [""], dtype=object)
    return texts[codes]


def planned_availability(requests: Iterable[RateRequest], cells: pd.DataFrame,
                         reading: str = DEFAULT_READING, state: bool = True) -> list[Planned]:
    """Availability requests as the one send driver takes them (:class:`~workbench.writers.planned.Planned`):
    kind ``availability``, operation ``OTA_HotelAvailNotif``, key ``<hotel>-<YYYY-MM>``, and the values each
    carries as ``rows`` (:func:`cell_rows`: room, rate plan (``''`` for the room type), night, restriction,
    value, ``source, sheet, row``, ``column`` = the value's cell, ``locator``), which the journal keeps in
    its availability tables. With ``state`` (the default) each also has the state it establishes, read from
    its own body (:func:`avail_items`: ``<hotel>/<room>/<rate>/<YYYY-MM-DD>/<restriction>`` per night and
    value), and each row its ``item``; a push leaves them out (``state=False``: parsing a million values back
    out of the bodies would take seconds, and the typed rows are the same values)."""
    rows, spans = cell_rows(cells)
    out = []
    for r in requests:
        a, b = spans.get(f"{r.key}.xml", (0, 0))
        mine = rows.iloc[a:b]
        if state:
            mine = mine.reset_index(drop=True)
            mine["item"] = item_keys(mine["hotel_code"], mine["inv_type_code"], mine["rate_plan_code"], mine["date"],
                                     mine["restriction"]).to_numpy()
        out.append(Planned(KIND, OPERATION, r.key, r.body, str(r.hotel_code), r.month, hotel_code=r.hotel_code,
                           messages=r.messages, items=r.cells, state=avail_items(r.body, reading) if state else [],
                           rows=mine, idempotent=True, source=r,
                           extra={"hotel": r.hotel_code, "month": r.month, "messages": r.messages, "cells": r.cells}))
    return out
