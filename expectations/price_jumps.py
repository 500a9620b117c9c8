"""Prices that are valid but probably wrong: a jump against the last accepted price of the same
cell, or a night far from its own room-rate's other nights of the month. Warnings, never errors.

- ``price_jump``: the price changes by **more than** ``share`` (default 0.5 = 50%) of the last
  price the platform accepted for the same cell (hotel, room, rate, night, guests). Exactly 50% is
  not a jump; 50.01% is. Compared exactly (in minor units), only when both prices are above 0 (0
  closes a night: opening or closing is not a price jump) and in the same currency.
- ``price_outlier``: the price is **more than** ``outlier_factor`` (default 10) times the median of
  its room-rate's prices (same guests and currency) in its calendar month, or less than the median
  divided by it (an extra or a missing digit). Nights priced 0 are left out of both sides.

The thresholds are per property: :class:`PriceJumpLimits` holds the defaults and a table of
properties that differ (``read_price_jump_table``: ``HotelCode, PriceJumpShare,
PriceOutlierFactor``; a blank takes the default, ``off`` switches the rule off for that property).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd

from expectations.reference import currency_minor_units
from loaders import LoadError
from loaders.issues import combine, empty_issues, issues_where
from loaders.wording import count

JUMP = "price_jump"
OUTLIER = "price_outlier"
DEFAULT_SHARE = 0.5
DEFAULT_FACTOR = 10.0
TABLE_COLUMNS = {"hotelcode": "hotel_code", "pricejumpshare": "share", "priceoutlierfactor": "outlier_factor"}


@dataclass(frozen=True)
class PriceJumpLimits:
    """The defaults, and per property (``per_property``: ``hotel_code, share, outlier_factor``; NaN =
    the default, ``inf`` = the rule is off for that property) where they differ."""

    share: float = DEFAULT_SHARE
    outlier_factor: float = DEFAULT_FACTOR
    per_property: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(
        {"hotel_code": pd.Series(dtype="int64"), "share": pd.Series(dtype="float64"),
         "outlier_factor": pd.Series(dtype="float64")}))

    def __post_init__(self) -> None:
        if not self.share > 0 or not self.outlier_factor > 1:
            raise ValueError(f"price-jump limits must be a share above 0 and a factor above 1, not "
                             f"{self.share} and {self.outlier_factor}")

    def for_rows(self, hotel_codes: pd.Series, column: str) -> np.ndarray:
        """The limit of each row's property (``column``: ``share`` or ``outlier_factor``)."""
        default = getattr(self, column)
        table = self.per_property.dropna(subset=[column]).drop_duplicates("hotel_code", keep="last")
        if table.empty:
            return np.full(len(hotel_codes), default, dtype=np.float64)
        own = pd.Series(table[column].to_numpy(np.float64), index=table["hotel_code"].to_numpy(np.int64))
        return own.reindex(hotel_codes.astype("int64").to_numpy()).fillna(default).to_numpy(np.float64)


def read_price_jump_table(path: str | Path, share: float = DEFAULT_SHARE,
                          outlier_factor: float = DEFAULT_FACTOR) -> PriceJumpLimits:
    """Per-property limits from a CSV or XLSX file: ``HotelCode, PriceJumpShare, PriceOutlierFactor``
    (either limit column may be left out; a blank cell takes the default; ``off`` switches it off)."""
    path = Path(path)
    try:
        raw = (pd.read_excel(path, dtype=str, engine="openpyxl") if path.suffix.lower() in (".xlsx", ".xlsm")
               else pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8-sig"))
    except (OSError, ValueError) as exc:
        raise LoadError(f"cannot read the price-jump table `{path}`: {exc}", source=path.name) from None
    raw = raw.rename(columns=lambda c: TABLE_COLUMNS.get(str(c).strip().replace("_", "").replace(" ", "").lower(),
                                                         str(c)))
    if "hotel_code" not in raw:
        raise LoadError(f"the price-jump table `{path.name}` has no HotelCode column: give HotelCode, "
                        "PriceJumpShare, PriceOutlierFactor", source=path.name)
    out = pd.DataFrame({"hotel_code": pd.Series(dtype="int64")})
    values: dict[str, list[float]] = {"share": [], "outlier_factor": []}
    codes = []
    for i, r in enumerate(raw.fillna("").to_dict("records"), start=2):
        code = str(r["hotel_code"]).strip()
        if not code.isdigit():
            raise LoadError(f"`{path.name}` row {i}: HotelCode `{code}` is not a property id (a whole number)",
                            source=path.name)
        codes.append(int(code))
        for col, lowest, header in (("share", 0.0, "PriceJumpShare"), ("outlier_factor", 1.0, "PriceOutlierFactor")):
            values[col].append(_limit(str(r.get(col, "")), lowest, f"`{path.name}` row {i}, {header}"))
    out = pd.DataFrame({"hotel_code": np.asarray(codes, dtype=np.int64), **{k: np.asarray(v, dtype=np.float64)
                                                                           for k, v in values.items()}})
    return PriceJumpLimits(share, outlier_factor, out)


def _limit(text: str, lowest: float, where: str) -> float:
    text = text.strip().lower()
    if not text:
        return float("nan")
    if text == "off":
        return float("inf")
    try:
        value = float(text.rstrip("%")) / (100 if text.endswith("%") else 1)
    except ValueError:
        value = float("nan")
    if not value > lowest:
        raise LoadError(f"{where}: `{text}` is not a number above {lowest:g} (or `off`, or blank for the default)")
    return value


def price_jumps(frame: pd.DataFrame, before: pd.DataFrame, limits: PriceJumpLimits | None = None) -> pd.DataFrame:
    """``price_jump`` warnings: ``frame`` (canonical rates rows) against ``before``, aligned with it
    row by row (``amount_minor, amount_scale, currency_code`` of the last accepted price; NA where
    the platform has none)."""
    limits = limits or PriceJumpLimits()
    f = frame.reset_index(drop=True)
    b = before.reset_index(drop=True)
    if f.empty:
        return empty_issues()
    new_m, new_s = f["amount_minor"].astype("Int64"), f["amount_scale"].astype("Int64")
    old_m, old_s = b["amount_minor"].astype("Int64"), b["amount_scale"].astype("Int64")
    share = limits.for_rows(f["hotel_code"], "share")
    same_currency = (f["currency_code"].astype("string").to_numpy(object, na_value="")
                     == b["currency_code"].astype("string").to_numpy(object, na_value=""))
    cand = ((new_m > 0).to_numpy(bool, na_value=False) & (old_m > 0).to_numpy(bool, na_value=False)
            & np.isfinite(share) & same_currency)
    if not cand.any():
        return empty_issues()
    idx = np.flatnonzero(cand)
    ns, os_ = new_s.to_numpy(np.int64, na_value=0)[idx], old_s.to_numpy(np.int64, na_value=0)[idx]
    nm, om = new_m.to_numpy(np.int64, na_value=0)[idx], old_m.to_numpy(np.int64, na_value=0)[idx]
    scale = np.maximum(ns, os_)
    shares, which = np.unique(share[idx], return_inverse=True)
    fracs = [Fraction(str(s)).limit_denominator(10**6) for s in shares]
    num = np.asarray([x.numerator for x in fracs], dtype=object)[which]
    den = np.asarray([x.denominator for x in fracs], dtype=object)[which]
    # exact: Python integers (object arrays), so no amount or share can overflow or round at the threshold
    a = nm.astype(object) * (10 ** (scale - ns)).astype(object)
    o = om.astype(object) * (10 ** (scale - os_)).astype(object)
    hit = np.zeros(len(f), dtype=bool)
    hit[idx] = (abs(a - o) * den > num * o).astype(bool)  # more than the share; exactly the share is not a jump
    if not hit.any():
        return empty_issues()
    h, hb = f[hit], b[hit]
    amount = pd.Series(amount_text(h["amount_minor"], h["amount_scale"], h["currency_code"]), index=h.index)
    old = amount_text(hb["amount_minor"], hb["amount_scale"], h["currency_code"])
    pct = ((h["amount"].astype("float64") / _as_float(hb) - 1) * 100).to_numpy(np.float64)
    message = pd.Series([
        f"{n} {c} is {abs(p):.1f}% {'above' if p > 0 else 'below'} {o} {c}, the last price the platform accepted "
        f"for this night (room {r}, rate {rp}, {d}{_guests(g)}): more than the {s * 100:g}% a price may "
        "change; check the amount (an extra or a missing digit?)"
        for n, o, c, p, r, rp, d, g, s in zip(amount, old, h["currency_code"].tolist(), pct.tolist(),
                                              h["inv_type_code"].tolist(), h["rate_plan_code"].tolist(),
                                              h["date"].dt.strftime("%Y-%m-%d").tolist(),
                                              h["number_of_guests"].tolist(), share[hit].tolist(), strict=True)],
        index=h.index)
    return issues_where(f, hit, column=f["amount_column"], value=amount, rule=JUMP, severity="warning",
                        message=message)


def price_outliers(frame: pd.DataFrame, limits: PriceJumpLimits | None = None) -> pd.DataFrame:
    """``price_outlier`` warnings: nights more than ``outlier_factor`` times above (or below) the
    median of their room-rate's month (same guests and currency; nights priced 0 left out)."""
    limits = limits or PriceJumpLimits()
    f = frame.reset_index(drop=True)
    if f.empty:
        return empty_issues()
    amount = f["amount"].astype("float64")
    priced = (amount > 0).fillna(False).to_numpy(bool)
    keys = [f["hotel_code"], f["inv_type_code"], f["rate_plan_code"], f["number_of_guests"].fillna(-1),
            f["currency_code"], f["date"].dt.to_period("M")]
    median = amount.where(priced).groupby(keys, dropna=False, sort=False).transform("median")
    factor = limits.for_rows(f["hotel_code"], "outlier_factor")
    high = (amount > median * factor).fillna(False).to_numpy(bool)
    low = (amount * factor < median).fillna(False).to_numpy(bool)
    hit = priced & (high | low) & np.isfinite(factor)
    if not hit.any():
        return empty_issues()
    h = f[hit]
    text = pd.Series(amount_text(h["amount_minor"], h["amount_scale"], h["currency_code"]), index=h.index)
    message = pd.Series([
        f"{t} {c} is {'more than ' + format(k, 'g') + ' times' if up else 'less than 1/' + format(k, 'g') + ' of'} "
        f"the median of its month ({m:,.2f} {c}; room {r}, rate {rp}, {d:%b %Y}{_guests(g)}): check the amount "
        "(an extra or a missing digit?)"
        for t, c, up, k, m, r, rp, d, g in zip(text, h["currency_code"].tolist(), high[hit].tolist(),
                                              factor[hit].tolist(), median[hit].tolist(), h["inv_type_code"].tolist(),
                                              h["rate_plan_code"].tolist(), h["date"].tolist(),
                                              h["number_of_guests"].tolist(), strict=True)], index=h.index)
    return issues_where(f, hit, column=f["amount_column"], value=text, rule=OUTLIER, severity="warning",
                        message=message)


def price_jump_issues(frame: pd.DataFrame, before: pd.DataFrame | None, limits: PriceJumpLimits | None = None,
                      outliers: bool = True) -> pd.DataFrame:
    """Both rules (``price_jump`` only when ``before`` is given), as one issues frame."""
    parts = [price_outliers(frame, limits)] if outliers else []
    if before is not None:
        parts.append(price_jumps(frame, before, limits))
    return combine(parts)


def _as_float(b: pd.DataFrame) -> pd.Series:
    return b["amount_minor"].astype("float64") / 10.0 ** b["amount_scale"].astype("float64")


def amount_text(minor: pd.Series, scale: pd.Series, currency: pd.Series | None = None) -> list[str]:
    """``15900``, scale 2 -> ``159.00``: as many decimals as the currency has (two when unknown), more
    when the amount has more (``9,000.50`` JPY shows its stray decimals). Exact (integers), never floats."""
    units = currency_minor_units()
    n = len(minor)
    m = pd.array(minor, dtype="Int64")
    k = pd.array(scale, dtype="Int64").fillna(0).to_numpy(np.int64)
    cur = (pd.Series(currency, dtype="string").to_numpy(object, na_value="") if currency is not None
           else np.full(n, "", dtype=object))
    codes, uniq = pd.factorize(cur)
    own = np.asarray([units.get(str(c), 2) for c in uniq], dtype=np.int64)[codes] if n else np.zeros(0, np.int64)
    digits = np.maximum(own, k)
    out = []
    for value, s, d, missing in zip(m.to_numpy(np.int64, na_value=0).tolist(), k.tolist(), digits.tolist(),
                                    m.isna().tolist(), strict=True):
        if missing:
            out.append("")
            continue
        v = value * 10 ** (d - s)
        whole, frac = divmod(abs(v), 10 ** d)
        out.append(f"{'-' if v < 0 else ''}{whole:,}" + (f".{frac:0{d}d}" if d else ""))
    return out


def _guests(g: object) -> str:
    return "" if pd.isna(g) else f", {guests_text(g)}"


def guests_text(g: object) -> str:
    """``1 guest``, ``2 guests``."""
    n = int(str(g))
    return count(n, "guest")
