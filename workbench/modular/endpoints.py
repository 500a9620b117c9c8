"""The modular operations: method, path (under ``https://supply-xml.booking.com``), body and answer models.

Each key is also the name of the operation in the transport's catalogue (``workbench.transport.operations``:
host, Content-Type, whether a resend is harmless, the limit), which the push path sends through; a test pins
that the two agree on method and path. This table is what the modular bodies need to be sent and read: which model the request body is (``None``: no
body; a ``list[...]``: an array body) and which model the answer's ``data`` is. Each API's source page is
in its model module. Rate limits for these APIs are NOT SHOWN (platform-now.md 3.0).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, get_args, get_origin

from workbench.modular.base import read_answer, read_answers
from workbench.modular.charges_api import Charges, ChargeType
from workbench.modular.contacts_api import Contacts
from workbench.modular.facilities_api import BathroomDetails, FacilityMeta, PropertyFacility, RoomFacility
from workbench.modular.policies_api import CancellationPolicy
from workbench.modular.property_api import (
    PropertyDescription,
    PropertyId,
    PropertyInfoCreate,
    PropertyInfoRead,
    PropertyInfoUpdate,
    PropertyMeta,
    PropertyStatus,
    PropertyStatusInput,
)
from workbench.modular.rooms_api import (
    BulkUnitsCreate,
    BulkUnitsCreated,
    BulkUnitsDelete,
    BulkUnitsUpdate,
    RoomsMeta,
    Unit,
    UnitCreate,
    UnitPatch,
)
from workbench.modular.settings_api import PropertySettingsGroups

__all__ = ["OPERATIONS", "Operation"]

_P = "/property-api/properties/{property_id}"
_F = "/facilities-api/properties/{property_id}"
_U = "/rooms-api/properties/{property_id}/units"


@dataclass(frozen=True)
class Operation:
    """One modular operation; ``answer`` is the model of the answer's ``data`` (``list[...]`` for an array)."""

    api: str
    method: str
    path: str
    body: Any = None
    answer: Any = None
    sendable: bool = True

    def read(self, data: object) -> Any:
        """An answer's ``data`` as this operation's answer model (tolerating new fields and values)."""
        if self.answer is None:
            return data
        if get_origin(self.answer) is list:
            return read_answers(get_args(self.answer)[0], data)
        return read_answer(self.answer, data)

    def url(self, base: str = "https://supply-xml.booking.com", **ids: object) -> str:
        """The operation's URL with its ids filled in (``property_id``, ``room_id``, ``unit_id``)."""
        return base.rstrip("/") + self.path.format(**ids)


OPERATIONS: dict[str, Operation] = {
    "property.create": Operation("Property API", "POST", "/property-api/properties", PropertyInfoCreate, PropertyId),
    "property.update": Operation("Property API", "PATCH", _P, PropertyInfoUpdate, PropertyId),
    "property.read": Operation("Property API", "GET", _P, None, PropertyInfoRead),
    "property.meta": Operation("Property API", "GET", "/property-api/meta", None, PropertyMeta),
    "settings.write": Operation("Property settings API", "POST", f"{_P}/settings", PropertySettingsGroups, None),
    "settings.read": Operation("Property settings API", "GET", f"{_P}/settings", None, PropertySettingsGroups),
    "status.write": Operation("Property status API", "POST", f"{_P}/status", PropertyStatusInput, PropertyStatus),
    "description.write": Operation("Property description API", "PUT", f"{_P}/description", PropertyDescription),
    "description.read": Operation("Property description API", "GET", f"{_P}/description", None, PropertyDescription),
    "description.delete": Operation("Property description API", "DELETE", f"{_P}/description"),
    "contacts.write": Operation("Contacts API", "PUT", "/contacts-api/properties/{property_id}/contacts", Contacts),
    "contacts.read": Operation("Contacts API", "GET", "/contacts-api/properties/{property_id}/contacts", None,
                               Contacts),
    "facilities.write": Operation("Facilities API", "PUT", _F, list[PropertyFacility]),
    "facilities.read": Operation("Facilities API", "GET", _F, None, list[PropertyFacility]),
    "room_facilities.write": Operation("Facilities API", "PUT", f"{_F}/rooms/{{room_id}}", list[RoomFacility]),
    "room_facilities.read": Operation("Facilities API", "GET", f"{_F}/rooms/{{room_id}}", None, list[RoomFacility]),
    "bathrooms.write": Operation("Facilities API", "PUT", f"{_F}/rooms/{{room_id}}/bathrooms", BathroomDetails),
    "bathrooms.read": Operation("Facilities API", "GET", f"{_F}/rooms/{{room_id}}/bathrooms", None, BathroomDetails),
    "facilities.meta": Operation("Facilities API", "GET", "/facilities-api/meta", None, FacilityMeta),
    "charges.write": Operation("Charges API", "POST", "/charges-api/properties/{property_id}/charges", Charges),
    "charges.read": Operation("Charges API", "GET", "/charges-api/properties/{property_id}/charges", None, Charges),
    "charges.meta": Operation("Charges API", "GET", "/charges-api/meta", None, list[ChargeType]),
    "policies.create": Operation("Policies API", "POST", "/policy-api/properties/{property_id}/policies",
                                 CancellationPolicy, sendable=False),
    "units.read": Operation("Rooms API", "GET", _U, None, list[Unit]),
    "units.deleted": Operation("Rooms API", "GET", "/rooms-api/properties/{property_id}/deleted-units", None,
                               list[Unit]),
    "unit.create": Operation("Rooms API", "POST", _U, UnitCreate, Unit),
    "unit.update": Operation("Rooms API", "PATCH", f"{_U}/{{unit_id}}", UnitPatch),
    "unit.delete": Operation("Rooms API", "DELETE", f"{_U}/{{unit_id}}"),
    "units.bulk_create": Operation("Rooms API", "POST", "/rooms-api/units", BulkUnitsCreate, BulkUnitsCreated),
    "units.bulk_update": Operation("Rooms API", "PATCH", "/rooms-api/units", BulkUnitsUpdate),
    "units.bulk_delete": Operation("Rooms API", "DELETE", "/rooms-api/units", BulkUnitsDelete),
    "rooms.meta": Operation("Rooms API", "GET", "/rooms-api/meta", None, RoomsMeta),
}
