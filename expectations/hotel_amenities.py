"""Hotel amenity (HAC) codes and their names: the facility / service codes of the content workbook's
``Services`` sheet (``data/codes/hac.csv``), so a frame or a report shows ``5 Air conditioning`` where the
sheet says ``5``.

Which rows are Services rows is decided by what the frame is, never by a column that happens to be
called ``code`` (Fees, Taxes and other parts have one too): a row is a Services row when the loader's
header map (``frame.attrs["headers"]``, set by ``loaders.read_content`` and ``frames_from_rows``) says
its sheet (or CSV file) is the ``Services`` part, or, for a frame without that map, when its ``sheet``
column says ``Services``.

A frame read back from the platform's Facilities API carries the names the Facilities meta gives
(``frame.attrs[FACILITY_NAMES]``: code -> ``facility_name``); those come first.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

import pandas as pd

from expectations.reference import DATA

SERVICES = "Services"
#: ``frame.attrs`` key of the facility names a frame carries (code -> name, from the Facilities meta)
FACILITY_NAMES = "wb_facility_names"
__all__ = ["FACILITY_NAMES", "SERVICES", "facility_label", "facility_name", "facility_names", "services_rows"]


@lru_cache(maxsize=1)
def facility_names() -> dict[int, str]:
    """HAC code -> name of the codes listed in ``data/codes/hac.csv`` (read once)."""
    frame = pd.read_csv(DATA / "codes" / "hac.csv", dtype={"code": int, "name": str}, keep_default_na=False)
    return dict(zip(frame["code"], frame["name"], strict=True))


def _code(value: object) -> int | None:
    """A code as a whole number; ``None`` for a missing value or text that is no whole number."""
    number = pd.to_numeric(pd.Series([value], dtype=object), errors="coerce").iloc[0]
    return None if pd.isna(number) or float(number) != int(number) else int(number)


def facility_name(code: object, known: Mapping[int, str] | None = None) -> str:
    """The name of a HAC code (``known`` names first, then ``data/codes/hac.csv``); blank for a missing
    value, a code not listed, or text that is no code."""
    number = _code(code)
    if number is None:
        return ""
    return (known or {}).get(number) or facility_names().get(number, "")


def facility_label(code: object) -> str:
    """``5 Air conditioning``: the code and its name; blank when the code has no known name."""
    name = facility_name(code)
    return f"{_code(code)} {name}" if name else ""


def services_rows(frame: pd.DataFrame) -> pd.Series:
    """Which rows of ``frame`` are rows of the content ``Services`` part (see the module's docstring);
    all ``False`` for a frame without a ``code`` column."""
    none = pd.Series(False, index=frame.index, dtype=bool)
    if "code" not in frame or "sheet" not in frame:
        return none
    headers = frame.attrs.get("headers")
    sheets = frame["sheet"].astype(object).where(frame["sheet"].notna(), "")
    if isinstance(headers, dict) and headers and "source" in frame:
        sources = frame["source"].astype(object).where(frame["source"].notna(), "")
        kinds = {key: str(h.get("kind", "")) for key, h in headers.items() if isinstance(h, dict)}
        return pd.Series([kinds.get((s, sh)) == SERVICES if (s, sh) in kinds else sh == SERVICES
                          for s, sh in zip(sources, sheets, strict=True)], index=frame.index, dtype=bool)
    return sheets.eq(SERVICES).astype(bool)
