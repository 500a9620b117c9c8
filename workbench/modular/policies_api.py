"""Policies API (beta): cancellation policies, as far as the published pages show them.

Sources: [D] https://developers.booking.com/connectivity/docs/policies-api/managing-policies ,
[D] https://developers.booking.com/connectivity/docs/policies-api/policies-overview ,
[D] https://developers.booking.com/connectivity/docs/tutorial-property-onboarding/step-6 (platform-now.md 3.6).

Shown: ``POST https://supply-xml.booking.com/policy-api/properties/{property_id}/policies`` creates **one**
policy per call; only ``Cancellation`` policies; at most 7 per property; a second policy with the same
penalty code, guarantee payment and no-show penalty is refused; the answer gives a policy id that never
changes and is assigned to room-rates (OTA_HotelProductNotif); every property needs one policy. The
request is described as an element tree ``Request > Policies > Policy[type] > CancelPenalty[PolicyCode] …``.

**NOT SHOWN** (so nothing here is sent; the mapping answers a located ``not_yet_sendable`` warning):
the serialisation of that tree (JSON member names or XML), the guarantee-payment and no-show element
names, the answer's shape, and the paths of modify and retrieve. :class:`CancellationPolicy` holds what
the workbook gives, named by the documented elements, until a published example settles the shape.
"""

from __future__ import annotations

from typing import Literal

from workbench.modular.base import Body

__all__ = ["MAX_POLICIES", "SENDABLE", "SOURCE", "CancellationPolicy"]

#: whether the published pages show enough to build the request
SENDABLE = False
SOURCE = "https://developers.booking.com/connectivity/docs/policies-api/managing-policies"
MAX_POLICIES = 7


class CancellationPolicy(Body):
    """One cancellation policy: ``CancelPenalty@PolicyCode`` (a BCCP code), its no-show penalty and the guarantee
    payment's policy code (the element names of the last two are NOT SHOWN)."""

    type: Literal["Cancellation"] = "Cancellation"
    policy_code: int
    no_show_penalty: Literal["total_price", "default"] | None = None
    guarantee_policy_code: int | None = None
