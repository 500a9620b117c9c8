"""Room types through the Rooms and Facilities APIs as a kind of the one send driver (``units``).

The requests (built in ``workbench.modular``: ``build_modular_rooms`` for the units to create, ``update_units``
for the others) become :class:`~workbench.writers.planned.Planned` requests: a unit update (``PATCH``), a room's
facilities or bathrooms (``PUT``), each keyed ``<hotel>/<unit id>/<part>`` with its body as the state it
establishes; and a bulk creation (``POST /rooms-api/units``, the units of one property), one request that creates
several units. A bulk creation's reference (``creates``) is the property and the ``correlation_id`` of each unit
(the sheet's RoomID, else ``row-N``): it is never sent twice. Its answer maps each ``correlation_id`` to the unit id
the platform gave (``made``: that map as JSON); an answer lost after the platform applied it is settled by reading
the property's units back (:meth:`UnitsKind.resolve`: the units not there before, matched by their reference name
and unit type), never by creating again.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import pandas as pd

from workbench.modular.building import Request
from workbench.modular.endpoints import OPERATIONS
from workbench.modular.envelope import EnvelopeParseError, parse_envelope
from workbench.transport.result import Result
from workbench.wording import agree, count
from workbench.writers.journal_items import dumps
from workbench.writers.kind import Answer, Kind, Resolution
from workbench.writers.outcome import KindInfo
from workbench.writers.planned import Planned

if TYPE_CHECKING:
    from workbench.writers.journal import Journal

__all__ = ["BULK", "KIND", "PART_OF", "UNITS", "UnitsKind", "bulk_ref", "bulk_units", "journal_units", "made_units",
           "planned_units", "unsettled_bulks"]

KIND, BULK = "units", "units.bulk_create"
#: what part of a unit each operation sends
PART_OF = {"unit.update": "unit", "room_facilities.write": "room facilities", "bathrooms.write": "bathrooms",
           BULK: "new units"}
UNITS = KindInfo(KIND, "Rooms push (Rooms and Facilities APIs)",
                 request_keys=("hotel_code", "part", "unit_id", "room_ids"),
                 row_keys=("hotel_code", "inv_code", "room_name"),
                 labels={"hotel_code": "Property", "part": "Part", "unit_id": "Unit (InvCode)", "room_ids": "RoomIDs",
                         "inv_code": "InvCode", "room_name": "Room type"},
                 noun="request", plural="requests", group_by=("hotel_code", "inv_code"))
Reader = Callable[[Any, int], list[dict]]


def bulk_ref(hotel: int, correlation_ids: Iterable[str]) -> str:
    """The reference of a bulk creation: the property and the correlation ids of its units."""
    return f"{hotel}/units:{','.join(correlation_ids)}"


def bulk_units(body: bytes) -> list[dict]:
    """The units a bulk creation's body carries."""
    try:
        units = json.loads(body).get("units")
    except (ValueError, AttributeError):
        return []
    return [u for u in units if isinstance(u, dict)] if isinstance(units, list) else []


def made_units(made: str | None) -> dict[str, str]:
    """``correlation_id -> unit id`` of a bulk creation's ``made``."""
    try:
        value = json.loads(made) if made else {}
    except ValueError:
        return {}
    return {str(k): str(v) for k, v in value.items()} if isinstance(value, dict) else {}


def _rows(request: Request) -> pd.DataFrame:
    cells = {(c.source, c.sheet, c.row, c.column): None for c in request.cells.cells.values() if c.row}
    if request.cells.root is not None and request.cells.root.row:
        root = request.cells.root
        cells.setdefault((root.source, root.sheet, root.row, root.column), None)
    frame = pd.DataFrame(list(cells), columns=["source", "sheet", "row", "column"])
    return frame.assign(locator=None, item=None).sort_values(["source", "sheet", "row"], kind="stable")


def planned_units(requests: Iterable[Request]) -> list[Planned]:
    """The driver's requests for ``workbench.modular`` requests (their ids: ``unit_id`` / ``room_id``)."""
    out = []
    for r in requests:
        op = OPERATIONS[r.operation]
        hotel = int(r.hotel_code or 0)
        body = json.dumps(r.payload, ensure_ascii=False, separators=(",", ":")).encode()
        path = op.path.format(property_id=hotel, **{k: v for k, v in r.ids.items() if k != "correlation_id"})
        part = PART_OF.get(r.operation, r.operation)
        if r.operation == BULK:
            refs = [str(u.get("correlation_id")) for u in r.payload["units"]]
            creates: str | None = bulk_ref(hotel, refs)
            key, unit, what = str(creates), "", f"create {count(len(refs), 'unit')}"
            state: list[tuple[str, str]] = []
        else:
            creates, unit = None, str(r.ids.get("unit_id") or r.ids.get("room_id"))
            key, what, refs = f"{hotel}/{unit}/{part}", f"{part} of unit {unit}", []
            state = [(key, dumps(r.payload))]
        out.append(Planned(KIND, r.operation, key, body, str(hotel), what, hotel_code=hotel,
                           items=len(refs) or 1, state=state, rows=_rows(r), creates=creates,
                           idempotent=r.operation != BULK, method=op.method, path=path, source=r,
                           extra={"hotel_code": hotel, "part": part, "unit_id": unit,
                                  "room_ids": ", ".join(refs)}))
    return out


def units_folder_planned(manifest: pd.DataFrame, bodies: Sequence[bytes]) -> list[Planned]:
    """The requests of a ``push rooms --api modular --dry-run`` folder as the driver takes them: each body as
    written, its method and path from the manifest, the state it establishes read from the body (as
    :func:`planned_units` makes it), a bulk creation keyed by its reference (never sent twice)."""
    out = []
    for row, body in zip(manifest.to_dict("records"), bodies, strict=True):
        text = {k: ("" if v is None or str(v).strip() in ("", "nan") else str(v).strip()) for k, v in row.items()}
        hotel, operation = int(float(text["hotel_code"] or 0)), text["operation"]
        bulk = operation == BULK
        state = [] if bulk else [(text["key"], dumps(json.loads(body)))]
        out.append(Planned(KIND, operation, text["key"], body, str(hotel), text["what"], hotel_code=hotel,
                           items=int(float(text["items"] or 1)), state=state, creates=text["creates"] or None,
                           idempotent=not bulk, method=text["method"], path=text["path"],
                           extra={"hotel_code": hotel, "part": text["part"], "unit_id": text["unit_id"],
                                  "room_ids": text["room_ids"], "source_rows": text["source_rows"]}))
    return out


class UnitsKind(Kind):
    """Units in the send driver: the unit ids a bulk creation got, read back when its answer is unclear.

    ``read(client, hotel)``: the property's units (handed in by the flow: writers do not read the platform);
    ``known``: ``(hotel, unit id)`` of the units the workbook and its mapping already name (never taken for a
    unit a lost answer made); ``seen``: the units there before this push."""

    info = UNITS

    def __init__(self, read: Reader | None = None, known: set[tuple[int, str]] | None = None,
                 seen: set[tuple[int, str]] | None = None) -> None:
        self.read, self.known, self.seen = read, known or set(), seen

    def answer(self, planned: Planned, result: Result, sends: int, ruids: Sequence[str]) -> Answer:
        if planned.operation != BULK:
            return super().answer(planned, result, sends, ruids)
        if result.ok:
            made = _answered(planned, result)
            if made is not None:
                if self.seen is not None:
                    self.seen.update((int(planned.hotel_code or 0), u) for u in made.values())
                return Answer("success", made=json.dumps(made, sort_keys=True))
            return Answer("success", unclear=True, note="the answer does not give a unit id for every correlation_id")
        answer = super().answer(planned, result, sends, ruids)
        if result.outcome.value == "failed" and not result.fatal:
            answer.unclear = True
        return answer

    def accept(self, planned: Planned, result: Result, answer: Answer) -> list[tuple[str, str]] | None:
        if planned.operation != BULK:
            return None
        made = made_units(answer.made)
        return [(f"{planned.hotel_code}/{made[str(u.get('correlation_id'))]}/unit", dumps(u))
                for u in bulk_units(planned.body) if str(u.get("correlation_id")) in made]

    def resolve(self, client: Any, planned: Planned, *, sent_now: bool = False) -> Resolution:
        """The units a bulk creation made, found among the property's units that no row names and (``sent_now``)
        that were not there before this push, by reference name and unit type: one unit for each."""
        hotel = int(planned.hotel_code or 0)
        units = self._units(client, hotel) if planned.operation == BULK else None
        if units is None:
            return Resolution()  # nothing read: the creation stays unclear
        skip = self.known | (self.seen or set() if sent_now else set())
        free = [u for u in sorted(units, key=lambda u: int(u.get("unit_id") or 0))
                if (hotel, str(u.get("unit_id"))) not in skip]
        made: dict[str, str] = {}
        for unit in bulk_units(planned.body):
            hit = next((u for u in free if _same(u, unit)), None)
            if hit is not None:
                free.remove(hit)
                made[str(unit.get("correlation_id"))] = str(hit.get("unit_id"))
        wanted = len(bulk_units(planned.body))
        if made and len(made) == wanted:
            return Resolution(json.dumps(made, sort_keys=True), True, "")
        if not made:
            return Resolution(None, True, "the property's units were read back and none of them is there, so they "
                                          "were not created; push again to create them")
        return Resolution(note=f"only {len(made):,} of the {count(wanted, 'unit')} {agree(len(made), 'was', 'were')} "
                               "found")

    def _units(self, client: Any, hotel: int) -> list[dict] | None:
        """The property's units, or None when they cannot be read (a read that fails settles nothing)."""
        if self.read is None:
            return None
        try:
            return self.read(client, hotel)
        except Exception:  # noqa: BLE001 - whatever went wrong, the creation stays unclear
            return None

    def unclear_text(self, planned: Planned, ruid: str | None) -> str:
        refs = ", ".join(str(u.get("correlation_id")) for u in bulk_units(planned.body))
        return (f"unclear: an earlier creation of units {refs} (property {planned.property}) got no clear answer"
                f"{f' (ruid {ruid})' if ruid else ''} and reading the units back cannot tell whether they were made; "
                "they are not created again. Check the property's units and put their ids in InvCode")


def _answered(planned: Planned, result: Result) -> dict[str, str] | None:
    """``correlation_id -> unit id`` from a bulk creation's answer (None unless every unit is there)."""
    envelope = getattr(result, "envelope", None)
    try:
        data = (envelope if envelope is not None else parse_envelope(result.body)).data
    except EnvelopeParseError:
        return None
    units = data.get("units") if isinstance(data, dict) else None
    made = {str(u.get("correlation_id")): str(u.get("unit_id")) for u in units or []
            if isinstance(u, dict) and u.get("unit_id") is not None}
    wanted = {str(u.get("correlation_id")) for u in bulk_units(planned.body)}
    return {k: made[k] for k in sorted(wanted)} if wanted and wanted <= set(made) else None


def _same(read: dict, sent: dict) -> bool:
    """A unit read back is the one a creation sent: the same reference name and unit type."""
    def key(u: dict) -> tuple[str, object]:
        return (str(u.get("partner_reference_name") or "").casefold().strip(),
                (u.get("configuration") or {}).get("unit_type_id"))
    return key(read) == key(sent)


def journal_units(journal: Journal, target: str) -> list[dict]:
    """The room types the journal says were created on ``target``, as mapping rows (``hotel_code, room_id,
    room_name, inv_code, how, ruid``): each unit of a bulk creation (by its ``correlation_id``: the RoomID, else
    the name it was sent with) and each InvNotif ``New`` (kind ``rooms``: InvCodes and unit ids are one id space)."""
    out: list[dict] = []
    rows = journal.db.execute(
        "SELECT c.kind, c.ref, c.created_id, c.ruid, r.body FROM created c LEFT JOIN requests r USING (request_id) "
        "WHERE c.target=? AND c.kind IN (?, 'rooms') AND c.status='created' ORDER BY c.at", (target, KIND)).fetchall()
    for kind, ref, made, ruid, body in rows:
        hotel, _, rest = str(ref).partition("/")
        if kind == "rooms":
            if rest and not rest.startswith("name:"):
                out.append({"hotel_code": hotel, "room_id": rest, "room_name": None, "inv_code": str(made),
                            "how": "created (journal)", "ruid": ruid})
            continue
        names = {str(u.get("correlation_id")): u.get("partner_reference_name") for u in bulk_units(body or b"")}
        for corr, unit in made_units(made).items():
            by_row = corr.startswith("row-")
            out.append({"hotel_code": hotel, "room_id": None if by_row else corr,
                        "room_name": names.get(corr) if by_row else None, "inv_code": unit,
                        "how": "created (journal)", "ruid": ruid})
    return out


def unsettled_bulks(journal: Journal, target: str) -> list[Planned]:
    """The bulk creations of earlier runs whose answer was never seen (killed) or left it unclear, rebuilt from the
    journal (their body as it was sent) so :meth:`UnitsKind.resolve` can settle them."""
    out: list[Planned] = []
    for rid, ref, hotel, prop in journal.db.execute(
            "SELECT request_id, creates, hotel_code, property FROM requests WHERE target=? AND kind=? AND operation=? "
            "AND creates IS NOT NULL ORDER BY request_id DESC", (target, KIND, BULK)).fetchall():
        if any(p.creates == ref for p in out):
            continue
        found = journal.created_of(target, KIND, str(ref))
        if found is not None and found[0] != "created":
            out.append(Planned(KIND, BULK, str(ref), journal.body(int(rid)), str(prop), "create units",
                               hotel_code=int(hotel), creates=str(ref), idempotent=False))
    return out
