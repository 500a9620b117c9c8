"""The platform's availability rules as Great Expectations custom expectations, worded for analysts.

As in ``expectations.rate_rules``: each class refines a built-in expectation with the platform's
numbers in its description; ``meta`` on each instance carries the workbench rule id. The night
window, unknown rooms and inactive room-rates are the rates' own expectations
(``ExpectStayDateWithinPlatformWindow``, ``ExpectKnownRoom``, ``ExpectRateActiveForRoom``).
"""

from __future__ import annotations

import great_expectations.expectations as gxe


class ExpectRoomsToSellWithinPlatformLimit(gxe.ExpectColumnValuesToBeBetween):
    """BookingLimit: 0 to 254 rooms, 255 meaning unlimited; anything above 255 is cut to 254."""

    description: str = ("Rooms to sell should be **0 to 254** (255 = unlimited); the platform cuts anything above "
                        "255 to 254.")


class ExpectRoomsToSellNotUnlimited(gxe.ExpectColumnValuesToBeNull):
    """255 rooms to sell is the platform's "unlimited", not a count: said, so it is meant."""

    description: str = "Rooms to sell of **255** means **unlimited** on the platform, not 255 rooms."


class ExpectRoomsToSellWithinQuantity(gxe.ExpectColumnValuesToBeBetween):
    """Rooms to sell at most the room type's number of units (``Quantity``), checked as the units left over."""

    description: str = "Rooms to sell should be **at most the room type's Quantity** (its number of units)."


class ExpectStayOfAtLeastOneNight(gxe.ExpectColumnValuesToBeBetween):
    """Minimum and maximum stays are numbers of nights: 1 or more."""

    description: str = "A minimum or maximum stay should be **at least 1 night**."


class ExpectRatePlanForRoomRateRestriction(gxe.ExpectColumnValuesToBeNull):
    """Arrival, departure and stay restrictions belong to a room-rate: they need a RatePlanCode."""

    description: str = ("Closed to arrival or departure and stays should name **a rate plan** (they are set per "
                        "room-rate).")


class ExpectRoomsToSellPerRoomType(gxe.ExpectColumnValuesToBeNull):
    """Rooms to sell is shared by every rate of the room type: a row with a RatePlanCode cannot set it."""

    description: str = "Rooms to sell should be set **per room type** (blank RatePlanCode): every rate shares it."


class ExpectNoRestrictionsOnLosPricing(gxe.ExpectColumnValuesToBeNull):
    """Properties on length-of-stay (LOS) pricing take no restrictions."""

    description: str = "A property on **length-of-stay pricing** should get **no restrictions** (not supported)."


class ExpectNoRestrictionsOnChildRate(gxe.ExpectColumnValuesToBeNull):
    """A child rate follows its parent's restrictions; its own are not applied."""

    description: str = "Restrictions should be set on **the parent rate**: a child rate follows its parent's."
