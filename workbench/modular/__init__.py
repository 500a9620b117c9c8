"""The platform's modular JSON APIs (Property, Contacts, Facilities, Charges, Policies, Rooms): bodies and answers.

Pure: models of the published request and answer bodies (strict when built, tolerant when read), the answer
envelope parsed once, the code crosswalks of the meta endpoints, and the content and rooms workbooks mapped to
each API's bodies (with the cell behind every value) and back. Sending is the push path's (workbench.writers).
See docs/modular.md.
"""

from workbench.modular.cells import Cell, CellMap, issues_from_envelope
from workbench.modular.content import (
    Current,
    ModularContent,
    PropertyAnswers,
    build_modular_content,
    content_from_answers,
)
from workbench.modular.endpoints import OPERATIONS, Operation
from workbench.modular.envelope import (
    FIX_DATA,
    REFUSED,
    RETRY_LATER,
    ApiError,
    Envelope,
    classify,
    parse_envelope,
)
from workbench.modular.meta import ModularMeta
from workbench.modular.rooms import ModularRooms, build_modular_rooms
from workbench.modular.rooms_read import UnitAnswers, rooms_from_answers

__all__ = ["FIX_DATA", "OPERATIONS", "REFUSED", "RETRY_LATER", "ApiError", "Cell", "CellMap", "Current", "Envelope",
           "ModularContent", "ModularMeta", "ModularRooms", "Operation", "PropertyAnswers", "UnitAnswers",
           "build_modular_content", "build_modular_rooms", "classify", "content_from_answers", "issues_from_envelope",
           "parse_envelope", "rooms_from_answers"]
