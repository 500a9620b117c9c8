"""Benchmark: planning N room types for the Rooms and Facilities APIs (issue 25) against today's OTA_HotelInvNotif
planning of the same workbook, in the same run, interleaved.

    .venv/bin/python benchmarks/bench_modular_rooms.py [--room-types 10000] [--runs 3]

The platform holds N units over N/10 properties (seeded: apartments with two bedrooms and a living room with
their beds, doubles, twins and singles with one or two bed configurations, three room facilities and a bathroom
each). The workbook is what ``fetch rooms --api modular`` gives for them with one edit in five room types (the
number of units, a bed count, or a room facility) and 2% new room types. Measured:

- modular: ``workbench.flows.rooms_modular.plan_from_read`` (every unit merged with its read, each part's body
  validated against its model with the cell behind every value; the new ones in bulk bodies);
- reference: ``workbench.writers.overlay.plan_rooms`` (the InvNotif requests merged with the same state, every
  fact known, as if the read carried the sub-rooms too).

Prints JSON: medians of wall and CPU time, the ratio, the requests and issues of each.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.bench_modular_plan import meta  # noqa: E402 - the hand-written meta answers
from loaders.schemas import ROOMS_COLUMNS  # noqa: E402
from workbench.flows.rooms_modular import plan_from_read  # noqa: E402
from workbench.modular import UnitAnswers, rooms_from_answers  # noqa: E402
from workbench.ota.descriptive_info import UNKNOWN_COLUMNS, PlatformRooms  # noqa: E402
from workbench.platform.modular_rooms import ModularRoomsRead  # noqa: E402
from workbench.writers.overlay import plan_rooms  # noqa: E402

PER_PROPERTY = 10


def _config(rng: random.Random, default: bool) -> dict:
    beds = rng.sample([1, 3, 4, 6], rng.randint(1, 2))
    return {"beds": [{"bed_type_id": b, "bed_count": rng.randint(1, 2)} for b in beds],
            "is_default_configuration": default}


def unit(rng: random.Random, uid: int) -> dict:
    if rng.random() < 0.3:
        rooms = [{"type": "BEDROOM_SUBROOM", "bed_configurations": [_config(rng, True)]} for _ in range(2)]
        rooms.append({"type": "LIVING_ROOM_SUBROOM", "bed_configurations": [
            {"beds": [{"bed_type_id": 5, "bed_count": 1}], "is_default_configuration": True}]})
        configuration, name = {"unit_type_id": 1, "rooms": rooms}, 865
    else:
        configs = [_config(rng, True)] + ([_config(rng, False)] if rng.random() < 0.4 else [])
        kind = rng.choice([8, 9, 10])
        configuration, name = {"unit_type_id": kind, "rooms": [{"type": "GUEST_ROOM",
                                                                "bed_configurations": configs}]}, {8: 300, 9: 255,
                                                                                                   10: 69}[kind]
    return {"unit_id": uid, "unit_name_id": name, "partner_reference_name": f"Room {uid}",
            "number_of_units": rng.randint(1, 40), "smoking_policy": "NONSMOKING", "configuration": configuration,
            "size": {"value": float(rng.randint(14, 90)), "unit": "SQM"},
            "occupancy_details": {"max_guests": 4, "max_adults": 3, "max_children": 2, "max_infants": 1,
                                  "max_infants_on_top": 0},
            "extra_beds_configuration": {"extra_beds": 1, "cribs": 1, "is_crib_and_extra_bed_allowed": False}}


def platform(room_types: int, seed: int = 25) -> ModularRoomsRead:
    rng = random.Random(seed)
    answers = {}
    for p in range(room_types // PER_PROPERTY):
        hotel = 2_000_000 + p
        units = [unit(rng, hotel * 100 + i) for i in range(PER_PROPERTY)]
        facilities = {u["unit_id"]: [{"room_facility_id": f, "state": "PRESENT"} for f in (11, 38, 175)] for u in units}
        baths = {u["unit_id"]: {"hotel_bathroom_details": {"private_bathroom_state": "PRESENT",
                                                           "shared_bathroom_state": "MISSING",
                                                           "number_of_bathrooms": 1}} for u in units}
        answers[hotel] = UnitAnswers(hotel, units, facilities, baths)
    return ModularRoomsRead(answers, {}, meta())


def workbook(read: ModularRoomsRead, seed: int = 26) -> dict[str, pd.DataFrame]:
    """The fetched sheets with one edit in five room types and 2% new ones."""
    rng = random.Random(seed)
    sheets = rooms_from_answers(read.answers.values(), read.meta, source="rooms.xlsx")
    rooms, amen = sheets["Rooms"], sheets["Amenities"]
    for i in range(len(rooms)):
        if rng.random() < 0.2:
            what = rng.choice(["quantity", "bed", "facility"])
            inv = rooms.at[i, "inv_code"]
            if what == "quantity":
                rooms.at[i, "quantity"] = int(rooms.at[i, "quantity"]) + 1
            else:
                mine = amen.index[(amen["inv_code"] == inv) & (amen["configuration"].isna() if what == "facility"
                                                               else amen["value"].notna())]
                if len(mine):
                    j = mine[0]
                    if what == "bed":
                        amen.at[j, "value"] = int(amen.at[j, "value"]) + 1
                    else:
                        amen.at[j, "value"], amen.at[j, "remove"] = 0, True
    picked = rooms.sample(frac=0.02, random_state=seed)
    ids = {inv: str(900000 + n) for n, inv in enumerate(picked["inv_code"])}
    for name in ("Rooms", "SubRooms", "Amenities"):
        frame = sheets[name]
        copies = frame[frame["inv_code"].isin(list(ids))].copy()
        copies["room_id"] = copies["inv_code"].map(ids).astype("string")
        copies["inv_code"] = pd.array([pd.NA] * len(copies), dtype="string")
        frame = pd.concat([frame, copies], ignore_index=True)
        frame["row"] = pd.array(range(2, len(frame) + 2), dtype="Int64")
        sheets[name] = frame
    return sheets


def invnotif_state(read: ModularRoomsRead) -> PlatformRooms:
    """The same properties as an InvNotif read would give them if it carried every fact (sub-rooms too), so the
    reference plans by comparing, as the modular plan does."""
    sheets = rooms_from_answers(read.answers.values(), read.meta, source="OTA_HotelDescriptiveInfo")
    return PlatformRooms(sheets["Rooms"].astype(ROOMS_COLUMNS), sheets["SubRooms"], sheets["Amenities"],
                         pd.DataFrame({c: pd.Series(dtype=t) for c, t in UNKNOWN_COLUMNS.items()}))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for flag, default in (("--room-types", 10_000), ("--runs", 3)):
        ap.add_argument(flag, type=int, default=default)
    args = ap.parse_args()
    read = platform(args.room_types)
    sheets = workbook(read)
    state = invnotif_state(read)
    rooms, subrooms, amenities = sheets["Rooms"], sheets["SubRooms"], sheets["Amenities"]
    plan_from_read(rooms.head(50), subrooms.head(0), amenities.head(0), read)  # warm: the models compile once
    modular_wall, modular_cpu, ota_wall, ota_cpu = [], [], [], []
    modular = ota = None
    for _ in range(args.runs):
        w, c = time.perf_counter(), time.process_time()
        modular = plan_from_read(rooms, subrooms, amenities, read)
        modular_wall.append(time.perf_counter() - w)
        modular_cpu.append(time.process_time() - c)
        w, c = time.perf_counter(), time.process_time()
        ota = plan_rooms(rooms, subrooms, amenities, state)
        ota_wall.append(time.perf_counter() - w)
        ota_cpu.append(time.process_time() - c)
    assert modular is not None and ota is not None
    m, o = statistics.median(modular_wall), statistics.median(ota_wall)
    print(json.dumps({
        "room_types": int(len(rooms)), "properties": len(read.answers), "subrooms": int(len(subrooms)),
        "amenities": int(len(amenities)),
        "modular_wall_s": round(m, 3), "modular_cpu_s": round(statistics.median(modular_cpu), 3),
        "invnotif_wall_s": round(o, 3), "invnotif_cpu_s": round(statistics.median(ota_cpu), 3),
        "ratio_wall": round(m / o, 2), "ratio_cpu": round(statistics.median(modular_cpu) / statistics.median(ota_cpu), 2),
        "runs_modular": [round(x, 3) for x in modular_wall], "runs_invnotif": [round(x, 3) for x in ota_wall],
        "modular_requests": len(modular.requests), "modular_changes": int(len(modular.changes)),
        "modular_errors": int((modular.issues["severity"] == "error").sum()),
        "invnotif_requests": len(ota.requests), "invnotif_errors": int((ota.issues["severity"] == "error").sum()),
    }, indent=1))


if __name__ == "__main__":
    main()
