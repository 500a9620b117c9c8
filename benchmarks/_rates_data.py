"""Generated inputs for ``bench_rates.py``: a long-layout rates workbook, a canonical rates frame
with planted rule violations and its registry, and price calendars for the compression figures.

Everything is deterministic (seeded), so figures from different runs read the same data. The
workbook is written once with openpyxl's write-only mode and cached outside the repository.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from loaders import RATES_COLUMNS, Registry

CACHE = Path(os.environ.get("WORKBENCH_BENCH_CACHE", Path(tempfile.gettempdir()) / "workbench-bench"))
AS_OF = dt.date(2026, 3, 2)          # a fixed "today" so every run checks the same window
FIRST_NIGHT = np.datetime64("2026-03-02", "D")
NIGHTS = 365
CURRENCIES = ("EUR", "EUR", "EUR", "EUR", "EUR", "GBP", "USD", "CHF", "JPY")


# --- 1. the long-layout workbook ---------------------------------------------------------------------

def _price_table(rng: np.random.Generator, n: int) -> np.ndarray:
    """Prices with 2 decimals, about a third of them whole numbers (as cents)."""
    cents = rng.integers(4_000, 60_000, size=n)
    whole = rng.random(n) < 0.35
    return np.where(whole, cents // 100 * 100, cents)


TYPO_ROW = 1_234   # with ``typo=True``, this data row's price is the text `12O.50` (letter O)


def xlsx_path(n_rows: int, typo: bool = False) -> Path:
    return CACHE / f"rates_long_{n_rows}{'_typo' if typo else ''}.xlsx"


def cached_rates_xlsx(n_rows: int, seed: int = 7, typo: bool = False) -> tuple[Path, dict]:
    """The workbook with ``n_rows`` price rows (written on first use) and facts to check a load with;
    ``typo`` puts one price typed as text in the amount column (row ``TYPO_ROW``)."""
    path, meta_path = xlsx_path(n_rows, typo), xlsx_path(n_rows, typo).with_suffix(".json")
    if path.exists() and meta_path.exists():
        return path, json.loads(meta_path.read_text())
    CACHE.mkdir(parents=True, exist_ok=True)
    meta = _write_rates_xlsx(path.with_suffix(".tmp.xlsx"), n_rows, seed, typo)
    path.with_suffix(".tmp.xlsx").replace(path)
    meta_path.write_text(json.dumps(meta))
    return path, meta


def _write_rates_xlsx(path: Path, n_rows: int, seed: int, typo: bool = False) -> dict:
    """~300 hotels x 3 rooms x 3-4 rate plans x 365 nights (the last series cut to fit ``n_rows``)."""
    from openpyxl import Workbook

    rng = np.random.default_rng(seed)
    n_series = -(-n_rows // NIGHTS)
    hotels = 300 if n_series >= 300 * 9 else max(1, n_series // 9)
    four_plans = -(-max(0, n_series - 9 * hotels) // 3)   # hotels that need a 4th rate plan
    series = []
    for h in range(hotels):
        for room in range(3):
            for plan in range(4 if h < four_plans else 3):
                series.append((100_000 + h, 1_000 + 10 * h + room, 50_000 + 10 * h + plan, CURRENCIES[h % 9]))
    series = series[:n_series]
    prices = _price_table(rng, 400)
    wb = Workbook(write_only=True)
    ws = wb.create_sheet("Rates")
    ws.append(["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "AmountAfterTax", "CurrencyCode"])
    nights = [dt.date(2026, 3, 2) + dt.timedelta(days=d) for d in range(NIGHTS)]
    written, total_cents = 0, 0
    for hotel, room, plan, cur in series:
        base = rng.integers(0, len(prices) - 3)
        # weekday / weekend pattern with a price change each month, like a real price list
        for night in nights:
            if written == n_rows:
                break
            cents = int(prices[base + (1 if night.weekday() >= 4 else 0) + (night.month % 2)])
            if cur == "JPY":
                cents = cents // 100 * 100 * 100  # whole yen, larger numbers
            value = cents // 100 if cents % 100 == 0 else cents / 100
            if typo and written == TYPO_ROW:
                value = "12O.50"
            ws.append([hotel, room, plan, night, value, cur])
            written += 1
            total_cents += cents
    wb.save(path)
    return {"rows": written, "series": len(series), "hotels": len({s[0] for s in series}),
            "total_cents": total_cents, "first_night": str(nights[0]), "last_night": str(nights[-1])}


# --- 2. a canonical frame with planted violations, and its registry ------------------------------------

@dataclass
class ValidationCase:
    frame: pd.DataFrame
    registry: Registry
    as_of: dt.date
    planted: dict[str, int]   # rule -> rows (or groups) planted, for the report


def _strings(codes: np.ndarray, prefix: str = "") -> pd.Series:
    uniq, inv = np.unique(codes, return_inverse=True)
    labels = np.array([f"{prefix}{u}" for u in uniq], dtype=object)
    return pd.Series(labels[inv], dtype="string")


def validation_case(n_rows: int, seed: int = 11) -> ValidationCase:
    """About ``n_rows`` canonical rows (3 rooms x 3 rate plans x 365 nights per hotel, OBP hotels
    priced for 1 and 2 guests) with roughly 0.5% of rows breaking one rule or another."""
    rng = np.random.default_rng(seed)
    per_std, per_obp = 9 * NIGHTS, 18 * NIGHTS
    n_hotels = max(40, round(n_rows / (0.9 * per_std + 0.1 * per_obp)))
    hotel_ids = np.arange(n_hotels)
    obp = hotel_ids % 10 == 3
    currency = np.array([CURRENCIES[h % 9] for h in hotel_ids], dtype=object)
    currency[obp & (hotel_ids % 9 == 8)] = "EUR"
    currency[5] = "KWD"                      # ISO, not in the FX table: cap unchecked (warning)
    # series: hotel, room, rate, guests
    h_s = np.repeat(hotel_ids, 9)
    room_s = np.tile(np.repeat(np.arange(3), 3), n_hotels)
    rate_s = np.tile(np.arange(3), 3 * n_hotels)
    g_s = np.full(len(h_s), -1)
    obp_s = obp[h_s]
    h_s = np.concatenate([h_s, h_s[obp_s]])
    room_s = np.concatenate([room_s, room_s[obp_s]])
    rate_s = np.concatenate([rate_s, rate_s[obp_s]])
    g_s = np.concatenate([np.where(obp_s, 1, -1), np.full(int(obp_s.sum()), 2)])
    order = np.lexsort((g_s, rate_s, room_s, h_s))
    h_s, room_s, rate_s, g_s = h_s[order], room_s[order], rate_s[order], g_s[order]
    planted: dict[str, int] = {}
    # hotel 13 is OBP but sends no guests; hotel 21 is Standard but sends guests everywhere
    g_s[(h_s == 13) & (g_s == 2)] = -2
    g_s[h_s == 13] = np.where(g_s[h_s == 13] == -2, -2, -1)
    keep = g_s != -2
    h_s, room_s, rate_s, g_s = h_s[keep], room_s[keep], rate_s[keep], g_s[keep]
    g_s[h_s == 21] = 2

    n_series = len(h_s)
    sid = np.repeat(np.arange(n_series), NIGHTS)
    day = np.tile(np.arange(NIGHTS), n_series)
    if len(sid) > n_rows:
        sid, day = sid[:n_rows], day[:n_rows]
    n = len(sid)
    hotel = h_s[sid]
    room = room_s[sid]
    rate = rate_s[sid]
    guests = g_s[sid].astype(float)
    guests[guests < 0] = np.nan
    dates = FIRST_NIGHT + day.astype("timedelta64[D]")
    weekend = ((dates.astype(np.int64) + 3) % 7) >= 4
    prices = _price_table(rng, 500)
    cents = prices[(sid * 7 + weekend + (dates.astype("datetime64[M]").astype(np.int64) % 3)) % 500]
    cents = cents + np.nan_to_num(guests, nan=0).astype(np.int64) * 1_000
    cur = currency[hotel].copy()
    jpy = cur == "JPY"
    cents[jpy] = cents[jpy] * 100          # yen: whole numbers (scale 0 after normalising)
    scale = np.full(n, 2)

    def pick(frac: float, where: np.ndarray | None = None) -> np.ndarray:
        pool = np.flatnonzero(where) if where is not None else np.arange(n)
        k = max(1, int(n * frac)) if len(pool) else 0
        return rng.choice(pool, size=min(k, len(pool)), replace=False)

    i = pick(0.0002); cents[i] = -cents[i]; planted["price_negative"] = len(i)  # noqa: E702
    i = pick(0.0002, cur == "EUR"); cents[i] = 6_000_000; planted["price_cap"] = len(i)  # noqa: E702
    i = pick(0.0001, cur == "EUR"); cur[i] = "EUX"; planted["currency_code"] = len(i)  # noqa: E702
    i = pick(0.0002, cur == "EUR"); cur[i] = "USD"; planted["property_currency"] = len(i)  # noqa: E702
    i = pick(0.0002, jpy); cents[i] = cents[i] + 37; planted["currency_decimals"] = len(i)  # noqa: E702
    i = pick(0.0001); dates[i] = FIRST_NIGHT - np.timedelta64(30, "D")  # noqa: E702
    j = pick(0.0001); dates[j] = dates[j] + np.timedelta64(6 * 366, "D")  # noqa: E702
    planted["date_window"] = len(i) + len(j)
    obp_rows = obp[hotel] & ~np.isnan(guests)
    i = pick(0.0001, obp_rows); guests[i] = 0; planted["guests_min"] = len(i)  # noqa: E702
    i = pick(0.0001, obp_rows & (room != 2)); guests[i] = 3; planted["guests_max"] = len(i)  # noqa: E702
    i = pick(0.000002, (hotel == 30)); guests[i] = 1; planted["guests_all_or_none"] = len(i)  # noqa: E702
    # coverage: drop a few nights of some series
    gap = np.isin(sid, np.arange(17, n_series, max(1, n_series // 25))) & (day % 40 == 5)
    # amounts: minor units with trailing zeros removed
    minor = cents.copy()
    for _ in range(2):
        strip = (scale > 0) & (minor % 10 == 0)
        minor[strip] //= 10
        scale[strip] -= 1
    frame = pd.DataFrame({
        "hotel_code": pd.array(200_000 + hotel, dtype="Int64"),
        "inv_type_code": _strings(room * 1 + hotel * 10 + 5_000_000 * 0, prefix="R"),
        "rate_plan_code": _strings(rate + hotel * 10, prefix="P"),
        "date": dates.astype("datetime64[ns]"),
        "number_of_guests": pd.array(guests, dtype="Float64").astype("Int64"),
        "amount": minor / np.power(10.0, scale),
        "amount_minor": pd.array(minor, dtype="Int64"),
        "amount_scale": pd.array(scale, dtype="Int64"),
        "amount_type": pd.Series(np.full(n, "AfterTax", dtype=object), dtype="string"),
        "decimal_places": pd.array(np.full(n, np.nan), dtype="Float64").astype("Int64"),
        "currency_code": pd.Series(cur, dtype="string"),
    })
    frame = frame[~gap].reset_index(drop=True)
    planted["coverage_series"] = int(len(np.unique(sid[gap])))
    dup = rng.choice(len(frame), size=max(1, int(len(frame) * 0.0003)), replace=False)
    frame = pd.concat([frame, frame.iloc[dup]], ignore_index=True)
    planted["duplicate_key"] = 2 * len(dup)
    m = len(frame)
    frame["source"] = pd.Series(np.full(m, "bench_rates.xlsx", dtype=object), dtype="string")
    frame["sheet"] = pd.Series(np.full(m, "Rates", dtype=object), dtype="string")
    frame["row"] = pd.array(np.arange(2, m + 2), dtype="Int64")
    frame["amount_column"] = pd.Series(np.full(m, "AmountAfterTax", dtype=object), dtype="string")
    frame = frame.astype(RATES_COLUMNS)[list(RATES_COLUMNS)]
    frame.attrs["headers"] = {("bench_rates.xlsx", "Rates"): {
        "layout": "long", "hotel_code": "HotelCode", "inv_type_code": "InvTypeCode",
        "rate_plan_code": "RatePlanCode", "date": "Date", "number_of_guests": "NumberOfGuests",
        "amount_after_tax": "AmountAfterTax", "currency_code": "CurrencyCode"}}
    registry, reg_planted = _registry(n_hotels, obp, currency)
    planted.update(reg_planted)
    return ValidationCase(frame, registry, AS_OF, planted)


def _registry(n_hotels: int, obp: np.ndarray, currency: np.ndarray) -> tuple[Registry, dict[str, int]]:
    hotels = np.arange(n_hotels)
    known = hotels[~np.isin(hotels, [7, 19])]          # 2 hotels not in the registry at all
    pricing = np.where(obp, "OBP", "Standard")
    properties = pd.DataFrame({"hotel_code": 200_000 + known, "hotel_name": [f"Hotel {h}" for h in known],
                               "currency_code": currency[known], "pricing_model": pricing[known],
                               "country_code": "NL"})
    rooms = pd.DataFrame({"hotel_code": np.repeat(200_000 + known, 3),
                          "inv_type_code": [f"R{r + h * 10}" for h in known for r in range(3)],
                          "room_name": "Double", "max_occupancy": 3,
                          "max_adult_occupancy": np.tile([2, 2, 3], len(known)), "max_child_occupancy": 1})
    rooms = rooms[~((rooms["hotel_code"] == 200_000 + 9) & (rooms["inv_type_code"] == "R92"))]  # unknown room
    rr = pd.DataFrame({"hotel_code": np.repeat(200_000 + known, 9),
                       "inv_type_code": [f"R{r + h * 10}" for h in known for r in range(3) for _ in range(3)],
                       "rate_plan_code": [f"P{p + h * 10}" for h in known for _ in range(3) for p in range(3)],
                       "rate_name": "Standard rate", "active": True, "parent_rate_plan_code": pd.NA,
                       "follows_price": False, "read_only": False})
    rr = rr[~((rr["hotel_code"] == 200_000 + 9) & (rr["inv_type_code"] == "R92"))]
    h = rr["hotel_code"] - 200_000
    inactive = (h % 199 == 11) & (rr["rate_plan_code"].str[-1] == "1")
    rr.loc[inactive, "active"] = False
    unmapped = (h % 199 == 12) & (rr["inv_type_code"].str[-1] == "0") & (rr["rate_plan_code"].str[-1] == "2")
    child = (h % 199 == 14) & (rr["rate_plan_code"].str[-1] == "2")
    rr.loc[child, ["follows_price", "parent_rate_plan_code"]] = [True, "parent"]
    ro = (h % 199 == 15) & (rr["rate_plan_code"].str[-1] == "0")
    rr.loc[ro, "read_only"] = True
    rr = rr[~unmapped]
    planted = {"unknown_property_hotels": 2, "unknown_room_series": 3, "inactive_series": int(inactive.sum()),
               "unmapped_series": int(unmapped.sum()), "child_series": int(child.sum()), "read_only_series":
               int(ro.sum())}
    return Registry.from_frames(properties=properties, rooms=rooms, room_rates=rr), planted


# --- 3. price calendars for the compression figures -----------------------------------------------------

#: Calendars whose prices follow a weekday/weekend pattern with month-aligned price levels: the
#: weekly encoding should need at most 0.3x the run-length messages on these.
WEEKLY_CALENDARS = ("weekday_weekend", "friday_saturday", "obp_weekend")
#: Every calendar the compression figures try (weekly must never need more messages than run-length).
CALENDARS = ("random", "three_prices", "constant", *WEEKLY_CALENDARS, "seasonal_weekend", "gappy_weekend",
             "weekend_events")


def calendar(kind: str, n_cells: int, seed: int = 3) -> pd.DataFrame:
    """A canonical rates frame of about ``n_cells`` rows priced by the pattern ``kind``."""
    rng = np.random.default_rng(seed)
    guests = (1, 2, 3) if kind == "obp_weekend" else (None,)
    n_series = max(1, round(n_cells / (NIGHTS * len(guests))))
    sid = np.repeat(np.arange(n_series), NIGHTS)
    day = np.tile(np.arange(NIGHTS), n_series)
    dates = FIRST_NIGHT + day.astype("timedelta64[D]")
    wd = (dates.astype(np.int64) + 3) % 7
    weekend = wd >= 4                                       # Fri, Sat, Sun
    month = dates.astype("datetime64[M]").astype(np.int64)
    base = 8_000 + (sid % 50) * 500
    if kind == "random":
        cents = rng.integers(5_000, 30_000, size=len(sid)) // 100 * 100
    elif kind == "three_prices":         # each night one of three prices at random
        cents = base + rng.integers(0, 3, size=len(sid)) * 1_000
    elif kind == "friday_saturday":      # Fri and Sat dearer, Sunday at the weekday price
        cents = base + ((wd == 4) | (wd == 5)) * 3_000 + (month % 3) * 800
    elif kind == "constant":
        cents = base
    elif kind in ("weekday_weekend", "obp_weekend", "gappy_weekend"):
        cents = base + weekend * 2_500 + (month % 4) * 1_000
    elif kind == "seasonal_weekend":     # seasons that change mid-month, Fri/Sat dearer
        season = (day + sid % 11) // 45
        cents = base + season * 700 + (wd >= 4) * (wd <= 5) * 3_000
    elif kind == "weekend_events":       # weekday/weekend plus a few event nights at other prices
        cents = base + weekend * 2_500 + (month % 4) * 1_000
        ev = rng.random(len(sid)) < 0.03
        cents = np.where(ev, cents + 5_000, cents)
    else:
        raise ValueError(kind)
    keep = np.ones(len(sid), dtype=bool)
    if kind == "gappy_weekend":
        keep = rng.random(len(sid)) > 0.08
    sid, dates, cents = sid[keep], dates[keep], cents[keep]
    parts = []
    for g in guests:
        c = cents + (0 if g is None else (g - 1) * 1_500)
        parts.append(pd.DataFrame({"sid": sid, "date": dates, "cents": c,
                                   "guests": np.nan if g is None else float(g)}))
    df = pd.concat(parts, ignore_index=True)
    m = len(df)
    minor, scale = df["cents"].to_numpy().copy(), np.full(m, 2)
    for _ in range(2):
        strip = (scale > 0) & (minor % 10 == 0)
        minor[strip] //= 10
        scale[strip] -= 1
    s = df["sid"].to_numpy()
    frame = pd.DataFrame({
        "hotel_code": 300_000 + s // 9,
        "inv_type_code": _strings(s // 3, "R"),
        "rate_plan_code": _strings(s % 3, "P"),
        "date": df["date"].to_numpy().astype("datetime64[ns]"),
        "number_of_guests": pd.array(df["guests"].to_numpy(), dtype="Float64").astype("Int64"),
        "amount": minor / np.power(10.0, scale),
        "amount_minor": minor, "amount_scale": scale, "amount_type": "AfterTax",
        "decimal_places": pd.NA, "currency_code": "EUR", "source": f"{kind}.xlsx", "sheet": "Rates",
        "row": np.arange(2, m + 2), "amount_column": "AmountAfterTax",
    })
    return frame.astype(RATES_COLUMNS)[list(RATES_COLUMNS)]
