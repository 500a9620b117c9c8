"""The issue rules the modular mapping raises, in one place (docs/modular.md lists each with its source).

Errors block the property's request; warnings never do.
"""

from __future__ import annotations

from workbench.modular.cells import Cell, issue

__all__ = ["CHARGE_KEPT", "CODE_NOT_IN_META", "CONTACT_TYPE_DROPPED", "CONTACT_TYPE_REFUSED", "DEPRECATION_PAGE", "INSTANCE_KEPT",
           "META_NOT_READ",
           "MODULAR_VALUE_REFUSED", "NOT_SENT", "NOT_YET_SENDABLE", "RULES", "SUNSET", "not_sent", "sunset"]

#: a value the body's model refuses (range, enum, required): error
MODULAR_VALUE_REFUSED = "modular_value_refused"
#: a part whose only home was sunset (attractions, relative positions, MaxChildPayableOccupancy): error
SUNSET = "modular_sunset"
#: a cell no modular API has a field for: warning, it is not sent
NOT_SENT = "modular_not_sent"
#: a part the published pages do not show enough of to send (Policies API): warning
NOT_YET_SENDABLE = "not_yet_sendable"
#: an OTA code the API's meta does not map: error
CODE_NOT_IN_META = "code_not_in_meta"
#: the meta needed for a crosswalk was not read: error
META_NOT_READ = "meta_not_read"
#: a contact profile type the Contacts API does not take (``contract``): error
CONTACT_TYPE_REFUSED = "contact_type_refused"
#: the workbook leaves out a contact type the property has (a PUT would delete it): error unless ``replace``
CONTACT_TYPE_DROPPED = "contacts_drop_type"
#: a facility instance the property has and the sheet does not mention, sent back unchanged: warning
INSTANCE_KEPT = "facility_instance_kept"
#: warning: a charge the property has and no Taxes/Fees row gives, sent back unchanged
CHARGE_KEPT = "charge_kept"
RULES = (MODULAR_VALUE_REFUSED, SUNSET, NOT_SENT, NOT_YET_SENDABLE, CODE_NOT_IN_META, META_NOT_READ,
         CONTACT_TYPE_REFUSED, CONTACT_TYPE_DROPPED, INSTANCE_KEPT, CHARGE_KEPT)

DEPRECATION_PAGE = "https://developers.booking.com/connectivity/docs/deprecation-policy/deprecation-and-sunsetting"


def not_sent(cell: Cell, why: str) -> dict:
    """A warning: this cell is not sent, and why."""
    return issue(cell, NOT_SENT, f"not sent: {why}", severity="warning")


def sunset(cell: Cell, what: str, when: str) -> dict:
    """An error: this cell's only home was sunset."""
    return issue(cell, SUNSET, f"{what} can no longer be sent: it was sunset on {when} ({DEPRECATION_PAGE}) and no "
                               "modular API takes it; remove it from the sheet")
