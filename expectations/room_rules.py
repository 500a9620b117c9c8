"""The platform's room-type rules (spec E1) as Great Expectations custom expectations.

Each rule is computed as a column that holds the offending value where the rule is broken and
is blank elsewhere (``expectations.rooms``); each class below expects that column to be blank,
with the spec's wording in its description. ``meta`` carries the workbench rule id.
"""

from __future__ import annotations

import great_expectations.expectations as gxe


class ExpectOccupancyWithinAdultsAndChildren(gxe.ExpectColumnValuesToBeNull):
    """OCCUPANCY_TOTAL: MaxOccupancy is not higher than MaxAdultOccupancy + MaxChildOccupancy."""

    description: str = "MaxOccupancy should be **at most MaxAdultOccupancy + MaxChildOccupancy**."


class ExpectChildrenBelowOccupancy(gxe.ExpectColumnValuesToBeNull):
    """OCCUPANCY_CHILDREN: MaxChildOccupancy is always lower than MaxOccupancy."""

    description: str = "MaxChildOccupancy should be **lower than MaxOccupancy**."


class ExpectChildPayableWithinChildren(gxe.ExpectColumnValuesToBeNull):
    """CHILD_PAYABLE: MaxChildPayableOccupancy is not higher than MaxChildOccupancy."""

    description: str = "MaxChildPayableOccupancy should be **at most MaxChildOccupancy**."


class ExpectRoomTypeForNewRoom(gxe.ExpectColumnValuesToBeNull):
    """ROOM_TYPE_REQUIRED: a room type to create (InvNotifType New) has Room@RoomType."""

    description: str = "A room type to create should have a **RoomType** (code or name)."


class ExpectRoomReference(gxe.ExpectColumnValuesToBeNull):
    """INV_CODE_REQUIRED: a sub-room or amenity names its room (InvCode, or RoomID of a sheet row)."""

    description: str = "Each sub-room and amenity should name its room by **InvCode** (or a known RoomID)."


class ExpectKnownRoomOnSheet(gxe.ExpectColumnValuesToBeNull):
    """A RoomID used to refer to a room is on the Rooms sheet."""

    description: str = "A room named by **RoomID** should be on the Rooms sheet."


class ExpectSubRoomsOnlyForCapableTypes(gxe.ExpectColumnValuesToBeNull):
    """SUBROOMS_NOT_ALLOWED: sub-rooms only for Apartment, Suite, Chalet, Bungalow, Holiday home,
    Villa, Mobile home, or when apartment_room_capacity > 0."""

    description: str = ("Sub-rooms should belong to an **Apartment, Suite, Chalet, Bungalow, Holiday home, Villa "
                        "or Mobile home** (or a room with apartment capacity).")


class ExpectNumberOnlyForBathroomOrLivingRoom(gxe.ExpectColumnValuesToBeNull):
    """NUMBER_NOT_ALLOWED: SubRoom@Number only for Bathroom or Living room."""

    description: str = "Number should be given **only for a Bathroom or a Living room**."


class ExpectOnlyBedsInSubRooms(gxe.ExpectColumnValuesToBeNull):
    """SUBROOM_AMENITY_NOT_BED: sub-room amenities are bed types only."""

    description: str = "A sub-room's amenities should be **bed types only**."


class ExpectBedsUnderSubRooms(gxe.ExpectColumnValuesToBeNull):
    """BEDS_UNDER_SUBROOMS: bed types of multi-bedroom rooms go under SubRooms, never in the room's
    own Amenities."""

    description: str = "Beds of a room with sub-rooms should be **under its sub-rooms**, not the room itself."


class ExpectConfigurationOnSingleRoomBeds(gxe.ExpectColumnValuesToBeNull):
    """CONFIGURATION_NOT_ALLOWED: Configuration only on bed types, and not for multi-room rooms."""

    description: str = "Configuration should be given **only on bed types of rooms without sub-rooms**."


class ExpectMatchingAmenityCodes(gxe.ExpectColumnValuesToBeNull):
    """AMENITY_CODE_MISMATCH: RoomAmenityCode and AmenityCode are the same when both are given."""

    description: str = "RoomAmenityCode and AmenityCode should be **the same** when both are given."


class ExpectKnownAmenityCode(gxe.ExpectColumnValuesToBeNull):
    """UNKNOWN_AMENITY (warning): the code is on the list of RMA codes the platform is known to accept."""

    description: str = "The amenity should be **a known RMA code** (data/codes/rma.csv)."


class ExpectKnownRoomType(gxe.ExpectColumnValuesToBeNull):
    """(warning) RoomType is a known room type code or name (data/codes/room_types.csv)."""

    description: str = "RoomType should be **a known room type** code or name."


class ExpectKitchenForApartments(gxe.ExpectColumnValuesToBeNull):
    """NOT_BOOKABLE_NO_KITCHEN (warning): Apartment, Aparthotel and Condominium need a kitchen or
    kitchenette to become bookable; strongly recommended for Holiday home, Holiday park, Lodge, Villa."""

    description: str = "An **Apartment, Aparthotel or Condominium** should have a kitchen or kitchenette."


class ExpectCribsAndExtraBedsWithinAdditionalGuests(gxe.ExpectColumnValuesToBeNull):
    """CRIB_EXTRA_BED: cribs and extra beds fit in MaximumAdditionalGuests; one or the other = 1 and 1."""

    description: str = ("MaxCribs and MaxRollaways should each be **at most MaximumAdditionalGuests** "
                        "(1 and 1 with 1 additional guest = a crib or an extra bed, not both).")


class ExpectAtMostHundredRoomTypes(gxe.ExpectColumnValuesToBeNull):
    """TOO_MANY_ROOM_TYPES: at most 100 room types per property."""

    description: str = "A property should have **at most 100 room types**."


class ExpectUniqueRoomFact(gxe.ExpectColumnValuesToBeNull):
    """A room, sub-room or amenity is given once (a second row would silently win or lose)."""

    description: str = "Each **room, sub-room and amenity** should be given once."


class ExpectKnownSubRoom(gxe.ExpectColumnValuesToBeNull):
    """An amenity of a sub-room of a new room type names a sub-room on the SubRooms sheet."""

    description: str = "A sub-room named on the Amenities sheet should be **on the SubRooms sheet**."


class ExpectSubRoomCountMatchesSheet(gxe.ExpectColumnValuesToBeNull):
    """A room's ``SubRoomCount`` says how many sub-rooms it has in all: the SubRooms sheet lists that many.
    (TPA_Extensions/SubRooms replaces every sub-room of the room, so a partial list would remove the rest.)"""

    description: str = "The SubRooms sheet should list **every** sub-room of a room whose SubRoomCount is given."


class ExpectNewRoomActive(gxe.ExpectColumnValuesToBeNull):
    """A room type to create is not marked inactive (InvStatusType Deactivated applies to existing room types)."""

    description: str = "A room type to create should not be **deactivated** (Active 0)."


class ExpectInfantsThroughRoomsApi(gxe.ExpectColumnValuesToBeNull):
    """(warning) MaxInfants / MaxInfantsOnTop have no OTA_HotelInvNotif attribute: the Rooms API takes them."""

    description: str = "MaxInfants and MaxInfantsOnTop should be sent **through the Rooms API**."
