"""The platform's rules as Great Expectations custom expectations, worded for analysts.

Each class refines a built-in expectation with the spec's numbers in its description, in the
style GX recommends for custom expectations. ``meta`` on each instance carries the workbench
rule id, the severity and the canonical column the issue points at.
"""

from __future__ import annotations

import great_expectations.expectations as gxe


class ExpectPriceNotNegative(gxe.ExpectColumnValuesToBeBetween):
    """A price may be 0 (not bookable that night) but never negative."""

    description: str = "A night's price should be **0 or more**; 0 means not bookable for that night."


class ExpectPriceWithinPlatformCap(gxe.ExpectColumnValuesToBeBetween):
    """At most 50,000 per night in euros or the equivalent in the property's currency."""

    description: str = "A night's price should be at most **50,000 EUR** or the equivalent."


class ExpectCurrencyMinorUnits(gxe.ExpectColumnValuesToBeBetween):
    """More decimals than the currency has (e.g. JPY has none) will not be kept."""

    description: str = "A price should have **no more decimals** than its currency uses (JPY: none)."


class ExpectStayDateWithinPlatformWindow(gxe.ExpectColumnValuesToBeBetween):
    """Nights from 1 day before today (CET/CEST) to 5 years ahead."""

    description: str = "A night should be between **yesterday (CET)** and **5 years ahead**."


class ExpectIsoCurrency(gxe.ExpectColumnValuesToBeInSet):
    """CurrencyCode is an ISO 4217 code in use."""

    description: str = "The currency should be an **ISO 4217** code in use, such as EUR."


class ExpectPropertyCurrency(gxe.ExpectColumnPairValuesToBeEqual):
    """CurrencyCode equals the property's configured currency."""

    description: str = "The currency should be **the property's own currency**."


class ExpectGuestsAtLeastOne(gxe.ExpectColumnValuesToBeBetween):
    """NumberOfGuests is 1 or more (1 = single occupancy)."""

    description: str = "NumberOfGuests should be **at least 1** (1 = single occupancy)."


class ExpectGuestsWithinMaxAdultOccupancy(gxe.ExpectColumnValuesToBeBetween):
    """NumberOfGuests at most the room's MaxAdultOccupancy (checked as the room left over, >= 0)."""

    description: str = "NumberOfGuests should be **at most the room's MaxAdultOccupancy**."


class ExpectGuestsOnlyForOccupancyPricing(gxe.ExpectColumnValuesToBeNull):
    """NumberOfGuests only for occupancy-based (OBP) and length-of-stay (LOS) pricing."""

    description: str = "NumberOfGuests should be **blank for Standard pricing** (OBP/LOS only)."


class ExpectUniqueRateCell(gxe.ExpectColumnValuesToBeUnique):
    """One price per hotel, room, rate plan, night and number of guests.

    Checked on one integer column that encodes those five key columns (see ``expectations._keys``).
    """

    description: str = ("Each **hotel, room, rate plan, night and number of guests** should be priced once; "
                        "the platform applies only the first.")


class ExpectRateActiveForRoom(gxe.ExpectColumnValuesToBeNull):
    """RATE_NOT_ACTIVE_FOR_ROOM: the rate plan must be active for the room."""

    description: str = "The rate plan should be **active for the room** (RATE_NOT_ACTIVE_FOR_ROOM)."


class ExpectNoPriceOnFollowingChildRate(gxe.ExpectColumnValuesToBeNull):
    """A child rate that follows its parent's price cannot be given a price."""

    description: str = "No price should be sent to a **child rate that follows its parent's price**."


class ExpectWritableRate(gxe.ExpectColumnValuesToBeNull):
    """Read-only rates cannot be priced."""

    description: str = "No price should be sent to a **read-only rate**."


class ExpectKnownRoom(gxe.ExpectColumnValuesToBeNull):
    """The room type exists at the property."""

    description: str = "The room type should **exist at the property**."
