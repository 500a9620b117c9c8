"""The rates family: ``OTA_HotelRateAmountNotif`` (the rules are :mod:`workbench.sandbox.platform.rate_rules`).
A request with any error changes nothing; accepted cells go to the rates calendar
(``/_sandbox/rates.csv``)."""

from __future__ import annotations

from workbench.sandbox.platform.calls import Call, Family, PlatformState, Reply
from workbench.sandbox.platform.endpoints import ota
from workbench.sandbox.platform.issues import Issue
from workbench.sandbox.platform.protocol import ota_body

# E3: the spec says Content-Type "must be application/xml" for rates; the only versioned operation
RATE_AMOUNT = ota("OTA_HotelRateAmountNotif", content_types=("application/xml",), versioned=True)


async def rate_amount(sb: PlatformState, call: Call) -> Reply:
    rs = call.endpoint.name + "RS"
    if call.root is None:
        return Reply(400, ota_body(rs, call.ruid, errors=[Issue("INVALID_REQUEST", "empty body")]), "rejected")
    outcome = sb.rules.check(call.root, sb.today())
    if outcome.errors:
        return Reply(200, ota_body(rs, call.ruid, errors=outcome.errors), "errors")
    sb.store.write_rates(outcome.cells, call.ruid)
    return Reply(200, ota_body(rs, call.ruid, warnings=outcome.warnings), "warnings" if outcome.warnings else "success")


FAMILY = Family("rates", (RATE_AMOUNT,), {RATE_AMOUNT.name: rate_amount})
