"""The FX table behind the price cap: units of each currency one euro buys, as of a date.

Reads ``data/fx/eur_fx.csv`` (columns ``currency,units_per_eur`` and an ``as_of`` column, or an
``# as_of: YYYY-MM-DD`` line). Rates are exact decimals.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation
from pathlib import Path

from workbench.paths import FX

DEFAULT_FX_FILE = FX / "eur_fx.csv"
#: The platform's price cap per night, in euro (spec: Limits).
PRICE_CAP_EUR = Decimal(50000)
_AS_OF_LINE = re.compile(r"^\s*#?\s*as_of\s*[:=,]\s*(\d{4}-\d{2}-\d{2})\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class FXTable:
    """``units_per_eur[currency]``; ``as_of`` is the date the figures stand for."""

    units_per_eur: dict[str, Decimal]
    as_of: date | None = None
    source: str = ""

    def cap(self, currency: str) -> Decimal | None:
        """The price cap in ``currency`` (None when the table does not know the currency)."""
        rate = self.units_per_eur.get(currency.upper())
        return None if rate is None else PRICE_CAP_EUR * rate


def read_fx_table(path: str | Path = DEFAULT_FX_FILE) -> FXTable:
    """Read an FX CSV; raise ``ValueError`` naming the file and line on a bad row."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"FX table `{path}` does not exist (expected columns currency,units_per_eur,as_of)")
    return parse_fx_csv(path.read_text(encoding="utf-8-sig"), source=str(path))


def parse_fx_csv(text: str, source: str = "<fx>") -> FXTable:
    as_of: date | None = None
    lines: list[str] = []
    for line in text.splitlines():
        m = _AS_OF_LINE.match(line)
        if m:
            as_of = date.fromisoformat(m.group(1))
        elif line.strip() and not line.lstrip().startswith("#"):
            lines.append(line)
    reader = csv.DictReader(io.StringIO("\n".join(lines)))
    fields = {f.strip().lower(): f for f in reader.fieldnames or []}
    if "currency" not in fields or "units_per_eur" not in fields:
        raise ValueError(f"FX table `{source}`: needs the columns `currency` and `units_per_eur` "
                         f"(found {', '.join(reader.fieldnames or []) or 'none'})")
    rates: dict[str, Decimal] = {}
    for n, row in enumerate(reader, start=2):
        cur = (row[fields["currency"]] or "").strip().upper()
        raw = (row[fields["units_per_eur"]] or "").strip()
        try:
            rate = Decimal(raw)
        except InvalidOperation:
            rate = Decimal(-1)
        if not re.fullmatch(r"[A-Z]{3}", cur) or not rate.is_finite() or rate <= 0:
            raise ValueError(f"FX table `{source}` line {n}: `{cur},{raw}` needs a 3-letter currency and a "
                             "positive number of units per euro")
        rates[cur] = rate
        if "as_of" in fields and (row.get(fields["as_of"]) or "").strip():
            as_of = date.fromisoformat(row[fields["as_of"]].strip())
    rates.setdefault("EUR", Decimal(1))
    return FXTable(rates, as_of, source)
