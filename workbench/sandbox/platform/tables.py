"""The sandbox-only CSVs of facts the platform keeps to itself, served under ``/_sandbox/``:
``room_rates.csv`` here; ``properties.csv`` and the content parts are
:mod:`workbench.sandbox.platform.content_state`'s."""

from __future__ import annotations

import csv
import io

from workbench.sandbox.platform.seed import Registry


def csv_text(header: list[str], rows: list[list[object]]) -> str:
    """A CSV document (header row, then ``rows``) as the `/_sandbox/` reads answer it."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    return out.getvalue()


def room_rates_csv(registry: Registry) -> str:
    """Every room-rate link, inactive ones too, with the facts ``roomrates`` does not send
    (``ParentRatePlanCode``, ``FollowsPrice``): the headers of a registry's room-rates sheet."""
    return csv_text(["HotelCode", "InvTypeCode", "RatePlanCode", "RateName", "Active", "ParentRatePlanCode",
                 "FollowsPrice", "ReadOnly"],
                [[r.hotel_code, r.inv_type_code, r.rate_plan_code, r.rate_name, int(r.active),
                  r.parent_rate_plan_code or "", int(r.follows_price), int(r.read_only)] for r in registry.room_rates])
