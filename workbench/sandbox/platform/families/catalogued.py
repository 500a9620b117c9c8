"""Operations the spec names that no family serves yet: catalogued so their path, host and limit
are known (a call is counted and answered 501 ``SANDBOX_NOT_IMPLEMENTED``). A family that comes
to serve one takes its endpoint from here."""

from __future__ import annotations

from workbench.sandbox.platform.calls import Family
from workbench.sandbox.platform.endpoints import ota

FAMILY = Family("catalogued", (ota("OTA_HotelProductNotif", 75), ota("OTA_HotelSummaryNotif", 75)))
