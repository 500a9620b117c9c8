"""Seeded content for N properties, every part, as loaders.read_content gives it (frames in memory).

Properties are spread over Portugal, Brazil, the Netherlands, Spain and France around real city
centres (jittered a few km), each with its own phone numbers, e-mails and a postcode of its
country; about 1 in 50 carries a deliberate mistake (a name in capitals, a bad postcode, a phone
with spaces, coordinates of the wrong country), so the messages are built too.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from loaders.content_schema import PARTS, frames_from_rows

CITIES = [  # country, city, lat, lon, phone prefix, postcode pattern, currency
    ("PT", "Lisboa", 38.7223, -9.1393, "+35121", "1{:03d}-{:03d}", "EUR"),
    ("PT", "Porto", 41.1579, -8.6291, "+35122", "4{:03d}-{:03d}", "EUR"),
    ("BR", "São Paulo", -23.5505, -46.6333, "+551131", "0{:04d}-{:03d}", "BRL"),
    ("BR", "Rio de Janeiro", -22.9068, -43.1729, "+552125", "2{:04d}-{:03d}", "BRL"),
    ("NL", "Amsterdam", 52.3676, 4.9041, "+3120", "10{:02d} {}", "EUR"),
    ("ES", "Madrid", 40.4168, -3.7038, "+3491", "28{:03d}", "EUR"),
    ("FR", "Paris", 48.8566, 2.3522, "+3314", "75{:03d}", "EUR"),
]
WORDS = ["Sea", "View", "Garden", "Palace", "Inn", "Casa", "Villa", "Riverside", "Old", "Town", "Park", "Hotel",
         "Pousada", "Residence", "Grand", "Little", "Blue", "Harbour"]


def _postcode(pattern: str, rng: np.random.Generator) -> str:
    if "{}" in pattern:
        return pattern.format(int(rng.integers(10, 99)), "".join(rng.choice(list("ABCEGHJKLMN"), 2)))
    if pattern.count("{") == 2:
        return pattern.format(int(rng.integers(0, 999)), int(rng.integers(0, 999)))
    return pattern.format(int(rng.integers(0, 999)))


def generate(n: int, seed: int = 7) -> dict[str, pd.DataFrame]:
    rng = np.random.default_rng(seed)
    rows: dict[str, list[dict]] = {p: [] for p in PARTS}
    for i in range(n):
        country, city, lat, lon, prefix, pattern, currency = CITIES[i % len(CITIES)]
        key = {"custom_id": f"P{i:05d}"} if i % 3 else {"hotel_code": 2_000_000 + i}
        bad = i % 50 == 7
        name = " ".join(rng.choice(WORDS, 3)) + f" {i % 997}"
        phone = f"{prefix}{int(rng.integers(1_000_000, 9_999_999)):07d}"[: len(prefix) + 7]
        if country == "BR":
            phone = f"{prefix}{int(rng.integers(100_000, 999_999)):06d}"
        if country == "NL":
            phone = f"{prefix}{int(rng.integers(1_000_000, 9_999_999)):07d}"
        if country == "ES":
            phone = f"{prefix}{int(rng.integers(1_000_000, 9_999_999)):07d}"
        if country == "FR":
            phone = f"{prefix}{int(rng.integers(1_000_000, 9_999_999)):07d}"
        rows["Property"].append({
            **key, "hotel_name": name.upper() if bad else name, "language_code": "en", "currency_code": currency,
            "target": "Test", "property_class_code": 20, "sellable_units": int(rng.integers(1, 200)),
            "latitude": (lat + rng.normal(0, 0.004)) if not (bad and i % 100 == 7) else 42.2406,
            "longitude": (lon + rng.normal(0, 0.004)) if not (bad and i % 100 == 7) else -8.7207,
            "legal_entity_id": 7000 + i, "check_in_time": "14:00", "check_out_time": "11:00",
            "star_rating": int(rng.integers(1, 6)), "total_floors": int(rng.integers(1, 30)),
            "grace_hours": 24, "grace_weeks": 4, "tax_registered_in_vcs": 0, "tax_has_vat": 1,
            "tax_declares_revenue": 1})
        rows["Contacts"] += [
            {**key, "profile_type": "PhysicalLocation", "address_language": "en", "address_line": f"Rua {name} {i}",
             "city": city, "postcode": "XX" if bad else _postcode(pattern, rng), "country": country,
             "address_hotel_name": name},
            {**key, "profile_type": "general", "given_name": "Ana", "surname": "Sousa", "email": f"g{i}@h.example",
             "phone": phone.replace("+", "+ ") if bad else phone, "phone_tech_type": 1},
            {**key, "profile_type": "invoices", "given_name": "Rui", "surname": "Lopes", "email": f"i{i}@h.example",
             "phone": phone[:-1] + str((int(phone[-1]) + 1) % 10), "phone_tech_type": 1},
        ]
        rows["Languages"] += [{**key, "language_code": "en"}, {**key, "language_code": "pt"}]
        rows["Policies"].append({**key, "cancel_policy_code": 152, "no_show_penalty": "default",
                                 "pets_allowed": "Pets Allowed", "pets_non_refundable_fee": "free"})
        rows["Taxes"].append({**key, "code": 36, "percent": 6.0, "type": "Inclusive"})
        rows["Fees"].append({**key, "code": 5009, "amount": 40.0, "type": "Conditional",
                             "conditions": ["guest_smokes"]})
        rows["Services"].append({**key, "code": 173, "included": "false", "price": 15, "currency_code": currency,
                                 "breakfast_items": ["5001"]})
        rows["Restaurants"].append({**key, "restaurant_name": "Cais", "offer_breakfast": 1, "mon": 1, "tue": 1,
                                    "open_start": "07:00", "open_end": "10:30", "features": ["buffet"]})
        rows["Attractions"].append({**key, "category_code": 5, "attraction_name": "Castle", "distance": 400.0,
                                    "distance_unit": "meters"})
        if i % 2:
            rows["Transport"].append({**key, "transport_type_code": 1, "journey_minutes": 25, "start_type": "airport",
                                      "start_code": "LIS"})
            rows["Phrases"].append({**key, "phrase_name": "KeyCollection", "enabled": 1,
                                    "option_name": "KeyCollectionCityName", "option_value": city})
            rows["Awards"].append({**key, "provider": "Star rating", "rating": 4})
        rows["Payments"] += [{**key, "payment_type_code": 1}, {**key, "payment_type_code": 3}]
        if country == "BR":
            rows["Invoice"].append({**key, "tax_type": "CNPJ", "tax_number": "11222333000181",
                                    "invoice_email": f"nf{i}@h.example", "city_hall_id": "12345678"})
    return frames(rows)


def frames(sheets: dict[str, list[dict]]) -> dict[str, pd.DataFrame]:
    return frames_from_rows(sheets, source="bench.xlsx")
