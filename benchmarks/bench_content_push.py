"""Content push planning (issue 12): one request per property, read back and compared with the journal.

    .venv/bin/python benchmarks/bench_content_push.py [--properties 1000] [--runs 3]

Measured: ``plan_content`` for N properties (build each request, read it back into canonical rows, compare every
part with the journal's last accepted content: the Overlay guard and the dry run's before -> after), against
``build_content`` alone for the same properties in the same run (the least a push must do). Medians of ``runs``,
interleaved. The frames are generated (seeded): per property 4 contacts, 2 languages, 2 policies, 2 taxes, 2 fees,
2 services, a restaurant with 2 opening times, 2 attractions, 2 payments, 2 phrase options, 1 award.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from workbench.ota.content_notif import KEY_COLUMNS, PART_COLUMNS, PARTS, build_content  # noqa: E402
from workbench.writers.content_plan import plan_content, split_properties  # noqa: E402
from workbench.writers.journal import Journal  # noqa: E402


def _frame(part: str, rows: list[dict]) -> pd.DataFrame:
    cols = {**KEY_COLUMNS, **PART_COLUMNS[part], "source": "string", "sheet": "string", "row": "Int64"}
    data = {c: [r.get(c, [] if t == "object" else None) for r in rows] for c, t in cols.items()}
    out = {}
    for c, t in cols.items():
        if t == "object":
            out[c] = pd.Series(data[c], dtype=object)
        elif t.startswith("datetime"):
            out[c] = pd.to_datetime(pd.Series(data[c], dtype=object)).astype(t)
        elif t == "float64":
            out[c] = pd.Series([float("nan") if v is None else v for v in data[c]], dtype=t)
        else:
            out[c] = pd.Series([pd.NA if v is None else v for v in data[c]], dtype=t)
    return pd.DataFrame(out)


def generate(n: int, seed: int = 7) -> dict[str, pd.DataFrame]:
    rnd = random.Random(seed)
    rows: dict[str, list[dict]] = {p: [] for p in PARTS}
    for i in range(n):
        code = 3000000 + i
        key = {"hotel_code": code, "property": str(code), "source": "content.xlsx"}

        def add(part: str, key: dict = key, **values: object) -> None:
            rows[part].append({**key, "sheet": part, "row": len(rows[part]) + 2, **values})

        add("Property", notif_type="Overlay", hotel_name=f"Hotel {i}", language_code="en", currency_code="EUR",
            target="Test", property_class_code=20, sellable_units=rnd.randint(1, 300),
            latitude=rnd.uniform(-60, 60), longitude=rnd.uniform(-170, 170), check_in_time="14:00",
            check_out_time="11:00", star_rating=rnd.randint(0, 5), booking_model="IB", total_floors=4,
            grace_hours=1, grace_weeks=4, tax_registered_in_vcs=0, tax_has_vat=1, tax_declares_revenue=0)
        for profile in ("PhysicalLocation", "general", "invoices", "reservations"):
            add("Contacts", profile_type=profile, address_line=f"Street {i}", city="Lisbon", postcode="1100-148",
                country="PT", given_name="Ana", surname="Silva", email=f"h{i}@example.com", phone="+351210000000",
                phone_tech_type=1)
        for lang in ("en", "pt"):
            add("Languages", language_code=lang)
        add("Policies", cancel_policy_code=152, no_show_penalty="default", pets_allowed="Pets Not Allowed")
        add("Policies", cancel_policy_code=153, no_show_penalty="total_price")
        for code_, pct in ((36, 23.0), (35, 1.0)):
            add("Taxes", code=code_, percent=pct, type="Inclusive")
        add("Fees", code=5009, amount=25.0, type="Conditional", conditions=["guest_smokes"])
        add("Fees", code=5035, amount=5.0, type="Exclusive", internet_type="wifi")
        add("Services", code=173, price=12, currency_code="EUR", included="false", breakfast_items=["1", "3"])
        add("Services", code=5, exists_code=1)
        for start in ("07:00", "08:00"):
            add("Restaurants", restaurant_name="Mar", offer_breakfast=1, cuisines=["1"], features=["buffet"],
                mon=1, tue=1, open_start=start, open_end="10:30")
        for name in ("Castle", "Beach"):
            add("Attractions", category_code=1, attraction_name=name, distance=rnd.uniform(0.1, 20),
                distance_unit="kilometers")
        for pay in (1, 2):
            add("Payments", payment_type_code=pay)
        for opt in ("KeyCollectionCityName", "KeyCollectionPostalCode"):
            add("Phrases", phrase_name="KeyCollection", enabled=1, option_name=opt, option_value="Lisbon")
        add("Awards", provider="Michelin", rating=1)
    return {p: _frame(p, r) for p, r in rows.items()}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--properties", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    parts = generate(args.properties)
    rows = sum(len(f) for f in parts.values())
    with tempfile.TemporaryDirectory() as tmp, Journal(Path(tmp) / "journal.sqlite") as journal:
        first = plan_content(parts, journal=journal, target="t")
        for req in first.requests:  # as if the platform had accepted them: the guard then compares every part
            journal.record_content("t", int(req.hotel_code or 0), req.content, None)
        own = list(split_properties(parts).values())
        plan_s, build_s = [], []
        for _ in range(args.runs):
            t0 = time.perf_counter()
            for p in own:
                build_content(p)
            build_s.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            plan = plan_content(parts, journal=journal, target="t")
            plan_s.append(time.perf_counter() - t0)
        changes = plan.parts["change"].value_counts().to_dict()
    p, b = statistics.median(plan_s), statistics.median(build_s)
    print(f"{args.properties:,} properties, {rows:,} rows; plan_content (build + read back + guard) median "
          f"{p:.3f} s ({args.properties / p:,.0f} properties/s) vs build_content alone {b:.3f} s: {p / b:.2f}x")
    print(f"runs plan {[round(x, 3) for x in plan_s]}, build {[round(x, 3) for x in build_s]}; changes {changes}")


if __name__ == "__main__":
    main()
