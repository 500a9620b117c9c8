"""Reference facts the rules need: FX table, ISO 4217 currencies, the CET calendar.

Reads the project's own ``data/`` files (small, read once per process).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from zoneinfo import ZoneInfo

import pandas as pd

from loaders.errors import LoadError

DATA = Path(__file__).resolve().parents[1] / "data"
CET = ZoneInfo("Europe/Amsterdam")  # Central European Time with summer time (CET/CEST)
PRICE_CAP_EUR = 50_000
YEARS_AHEAD = 5


@dataclass(frozen=True)
class FxTable:
    """Units of each currency per euro, and the date the figures stand for."""

    units_per_eur: dict[str, float]
    as_of: str
    source: str

    def to_eur(self, currency: pd.Series, amount: pd.Series) -> pd.Series:
        """Amounts in euros (NaN where the currency is not in the table)."""
        rate = currency.map(self.units_per_eur).astype("float64")
        return amount.astype("float64") / rate


def read_fx_table(path: str | Path | None = None) -> FxTable:
    """Read an FX table (``currency,units_per_eur[,as_of]``); default: ``data/fx/eur_fx.csv``."""
    path = Path(path) if path else DATA / "fx" / "eur_fx.csv"
    try:
        frame = pd.read_csv(path, dtype={"currency": str})
    except (OSError, ValueError) as exc:
        raise LoadError(f"FX table `{path}` cannot be read: {exc}", source=path.name) from exc
    need = {"currency", "units_per_eur"}
    if not need <= set(frame.columns):
        raise LoadError(f"FX table `{path.name}` needs columns `currency` and `units_per_eur` "
                        f"(found {', '.join(map(str, frame.columns))}).", source=path.name)
    rates = pd.to_numeric(frame["units_per_eur"], errors="coerce")
    bad = rates.isna() | (rates <= 0)
    if bad.any():
        i = int(bad.idxmax())
        raise LoadError(f"FX table `{path.name}` row {i + 2}: `{frame['units_per_eur'][i]}` is not a positive "
                        "number of units per euro.", source=path.name)
    as_of = str(frame["as_of"].dropna().max()) if "as_of" in frame else "unknown"
    return FxTable(dict(zip(frame["currency"].str.strip().str.upper(), rates.astype(float), strict=True)),
                   as_of, path.name)


@lru_cache(maxsize=1)
def currency_minor_units() -> dict[str, int]:
    """ISO 4217 codes in use and their decimals (``data/codes/currencies.csv``)."""
    frame = pd.read_csv(DATA / "codes" / "currencies.csv", dtype={"code": str}, keep_default_na=False)
    return dict(zip(frame["code"], frame["minor_units"].astype(int), strict=True))


def cet_today(now: dt.datetime | None = None) -> dt.date:
    """Today's date in Central European Time (the platform's calendar)."""
    now = now or dt.datetime.now(dt.UTC)
    if now.tzinfo is None:
        now = now.replace(tzinfo=dt.UTC)
    return now.astimezone(CET).date()


def date_window(as_of: dt.date) -> tuple[dt.date, dt.date]:
    """First and last night the platform accepts: 1 day before ``as_of`` to 5 years after it."""
    first = as_of - dt.timedelta(days=1)
    try:
        last = as_of.replace(year=as_of.year + YEARS_AHEAD)
    except ValueError:  # 29 February
        last = as_of.replace(year=as_of.year + YEARS_AHEAD, day=28)
    return first, last
