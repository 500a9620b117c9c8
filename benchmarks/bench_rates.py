"""Issue 2 benchmarks: load, validate, compress and build rate requests, each against a reference
measured in the same run (median of several runs; peak RSS per measured call).

    cd /work/main && .venv/bin/python benchmarks/bench_rates.py [--quick] [--only load,validate,compress,build]

Each figure runs in its own subprocess (clean peaks, no memory carried over between figures);
peak RSS is the kernel's high-water mark (VmHWM) reset right before each measured call. A full
run writes the issue-2 section of ``benchmarks/RESULTS.md``; ``--quick`` uses small sizes and
only prints (add ``--write`` to record it anyway); ``--only`` re-measures some figures and keeps
the others' last values; ``--report-only`` rewrites the section from the last saved figures.
Targets not met are profiled (cProfile, and a line-by-line trace of the project functions).
Generated inputs and the saved figures are cached under ``$TMPDIR/workbench-bench`` (set
``WORKBENCH_BENCH_CACHE`` to move them).
"""

from __future__ import annotations

import argparse
import cProfile
import datetime as dt
import gc
import io
import json
import os
import pstats
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

SIZES = {
    "full": {"load_rows": 1_000_000, "validate_rows": 10_000_000, "calendar_cells": 200_000,
             "timed_cells": 1_000_000, "build_cells": 1_000_000, "repeats": 5, "validate_repeats": 3},
    "quick": {"load_rows": 50_000, "validate_rows": 300_000, "calendar_cells": 20_000,
              "timed_cells": 100_000, "build_cells": 100_000, "repeats": 3, "validate_repeats": 3},
}
TARGETS = {"load": 1.5, "validate": 3.0, "compress": 0.3, "build": 0.5}
SECTION = "## Rates: load, validate, compress, build (issue 2)"


# --- measuring ---------------------------------------------------------------------------------------

def _reset_peak() -> bool:
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
        return True
    except OSError:
        return False


def _rss_mib(field: str) -> float:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_measured(fn: Callable[[], object]) -> tuple[float, float, float, object]:
    """(seconds, RSS before in MiB, peak RSS during the call in MiB, result)."""
    gc.collect()
    before = _rss_mib("VmRSS")
    _reset_peak()
    t = time.perf_counter()
    result = fn()
    seconds = time.perf_counter() - t
    return seconds, before, _rss_mib("VmHWM"), result


def compare(named: dict[str, Callable[[], object]], repeats: int, warmup: bool = False) -> tuple[dict, dict]:
    """Run the callables in turn ``repeats`` times (interleaved, so load changes hit all of them);
    with ``warmup``, each runs once untimed first (memory pools and caches warm for both)."""
    if warmup:
        for fn in named.values():
            fn()
    times: dict[str, list[float]] = {k: [] for k in named}
    peaks: dict[str, float] = {k: 0.0 for k in named}
    base: dict[str, float] = {k: 0.0 for k in named}
    last: dict[str, object] = {}
    for _ in range(repeats):
        for name, fn in named.items():
            last.pop(name, None)
            s, before, peak, result = run_measured(fn)
            times[name].append(s)
            peaks[name] = max(peaks[name], peak)
            base[name] = before
            last[name] = result
    stats = {k: {"median_s": statistics.median(v), "runs_s": [round(x, 4) for x in v],
                 "peak_rss_mib": round(peaks[k]), "rss_before_mib": round(base[k])} for k, v in times.items()}
    return stats, last


def profile(fn: Callable[[], object], top: int = 14) -> list[dict]:
    """The functions taking most of one run (own time and cumulative), as shares of the total."""
    prof = cProfile.Profile()
    prof.enable()
    fn()
    prof.disable()
    st = pstats.Stats(prof, stream=io.StringIO())
    total = sum(v[2] for v in st.stats.values()) or 1e-9
    rows = []
    for (file, line, func), (_cc, nc, tt, ct, _callers) in st.stats.items():
        rows.append({"where": f"{_short_path(file)}:{line}({func})", "calls": nc, "own_s": round(tt, 3),
                     "cum_s": round(ct, 3), "own_share": round(tt / total, 3)})
    by_own = sorted(rows, key=lambda r: -r["own_s"])[:top]
    ours = [r for r in rows if r["where"].startswith(("loaders/", "expectations/", "workbench/"))]
    by_cum = sorted(ours, key=lambda r: -r["cum_s"])[:top]
    # what the costliest project functions spend their time on (direct callees, time within that caller)
    names = {f"{_short_path(k[0])}:{k[1]}({k[2]})": k for k in st.stats}
    for r in by_cum[:8]:
        key = names[r["where"]]
        callees = []
        for callee, (*_, callers) in st.stats.items():
            if key in callers:
                c_nc, c_ct = callers[key][1], callers[key][3]
                callees.append({"where": f"{_short_path(callee[0])}:{callee[1]}({callee[2]})", "calls": c_nc,
                                "cum_s": round(c_ct, 3)})
        r["callees"] = sorted(callees, key=lambda x: -x["cum_s"])[:6]
    return [{"total_s": round(total, 3)}, {"own": by_own}, {"cumulative_in_project": by_cum}]


def line_times(fn: Callable[[], object], funcs: list[Callable], top: int = 12) -> dict:
    """Seconds spent on each line of ``funcs`` during one traced run of ``fn``, costliest first.

    ``s`` counts a line's own work and the calls it makes into untraced code (pandas, numpy, lxml);
    time inside another traced function is counted on that function's lines instead, so the
    shares add up to at most 100%. Tracing slows the run down; the shares are what matter.
    """
    import linecache
    from collections import defaultdict

    codes = {f.__code__ for f in funcs}
    spent: dict[tuple, float] = defaultdict(float)
    inner: dict[tuple, float] = defaultdict(float)
    last: dict[int, tuple[int, float]] = {}
    started: dict[int, float] = {}
    clock = time.perf_counter

    def local(frame, event, arg):
        now = clock()
        key = id(frame)
        if key in last:
            line, t0 = last[key]
            spent[(frame.f_code, line)] += now - t0
        if event == "return":
            last.pop(key, None)
            took = now - started.pop(key, now)
            up = frame.f_back
            while up is not None and id(up) not in last:
                up = up.f_back
            if up is not None:  # time in a traced callee is not the caller's line's own
                inner[(up.f_code, last[id(up)][0])] += took
        else:
            last[key] = (frame.f_lineno, clock())
        return local

    def outer(frame, event, arg):
        if frame.f_code in codes:
            started[id(frame)] = last_t = clock()
            last[id(frame)] = (frame.f_lineno, last_t)
            return local
        return None

    t = clock()
    sys.settrace(outer)
    try:
        fn()
    finally:
        sys.settrace(None)
    total = clock() - t
    own = {k: v - inner.get(k, 0.0) for k, v in spent.items()}
    rows = sorted(own.items(), key=lambda kv: -kv[1])[:top]
    return {"total_s": round(total, 3), "lines": [
        {"where": f"{_short_path(code.co_filename)}:{line}", "function": code.co_name, "s": round(sec, 3),
         "share": round(sec / total, 3), "source": linecache.getline(code.co_filename, line).strip()[:120]}
        for (code, line), sec in rows]}


def _short_path(file: str) -> str:
    root = str(HERE.parent) + os.sep
    if file.startswith(root):
        return file[len(root):]
    for marker in ("site-packages" + os.sep, "lib" + os.sep + "python3"):
        if marker in file:
            return file.split(marker, 1)[1]
    return file


# --- 1. load -----------------------------------------------------------------------------------------

def fig_load(size: dict, want_profile: bool) -> dict:
    import _rates_data as data
    import fastexcel

    from loaders import read_rates

    path, meta = data.cached_rates_xlsx(size["load_rows"])
    typo, _ = data.cached_rates_xlsx(size["load_rows"], typo=True)
    named = {
        "fastexcel_to_pandas": lambda: fastexcel.read_excel(str(path)).load_sheet(0).to_pandas(),
        "fastexcel_to_arrow": lambda: fastexcel.read_excel(str(path)).load_sheet(0).to_arrow(),
        "read_rates": lambda: read_rates(path),
        # informational: one text cell in the price column (the loader's text path for that sheet)
        "typo_fastexcel_to_pandas": lambda: fastexcel.read_excel(str(typo)).load_sheet(0).to_pandas(),
        "typo_read_rates": lambda: read_rates(typo),
    }
    stats, last = compare(named, size["repeats"])
    typo_frame, typo_issues = last["typo_read_rates"]
    frame, issues = last["read_rates"]
    raw = last["fastexcel_to_pandas"]
    cents = (frame["amount_minor"].astype("int64") * 10 ** (2 - frame["amount_scale"].astype("int64"))).sum()
    checks = {"rows": len(frame) == meta["rows"] == len(raw), "no_issues": len(issues) == 0,
              "amounts": int(cents) == meta["total_cents"],
              "dates": str(frame["date"].min().date()) == meta["first_night"]
              and str(frame["date"].max().date()) == meta["last_night"],
              "typo_file": len(typo_frame) == meta["rows"] - 1 and list(typo_issues["rule"]) == ["not_a_number"]}
    ratio = stats["read_rates"]["median_s"] / stats["fastexcel_to_pandas"]["median_s"]
    out = {"figure": "load", "rows": meta["rows"], "file_mib": round(path.stat().st_size / 2**20, 1),
           "stats": stats, "ratio": ratio,
           "ratio_vs_arrow": stats["read_rates"]["median_s"] / stats["fastexcel_to_arrow"]["median_s"],
           "typo_ratio": stats["typo_read_rates"]["median_s"] / stats["typo_fastexcel_to_pandas"]["median_s"],
           "target": TARGETS["load"], "met": ratio <= TARGETS["load"] and all(checks.values()), "checks": checks}
    if want_profile or not out["met"]:
        import loaders.rate_cells as rc
        import loaders.rates as lr
        import loaders.sheets as sheets
        out["profile"] = profile(lambda: read_rates(path))
        out["lines"] = line_times(lambda: read_rates(path), [lr.read_rates, lr._read_one, lr._row_cells,
                                                            rc.type_cells, sheets._read_workbook,
                                                            sheets._read_sheet, sheets.split_header])
    return out


# --- 2. validate -------------------------------------------------------------------------------------

KEY3 = ["hotel_code", "inv_type_code", "rate_plan_code"]
KEY5 = [*KEY3, "date", "number_of_guests"]


def reference_validate(f, registry, as_of: dt.date, fx, minor_units: dict[str, int]):
    """The same rules, hand-written in vectorised pandas: returns ``{rule: (severity, row mask)}``."""
    import numpy as np
    import pandas as pd

    out: dict[str, tuple[str, object]] = {}
    amount, cur, g, d = f["amount"], f["currency_code"], f["number_of_guests"], f["date"]
    fx_rate = cur.map(fx.units_per_eur).astype("float64")
    eur = amount / fx_rate
    iso = cur.isin(list(minor_units))
    out["price_negative"] = ("error", amount < 0)
    out["price_cap"] = ("error", eur > 50_000)
    out["currency_code"] = ("error", cur.notna() & ~iso)
    counts = f.groupby(["hotel_code", "currency_code"], observed=True, sort=False).size().rename("n").reset_index()
    majority = (counts.sort_values("n", ascending=False, kind="stable").drop_duplicates("hotel_code")
                .set_index("hotel_code")["currency_code"])
    props = registry.properties.dropna(subset=["hotel_code", "currency_code"]).drop_duplicates("hotel_code")
    known = props.set_index("hotel_code")["currency_code"]
    prop_cur = pd.concat([known, majority[~majority.index.isin(known.index)]])
    pc = f["hotel_code"].map(prop_cur)
    # a code that is not ISO 4217 gets the currency_code issue only (one issue per cell)
    out["property_currency"] = ("error", (cur != pc).fillna(False) & iso & pc.notna())
    out["currency_decimals"] = ("warning", (f["amount_scale"] - cur.map(minor_units)).gt(0).fillna(False))
    missing_fx = eur.isna() & iso & amount.notna()
    pairs = f.loc[missing_fx, ["hotel_code", "currency_code"]].drop_duplicates()
    out["price_cap_unchecked"] = ("warning", f.index.isin(pairs.index))
    first, last = as_of - dt.timedelta(days=1), as_of.replace(year=as_of.year + 5)
    out["date_window"] = ("error", (d < pd.Timestamp(first)) | (d > pd.Timestamp(last)))
    out["guests_min"] = ("error", (g < 1).fillna(False))
    # registry facts via merges with the rows
    rooms, rr = registry.rooms, registry.room_rates
    pairs = pd.concat([rooms[["hotel_code", "inv_type_code"]], rr[["hotel_code", "inv_type_code"]]]).drop_duplicates()
    room_info = pairs.merge(rooms[["hotel_code", "inv_type_code", "max_adult_occupancy"]].drop_duplicates(
        ["hotel_code", "inv_type_code"]), how="left").assign(room_exists=True)
    mapping = rr[[*KEY3, "active", "is_child_rate", "parent_rate_plan_code", "follows_price",
                  "read_only"]].drop_duplicates(KEY3)
    m = (f[KEY3].merge(props[["hotel_code", "pricing_model"]], on="hotel_code", how="left")
         .merge(room_info, on=["hotel_code", "inv_type_code"], how="left")
         .merge(mapping, on=KEY3, how="left", indicator=True))
    m.index = f.index
    room_exists = m["room_exists"].fillna(False).astype(bool)
    out["guests_max"] = ("error", (g > m["max_adult_occupancy"]).fillna(False))
    out["guests_pricing_model"] = ("error", g.notna() & (m["pricing_model"] == "Standard").fillna(False))
    rooms_known = f["hotel_code"].isin(pd.concat([rooms["hotel_code"], rr["hotel_code"]]).dropna().unique())
    out["unknown_room"] = ("error", rooms_known & ~room_exists)
    mapped = m["_merge"] == "both"
    active = m["active"].fillna(True).astype(bool)
    out["rate_not_active_for_room"] = ("error", f["hotel_code"].isin(rr["hotel_code"].dropna().unique())
                                       & room_exists & (~mapped | ~active))
    live = mapped & active
    child = m["is_child_rate"].fillna(False).astype(bool) | m["parent_rate_plan_code"].notna()
    out["child_rate_follows_price"] = ("error", live & child & m["follows_price"].fillna(True).astype(bool))
    out["read_only_rate"] = ("error", live & m["read_only"].fillna(False).astype(bool))
    out["duplicate_key"] = ("warning", f.duplicated(KEY5, keep="first"))  # the later rows; the first is sent
    has = g.notna()
    by_hotel = has.groupby(f["hotel_code"])
    with_g, total = by_hotel.transform("sum"), by_hotel.transform("size")
    without = total - with_g
    mixed = (with_g > 0) & (without > 0)
    out["guests_all_or_none"] = ("error", mixed & (has == (with_g < without)))
    first_of_hotel = ~f["hotel_code"].duplicated()
    occ = props.loc[props["pricing_model"].isin(["OBP", "LOS"]), "hotel_code"]
    no_guests = f["hotel_code"].isin(occ) & (with_g == 0)
    out["guests_for_occupancy_pricing"] = ("warning", first_of_hotel & no_guests)
    if len(registry.properties):
        out["unknown_property"] = ("warning", first_of_hotel & ~f["hotel_code"].isin(registry.properties["hotel_code"]))
    # not_checked: a property lacking a fact some rule needs (currency, pricing model, rate plans,
    # MaxAdultOccupancy of a room priced with guests, FollowsPrice of a priced child rate)
    allp = registry.properties
    lacking = (~f["hotel_code"].isin(allp.loc[allp["currency_code"].notna(), "hotel_code"])
               | ~f["hotel_code"].isin(allp.loc[allp["pricing_model"].notna(), "hotel_code"])
               | ~f["hotel_code"].isin(rr["hotel_code"].dropna().unique())
               | (g.notna() & m["max_adult_occupancy"].isna()))
    unsure = live & child & m["follows_price"].isna()
    lacking_hotels = f.loc[lacking | unsure, "hotel_code"].unique()
    out["not_checked"] = ("warning", first_of_hotel & f["hotel_code"].isin(lacking_hotels))
    start = pd.Timestamp(as_of)
    window = (d >= start) & (d < start + pd.Timedelta(days=365))
    nights = (f.loc[window, [*KEY3, "date"]].drop_duplicates().groupby(KEY3, observed=True, sort=False).size()
              .rename("nights"))
    firsts = f.loc[~f.duplicated(KEY3), KEY3]
    n = firsts.merge(nights.reset_index(), on=KEY3, how="left")["nights"].fillna(0).to_numpy()
    cover = np.zeros(len(f), dtype=bool)
    cover[firsts.index[n < 365]] = True
    out["coverage"] = ("warning", cover)
    return out


def reference_issues(f, registry, as_of, fx, minor_units):
    """The reference's output: one row per failing row and rule (provenance, rule, severity)."""
    import numpy as np
    import pandas as pd

    parts = []
    for rule, (severity, mask) in reference_validate(f, registry, as_of, fx, minor_units).items():
        mask = np.asarray(mask, dtype=bool)
        if mask.any():
            parts.append(f.loc[mask, ["source", "sheet", "row"]].assign(rule=rule, severity=severity))
    return pd.concat(parts, ignore_index=True)


def fig_validate(size: dict, want_profile: bool) -> dict:
    import _rates_data as data
    import great_expectations  # noqa: F401  (import time is excluded)

    from expectations import read_fx_table, validate_rates
    from expectations.reference import currency_minor_units

    t = time.perf_counter()
    case = data.validation_case(size["validate_rows"])
    generated_s = time.perf_counter() - t
    fx, minor_units = read_fx_table(), currency_minor_units()
    f, reg = case.frame, case.registry
    warm = time.perf_counter()
    validate_rates(f.head(2_000), registry=reg, as_of=case.as_of, fx=fx)   # GX context + assets, once
    warm_s = time.perf_counter() - warm
    named = {
        "reference_pandas": lambda: reference_issues(f, reg, case.as_of, fx, minor_units),
        "validate_rates": lambda: validate_rates(f, registry=reg, as_of=case.as_of, fx=fx),
    }
    stats, last = compare(named, size["validate_repeats"], warmup=True)
    lead, ref = last["validate_rates"], last["reference_pandas"]
    rules = sorted(set(lead["rule"]) | set(ref["rule"]))
    agreement = {}
    for rule in rules:
        a = set(lead.loc[lead["rule"] == rule, "row"].astype("int64"))
        b = set(ref.loc[ref["rule"] == rule, "row"].astype("int64"))
        agreement[rule] = {"validate_rates": len(a), "reference": len(b), "differ": len(a ^ b)}
    failing = len(set(lead.loc[lead["severity"] == "error", "row"].astype("int64")))
    ratio = stats["validate_rates"]["median_s"] / stats["reference_pandas"]["median_s"]
    agree = all(v["differ"] == 0 for v in agreement.values())
    out = {"figure": "validate", "rows": len(f), "frame_mib": round(f.memory_usage(deep=True).sum() / 2**20),
           "generate_s": round(generated_s, 1), "gx_setup_s": round(warm_s, 2), "stats": stats, "ratio": ratio,
           "target": TARGETS["validate"], "met": ratio <= TARGETS["validate"] and agree, "agree": agree,
           "agreement": agreement, "rows_with_errors": failing, "error_share": failing / len(f),
           "issues": len(lead), "planted": case.planted}
    if want_profile or not out["met"]:
        import expectations.groups as eg
        import expectations.rates as er
        import loaders.issues as li
        run = lambda: validate_rates(f, registry=reg, as_of=case.as_of, fx=fx)  # noqa: E731
        out["profile"] = profile(run)
        out["lines"] = line_times(run, [er.validate_rates, er._price_rules, er.to_rows, er.date_rules,
                                        er._room_rate_rules, er._duplicate_rules, eg.property_currency,
                                        eg.fx_missing, eg.annotate_room_rates, eg._guests_all_or_none,
                                        eg._occupancy_pricing_without_guests, eg.unknown_property, eg._coverage,
                                        li.issues_where, li.combine])
    return out


# --- 3. compress -------------------------------------------------------------------------------------

def _round_trip_ok(frame, c) -> bool:
    """``expand(messages)`` sets exactly the input's nights and prices, each night once."""
    import pandas as pd

    from workbench.writers.compress import expand

    nights = expand(c.messages)
    if nights.duplicated(["hotel_code", "inv_type_code", "rate_plan_code", "date"]).any():
        return False
    got = nights.merge(c.prices, on="vector")[["hotel_code", "inv_type_code", "rate_plan_code", "date",
                                               "number_of_guests", "amount_minor", "amount_scale"]]
    want = frame[got.columns.tolist()]
    cols = got.columns.tolist()

    def norm(x: pd.DataFrame) -> pd.DataFrame:
        x = x.astype({"hotel_code": "int64", "inv_type_code": "string", "rate_plan_code": "string",
                      "date": "datetime64[ns]", "number_of_guests": "Int64", "amount_minor": "int64",
                      "amount_scale": "int64"})
        return x.sort_values(cols, na_position="first").reset_index(drop=True)

    return len(got) == len(want) and norm(got).equals(norm(want))


def fig_compress(size: dict, want_profile: bool) -> dict:
    import _rates_data as data

    from workbench.writers.compress import compress

    calendars = {}
    for kind in data.CALENDARS:
        frame = data.calendar(kind, size["calendar_cells"])
        weekly, runs = compress(frame), compress(frame, weekly=False)
        nw, nr = len(weekly.messages), len(runs.messages)
        # a lower bound for any encoding: one message per distinct price vector in each series-month
        bound = int(runs.messages.drop_duplicates(["hotel_code", "inv_type_code", "rate_plan_code", "month",
                                                   "vector"]).shape[0])
        calendars[kind] = {"cells": len(frame), "weekly": nw, "run_length": nr, "ratio": nw / nr,
                           "lower_bound": bound, "weekly_target": kind in data.WEEKLY_CALENDARS,
                           "round_trip": _round_trip_ok(frame, weekly) and _round_trip_ok(frame, runs)}
    never_worse = all(v["weekly"] <= v["run_length"] for v in calendars.values())
    weekly_ok = all(v["ratio"] <= TARGETS["compress"] for v in calendars.values() if v["weekly_target"])
    round_trip = all(v["round_trip"] for v in calendars.values())
    frame = data.calendar("seasonal_weekend", size["timed_cells"])
    stats, last = compare({"run_length": lambda: compress(frame, weekly=False),
                           "weekly": lambda: compress(frame)}, size["repeats"])
    out = {"figure": "compress", "calendars": calendars, "never_worse": never_worse, "weekly_ok": weekly_ok,
           "round_trip": round_trip, "timed_kind": "seasonal_weekend", "timed_cells": len(frame),
           "timed_messages": {"weekly": len(last["weekly"].messages), "run_length": len(last["run_length"].messages)},
           "stats": stats, "ratio": stats["weekly"]["median_s"] / stats["run_length"]["median_s"],
           "target": TARGETS["compress"], "met": never_worse and weekly_ok and round_trip}
    if want_profile:
        out["profile"] = profile(lambda: compress(frame))
    return out


# --- 4. build and serialise ------------------------------------------------------------------------

def _plain_requests(c) -> list[tuple[str, list[tuple[dict, list[dict]]]]]:
    """The compressed messages as plain Python (outside the timer): per request, the hotel and, per
    message, the StatusApplicationControl attributes and the BaseByGuestAmt attribute dicts."""
    import pandas as pd

    dow = ("Mon", "Tue", "Weds", "Thur", "Fri", "Sat", "Sun")
    amounts: dict[int, list[dict]] = {}
    for p in c.prices.itertuples(index=False):
        a = {} if pd.isna(p.number_of_guests) else {"NumberOfGuests": str(int(p.number_of_guests))}
        minor, scale = int(p.amount_minor), int(p.amount_scale)
        text = str(minor) if scale == 0 else f"{'-' if minor < 0 else ''}{str(abs(minor)).rjust(scale + 1, '0')[:-scale]}" \
            f".{str(abs(minor)).rjust(scale + 1, '0')[-scale:]}"
        a[f"Amount{p.amount_type}"] = text
        a["CurrencyCode"] = p.currency_code
        amounts.setdefault(int(p.vector), []).append(a)
    out = []
    for (hotel, _month), msgs in c.messages.groupby(["hotel_code", "month"], sort=True):
        items = []
        for m in msgs.itertuples(index=False):
            attrs = {"Start": m.start.strftime("%Y-%m-%d"), "End": m.end.strftime("%Y-%m-%d"),
                     "RatePlanCode": str(m.rate_plan_code), "InvTypeCode": str(m.inv_type_code)}
            if m.mask != 0b1111111:
                attrs.update({d: "true" if m.mask >> i & 1 else "false" for i, d in enumerate(dow)})
            items.append((attrs, amounts[int(m.vector)]))
        out.append((str(int(hotel)), items))
    return out


def lxml_reference(plain, timestamp: str) -> list[bytes]:
    """The same element tree with plain lxml Element/SubElement calls, serialised."""
    from lxml import etree

    ns = "{http://www.opentravel.org/OTA/2003/05}"
    t_root, t_msgs, t_msg, t_sac = (ns + n for n in ("OTA_HotelRateAmountNotifRQ", "RateAmountMessages",
                                                     "RateAmountMessage", "StatusApplicationControl"))
    t_rates, t_rate, t_amts, t_amt = (ns + n for n in ("Rates", "Rate", "BaseByGuestAmts", "BaseByGuestAmt"))
    sub = etree.SubElement
    bodies = []
    for hotel, items in plain:
        root = etree.Element(t_root, {"Version": "1.0", "TimeStamp": timestamp}, nsmap={None: ns[1:-1]})
        msgs = sub(root, t_msgs, {"HotelCode": hotel})
        for attrs, amts in items:
            msg = sub(msgs, t_msg)
            sub(msg, t_sac, attrs)
            parent = sub(sub(sub(msg, t_rates), t_rate), t_amts)
            for a in amts:
                sub(parent, t_amt, a)
        bodies.append(etree.tostring(root, xml_declaration=True, encoding="UTF-8"))
    return bodies


def _canonical(body: bytes) -> bytes:
    from lxml import etree

    root = etree.fromstring(body)
    root.attrib.pop("TimeStamp", None)
    return etree.tostring(root, method="c14n")


def _build_one(kind: str, size: dict, want_profile: bool) -> dict:
    import _rates_data as data

    from workbench.writers.batches import iter_requests
    from workbench.writers.compress import compress

    ts = dt.datetime(2026, 3, 2, 9, 30, tzinfo=dt.UTC)
    frame = data.calendar(kind, size["build_cells"])
    t = time.perf_counter()
    c = compress(frame)
    compress_s = time.perf_counter() - t
    plain = _plain_requests(c)
    run = lambda: list(iter_requests(c, timestamp=ts))  # noqa: E731
    stats, last = compare({"lxml_reference": lambda: lxml_reference(plain, ts.isoformat(timespec="seconds")),
                           "iter_requests": run}, size["repeats"])
    ours, ref = [r.body for r in last["iter_requests"]], last["lxml_reference"]
    same = len(ours) == len(ref) and all(_canonical(a) == _canonical(b) for a, b in zip(ours, ref, strict=True))
    ratio = stats["lxml_reference"]["median_s"] / stats["iter_requests"]["median_s"]
    out = {"cells": len(frame), "messages": len(c.messages), "requests": len(ours),
           "mib": round(sum(map(len, ours)) / 2**20, 1), "compress_s": round(compress_s, 2), "stats": stats,
           "messages_per_s": len(c.messages) / stats["iter_requests"]["median_s"],
           "reference_messages_per_s": len(c.messages) / stats["lxml_reference"]["median_s"],
           "ratio": ratio, "same_xml": same}
    if want_profile or ratio < TARGETS["build"]:
        import workbench.ota.rate_amount as ra
        import workbench.writers.batches as wb

        out["profile"] = profile(run)
        out["lines"] = line_times(run, [wb.iter_requests, ra.build_request])
    return out


def fig_build(size: dict, want_profile: bool) -> dict:
    results = {kind: _build_one(kind, size, want_profile) for kind in ("seasonal_weekend", "obp_weekend")}
    met = all(v["same_xml"] and v["ratio"] >= TARGETS["build"] for v in results.values())
    return {"figure": "build", "inputs": results, "target": TARGETS["build"], "met": met,
            "ratio": min(v["ratio"] for v in results.values())}


FIGURES = {"load": fig_load, "validate": fig_validate, "compress": fig_compress, "build": fig_build}


# --- driver ------------------------------------------------------------------------------------------

MEASURED = ["loaders", "expectations", "workbench/writers", "workbench/ota"]


def code_version() -> str:
    """The commit measured, and whether the measured packages had uncommitted changes (read-only git)."""
    def git(*args: str) -> str:
        try:
            return subprocess.run(["git", *args], capture_output=True, text=True, cwd=HERE.parent,
                                  timeout=30).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            return ""
    head = git("log", "-1", "--format=%h", "--", *MEASURED) or "unknown"  # last commit touching them
    dirty = git("status", "--porcelain", "--", *MEASURED)
    return head + (" + uncommitted changes" if dirty else "")


def run_worker(name: str, mode: str, want_profile: bool) -> None:
    version = code_version()
    load0 = os.getloadavg()
    t = time.perf_counter()
    result = FIGURES[name](SIZES[mode], want_profile)
    result.update({"wall_s": round(time.perf_counter() - t, 1), "code": version,
                   "code_after": code_version(), "loadavg_before": [round(x, 2) for x in load0],
                   "loadavg_after": [round(x, 2) for x in os.getloadavg()]})
    print("@@RESULT@@" + json.dumps(result, default=float))


def spawn(name: str, mode: str, want_profile: bool) -> dict:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", name, "--mode", mode]
    if want_profile:
        cmd.append("--profile")
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=HERE.parent, timeout=3 * 3600)
    for line in proc.stdout.splitlines():
        if line.startswith("@@RESULT@@"):
            return json.loads(line[len("@@RESULT@@"):])
    raise RuntimeError(f"figure {name} failed (exit {proc.returncode}):\n{proc.stderr[-4000:]}")


def _s(x: float) -> str:
    return f"{x:.3f} s" if x < 10 else f"{x:.1f} s"


def _peak(st: dict) -> str:
    return f"{st['peak_rss_mib']:,} MiB (+{max(0, st['peak_rss_mib'] - st['rss_before_mib']):,})"


def _verdict(met: bool) -> str:
    return "**met**" if met else "**not met**"


def summary_rows(results: dict) -> list[list[str]]:
    """One row per target: figure, size, measured, reference, ratio, target, peak RSS, verdict."""
    rows = []
    if "load" in results:
        r = results["load"]
        st = r["stats"]
        rows.append(["1. load XLSX (`read_rates`)", f"{r['rows']:,} rows, {r['file_mib']} MiB",
                     _s(st["read_rates"]["median_s"]), f"{_s(st['fastexcel_to_pandas']['median_s'])} fastexcel "
                     f"to_pandas ({_s(st['fastexcel_to_arrow']['median_s'])} to_arrow)",
                     f"{r['ratio']:.2f}x ({r['ratio_vs_arrow']:.2f}x vs arrow)", "<= 1.5x",
                     f"{_peak(st['read_rates'])}; raw {_peak(st['fastexcel_to_pandas'])}", _verdict(r["met"])])
    if "validate" in results:
        r = results["validate"]
        st = r["stats"]
        rows.append(["2. validate (`validate_rates`, full suite)", f"{r['rows']:,} rows",
                     _s(st["validate_rates"]["median_s"]), f"{_s(st['reference_pandas']['median_s'])} hand-written "
                     "pandas", f"{r['ratio']:.2f}x" + ("" if r["agree"] else " (row sets DIFFER)"), "<= 3x",
                     f"{_peak(st['validate_rates'])}; reference {_peak(st['reference_pandas'])}", _verdict(r["met"])])
    if "compress" in results:
        r = results["compress"]
        targets = [v["ratio"] for v in r["calendars"].values() if v["weekly_target"]]
        worst = max(v["weekly"] / v["run_length"] for v in r["calendars"].values())
        rows.append(["3. compress (weekly vs run-length messages)",
                     f"{len(r['calendars'])} calendars; timed on {r['timed_cells']:,} cells",
                     f"weekday/weekend: {min(targets):.2f}-{max(targets):.2f}x of run-length messages; "
                     f"worst calendar {worst:.2f}x",
                     f"run-length {_s(r['stats']['run_length']['median_s'])}; weekly "
                     f"{_s(r['stats']['weekly']['median_s'])} on {r['timed_cells']:,} cells",
                     f"{max(targets):.2f}x", "<= 1x every input; <= 0.3x weekday/weekend",
                     _peak(r["stats"]["weekly"]), _verdict(r["met"])])
    if "build" in results:
        r = results["build"]
        for kind, v in r["inputs"].items():
            st = v["stats"]
            rows.append([f"4. build + serialise (`iter_requests`), {kind}",
                         f"{v['messages']:,} messages, {v['requests']:,} requests, {v['mib']} MiB",
                         f"{_s(st['iter_requests']['median_s'])} ({v['messages_per_s']:,.0f} msg/s)",
                         f"{_s(st['lxml_reference']['median_s'])} raw lxml ({v['reference_messages_per_s']:,.0f} msg/s)",
                         f"{v['ratio']:.2f}x of lxml throughput" + ("" if v["same_xml"] else " (XML DIFFERS)"),
                         ">= 0.5x", _peak(st["iter_requests"]),
                         _verdict(v["same_xml"] and v["ratio"] >= TARGETS["build"])])
    return rows


HEAD = ["figure", "size", "measured (median)", "reference (median, same run)", "ratio", "target", "peak RSS",
        "verdict"]


def markdown_table(head: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(str(c).replace("|", "/") for c in r) + " |" for r in rows]
    return "\n".join(lines)


def hotspots(profile_rows: list[dict], n: int = 8) -> list[str]:
    total = profile_rows[0]["total_s"]
    cum = profile_rows[2]["cumulative_in_project"][:n]
    own = [r for r in profile_rows[1]["own"]][:n]
    out = [f"cumulative, project code (one profiled run, {total:.2f} s under cProfile):"]
    for r in cum:
        out.append(f"  {r['where']}: {r['cum_s']:.2f} s cum ({r['cum_s'] / total:.0%}), {r['calls']:,} calls")
        out += [f"      -> {c['where']}: {c['cum_s']:.2f} s ({c['cum_s'] / total:.0%}), {c['calls']:,} calls"
                for c in r.get("callees", [])[:4] if c["cum_s"] / total >= 0.02]
    out += ["own time (any code):"]
    out += [f"  {r['where']}: {r['own_s']:.2f} s own ({r['own_share']:.0%}), {r['calls']:,} calls" for r in own]
    return out


def details(results: dict) -> list[str]:
    out = []
    if "load" in results:
        r = results["load"]
        out.append(f"- **load**: checks on the loaded frame (row count, no issues, amounts sum to the cents written, "
                   f"first/last night; the typo file loses exactly its one bad row, with one issue): "
                   f"{', '.join(k + ('=ok' if v else '=FAILED') for k, v in r['checks'].items())}. "
                   f"Runs (s): read_rates {r['stats']['read_rates']['runs_s']}, to_pandas "
                   f"{r['stats']['fastexcel_to_pandas']['runs_s']}. Not part of the target: the same workbook "
                   f"with one price typed as text (`12O.50`), which sends the sheet down the loader's text path: "
                   f"read_rates {_s(r['stats']['typo_read_rates']['median_s'])} vs fastexcel to_pandas "
                   f"{_s(r['stats']['typo_fastexcel_to_pandas']['median_s'])} on that file = "
                   f"{r['typo_ratio']:.2f}x.")
    if "validate" in results:
        r = results["validate"]
        agree = ", ".join(f"{k} {v['validate_rates']:,}" + ("" if not v["differ"] else f" vs {v['reference']:,} "
                                                              f"(**{v['differ']:,} differ**)")
                          for k, v in r["agreement"].items())
        out.append(f"- **validate**: {r['rows']:,} rows ({r['frame_mib']:,} MiB in memory), "
                   f"{r['rows_with_errors']:,} rows with errors ({r['error_share']:.2%}), {r['issues']:,} issues. "
                   f"Failing rows per rule, `validate_rates` vs reference ("
                   + ("identical for every rule" if r["agree"] else "**not identical**") + f"): {agree}. "
                   f"GX import excluded; one-time GX context setup {r['gx_setup_s']} s excluded (warm-up on 2,000 "
                   f"rows), then one untimed run of each before the timed ones. Runs (s): validate_rates {r['stats']['validate_rates']['runs_s']}, reference "
                   f"{r['stats']['reference_pandas']['runs_s']}.")
    if "compress" in results:
        r = results["compress"]
        cal = "; ".join(f"{k} {v['weekly']:,}/{v['run_length']:,} = {v['ratio']:.2f}x (bound {v['lower_bound']:,})"
                        + (" [target set]" if v["weekly_target"] else "") for k, v in r["calendars"].items())
        out.append(f"- **compress**: messages weekly/run-length on ~{next(iter(r['calendars'].values()))['cells']:,}"
                   f"-cell calendars: {cal}. Bound = distinct price vectors per series-month (no encoding can do "
                   f"better). The 0.3x target is judged on the [target set]: weekday/weekend prices whose levels "
                   f"change at month starts; where levels change mid-month (seasonal_weekend) even the bound is "
                   f"above 0.3x, and gaps or one-off event nights (gappy_weekend, weekend_events) add messages "
                   f"no weekday mask can absorb. Weekly never worse than run-length: {r['never_worse']}; expand(messages) gives back "
                   f"exactly the input's nights and prices (both encodings): {r['round_trip']}. Timed on "
                   f"{r['timed_kind']} ({r['timed_cells']:,} cells -> {r['timed_messages']['weekly']:,} weekly / "
                   f"{r['timed_messages']['run_length']:,} run-length messages): weekly "
                   f"{r['timed_cells'] / r['stats']['weekly']['median_s']:,.0f} cells/s, run-length "
                   f"{r['timed_cells'] / r['stats']['run_length']['median_s']:,.0f} cells/s "
                   f"(weekly takes {r['ratio']:.2f}x the run-length time; no target).")
    if "build" in results:
        for kind, v in results["build"]["inputs"].items():
            out.append(f"- **build {kind}**: {v['cells']:,} cells compressed in {v['compress_s']} s (not timed); "
                       f"same XML as the lxml reference (c14n, TimeStamp ignored): {v['same_xml']}. Runs (s): "
                       f"iter_requests {v['stats']['iter_requests']['runs_s']}, lxml "
                       f"{v['stats']['lxml_reference']['runs_s']}.")
    return out


def report_lines(r: dict) -> str:
    rows = summary_rows({r["figure"]: r})
    text = [" | ".join(HEAD)] + [" | ".join(row) for row in rows]
    text += details({r["figure"]: r})
    for prof in _profiles(r):
        text += [f"hotspots ({prof[0]}):"] + hotspots(prof[1])
    for name, lines in _lines(r):
        text.append(f"costliest lines ({name}; one traced run, {lines['total_s']:.2f} s; own time of the line, "
                    "including library calls, excluding traced project functions):")
        text += [f"  {x['where']} {x['function']}: {x['s']:.2f} s ({x['share']:.0%})  {x['source']}"
                 for x in lines["lines"]]
    text.append(f"load average before/after: {r['loadavg_before']} / {r['loadavg_after']}; wall {r['wall_s']} s; "
                f"code {r.get('code')} (after: {r.get('code_after')})")
    return "\n".join(text)


def _profiles(r: dict) -> list[tuple[str, list[dict]]]:
    if "profile" in r:
        return [(r["figure"], r["profile"])]
    return [(f"build {k}", v["profile"]) for k, v in r.get("inputs", {}).items() if "profile" in v]


def _lines(r: dict) -> list[tuple[str, dict]]:
    if "lines" in r:
        return [(r["figure"], r["lines"])]
    return [(f"build {k}", v["lines"]) for k, v in r.get("inputs", {}).items() if "lines" in v]


def write_results(results: dict, mode: str, command: str) -> None:
    path = HERE / "RESULTS.md"
    text = path.read_text()
    start = text.index(SECTION) + len(SECTION)
    nxt = text.find("\n## ", start)
    end = len(text) if nxt < 0 else nxt + 1
    loads = sorted({x for r in results.values() for x in (r["loadavg_before"][0], r["loadavg_after"][0])})
    versions = sorted({v for r in results.values() for v in (r.get("code", "?"), r.get("code_after", "?"))})
    body = [
        "",
        f"Measured {dt.date.today():%Y-%m-%d} with `{command}` ({mode} sizes; {os.cpu_count()} cores, "
        f"{_mem_gib():.0f} GiB; other engineers' jobs ran at the same time: 1-minute load average "
        f"{loads[0]:.1f}-{loads[-1]:.1f} during the figures). Medians of "
        f"{SIZES[mode]['repeats']} runs ({SIZES[mode]['validate_repeats']} for validation), reference and "
        "measured code interleaved in the same process; each figure in its own process. Peak RSS is the "
        "process high-water mark (VmHWM, reset before each call); in brackets, the rise over the RSS before the "
        "call. Inputs are generated (benchmarks/_rates_data.py), seeded. Code measured (last commit touching "
        "loaders/, expectations/, workbench/writers/, workbench/ota/): "
        + ", ".join(versions) + ("" if len(versions) == 1 else " (the code changed while the figures ran)") + ".",
        "",
        markdown_table(HEAD, summary_rows(results)),
        "",
        *details(results),
        "",
    ]
    traced = [(name, lines) for r in results.values() for name, lines in _lines(r)]
    if traced:
        body.append("Hotspots of the targets not met: share of one run, line by line (a line's time includes the "
                    "pandas/numpy/lxml calls it makes, not the project functions it calls, which are listed on "
                    "their own lines; the traced run is slower than an untraced one, the shares are what count; "
                    "cProfile function totals are in the script's output):")
        body.append("")
        for name, lines in traced:
            top = [x for x in lines["lines"] if x["share"] >= 0.03][:7]
            body.append(f"- {name} ({lines['total_s']:.1f} s traced): " + "; ".join(
                f"`{x['where']}` {x['function']} {x['share']:.0%} (`{x['source'].replace('|', '/')}`)" for x in top))
        body.append("")
    path.write_text(text[:start] + "\n" + "\n".join(body) + "\n" + text[end:])


def _mem_gib() -> float:
    with open("/proc/meminfo") as fh:
        return int(fh.readline().split()[1]) / 2**20


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="small sizes for a fast sanity run (prints only)")
    ap.add_argument("--only", default=",".join(FIGURES), help="comma-separated figures: " + ", ".join(FIGURES))
    ap.add_argument("--profile", action="store_true", help="profile every figure, met or not")
    ap.add_argument("--write", action="store_true", help="write RESULTS.md even with --quick")
    ap.add_argument("--no-write", action="store_true", help="do not write RESULTS.md")
    ap.add_argument("--json", type=Path, help="also save the raw results as JSON here")
    ap.add_argument("--report-only", action="store_true",
                    help="rewrite the RESULTS.md section from the last saved figures, measuring nothing")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--mode", default="full", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        run_worker(args.worker, args.mode, args.profile)
        return 0
    mode = "quick" if args.quick else "full"
    if args.report_only:
        import _rates_data as data
        saved = data.CACHE / f"bench_rates_{mode}.json"
        if not saved.exists():
            ap.error(f"no saved figures at {saved}: run the benchmark first")
        merged = json.loads(saved.read_text())
        write_results({k: merged[k] for k in FIGURES if k in merged}, mode,
                      "cd /work/main && .venv/bin/python benchmarks/bench_rates.py" + (" --quick" if args.quick else ""))
        print(f"rewrote the issue-2 section of {HERE / 'RESULTS.md'} from {saved}")
        return 0
    names = [n.strip() for n in args.only.split(",") if n.strip()]
    unknown = [n for n in names if n not in FIGURES]
    if unknown:
        ap.error(f"unknown figure(s) {', '.join(unknown)}; choose from {', '.join(FIGURES)}")
    if "load" in names:   # generate the workbook once, outside any measurement
        import _rates_data as data
        t = time.perf_counter()
        path, _ = data.cached_rates_xlsx(SIZES[mode]["load_rows"])
        typo, _ = data.cached_rates_xlsx(SIZES[mode]["load_rows"], typo=True)
        print(f"workbooks {path}, {typo.name} ready ({time.perf_counter() - t:.1f} s)", flush=True)
    results = {}
    for name in names:
        print(f"running {name} ({mode}) ...", flush=True)
        results[name] = spawn(name, mode, args.profile)
        print(report_lines(results[name]), flush=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1, default=float))
    if (mode == "full" or args.write) and not args.no_write:
        # figures not re-run this time (--only) keep their last measured values
        import _rates_data as data
        saved = data.CACHE / f"bench_rates_{mode}.json"
        merged = json.loads(saved.read_text()) if saved.exists() else {}
        merged.update(results)
        data.CACHE.mkdir(parents=True, exist_ok=True)
        saved.write_text(json.dumps(merged, default=float))
        merged = {k: merged[k] for k in FIGURES if k in merged}
        command = "cd /work/main && .venv/bin/python benchmarks/bench_rates.py" + (" --quick" if args.quick else "")
        write_results(merged, mode, command)
        print(f"wrote the issue-2 section of {HERE / 'RESULTS.md'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
