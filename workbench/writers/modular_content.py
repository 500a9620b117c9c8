"""Property content through the modular JSON APIs, as a kind of the one send driver: one request per property and
API (``property.create`` / ``property.update``, ``settings.write``, ``contacts.write``, ``facilities.write``,
``charges.write``), built by ``workbench.modular.build_modular_content``.

- **Key**: ``<property>/<api>`` (the HotelCode, or ``id:<custom ID>`` for a create).
- **State**: ``<property id>/<api>`` -> the body in a canonical form (what an update cannot change, the facility
  instance ids the platform gives and the charges' start date left out), so a resend is a delta: a request
  whose state the journal accepted last time is not sent again.
- **Creates**: ``property.create`` is for the custom ID (``provider_property_id``): the journal keeps custom ID ->
  property id, a create is never sent twice; an answer that refuses a duplicate and names the existing property
  (``details.property_id``) maps the custom ID to it instead; a create whose answer was never seen (killed,
  unreadable) is settled by sending it again: the platform refuses the duplicate and names the property, or
  creates it if the first never arrived (:meth:`ModularContentKind.resolve`).

Writers never read the platform: the driver hands :meth:`resolve` its client.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pandas as pd

from workbench.modular.building import Request
from workbench.modular.content import CREATE_ONLY
from workbench.transport.operations import operation as transport_operation
from workbench.transport.result import Result
from workbench.writers.kind import Answer, Kind, Resolution
from workbench.writers.outcome import KindInfo
from workbench.writers.planned import Planned

KIND = "modular"
CREATE = "property.create"
#: the API (the journal's state item) of each write the content workbook makes
API_OF: dict[str, str] = {CREATE: "property", "property.update": "property", "settings.write": "settings",
                          "contacts.write": "contacts", "facilities.write": "facilities", "charges.write": "charges",
                          "status.write": "status", "description.write": "description"}
APIS = ("property", "settings", "contacts", "facilities", "charges")
MODULAR = KindInfo(KIND, "Content push (modular APIs)", request_keys=("property", "api", "operation"),
                   row_keys=("property", "api"),
                   labels={"property": "Property", "api": "API", "operation": "Operation", "hotel_code": "HotelCode"},
                   noun="request", plural="requests", group_by=("property",))
#: what a dry-run manifest adds per request (after ``file``)
OWN_COLUMNS = ["property", "hotel_code", "custom_id", "api", "method", "path"]
PLACEHOLDER = "{property_id}"


def canonical(api: str, payload: Any) -> str:
    """The state a body establishes, as the journal compares it: sorted keys; the create-only fields, the instance
    ids the platform gives and the charges' periods' dates (the workbook has none) left out."""
    def strip(value: Any, drop: frozenset[str]) -> Any:
        if isinstance(value, dict):
            return {k: strip(v, drop) for k, v in value.items() if k not in drop}
        if isinstance(value, list):
            return [strip(v, drop) for v in value]
        return value

    drop = {"property": frozenset(CREATE_ONLY), "facilities": frozenset({"instance_id"}),
            "charges": frozenset({"applicable"})}.get(api, frozenset())
    return json.dumps(strip(payload, drop), ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def body_of(payload: Any) -> bytes:
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def cell_rows(request: Request) -> pd.DataFrame:
    """The cells a request carries (``source, sheet, row, column, locator, item``: ``item`` the JSON path)."""
    out: dict[str, list[Any]] = {"source": [], "sheet": [], "row": [], "column": [], "locator": [], "item": []}
    seen: set[tuple[str, str, int, str]] = set()
    root = request.cells.root
    for path, c in ([("", root)] if root is not None else []) + list(request.cells.cells.items()):
        key = (c.source, c.sheet, c.row, c.column)
        if key in seen or not c.sheet:
            continue
        seen.add(key)
        for name, value in zip(out, (*key, None, path), strict=True):
            out[name].append(value)
    return pd.DataFrame(out)


def source_rows_of(request: Request) -> str:
    """``content.xlsx Contacts 3-4; content.xlsx Property 2``: the rows a request carries, per sheet, as ranges."""
    from workbench.writers.batches import row_ranges

    cells = request.cells
    by: dict[tuple[str, str], set[int]] = {}
    for c in ([cells.root] if cells.root is not None else []) + list(cells.cells.values()):
        if c.sheet and c.row:
            by.setdefault((c.source, c.sheet), set()).add(int(c.row))
    return "; ".join(f"{src} {sheet} {row_ranges(sorted(rows))}" for (src, sheet), rows in sorted(by.items()))


def planned_modular(requests: Iterable[Request], ids: Mapping[str, int] | None = None, *,
                    rows: bool = True) -> list[Planned]:
    """The modular requests as the driver takes them; ``ids``: the property id of a workbook key known from the
    journal (a property created by an earlier push). A request of a property without an id keeps the path
    template (``{property_id}``): only a dry run writes it. ``rows``: give each its cells as rows now (a plan
    that drops most of its requests gives them to the ones it sends only, with :func:`cell_rows`)."""
    out = []
    for r in requests:
        api = API_OF.get(r.operation, r.operation.split(".", 1)[0])
        pid = r.hotel_code if r.hotel_code is not None else (ids or {}).get(r.property)
        op = transport_operation(r.operation)
        path = op.path.format(property_id=pid if pid is not None else PLACEHOLDER, **{k: v for k, v in r.ids.items()})
        key = f"{pid if pid is not None else 'id:' + str(r.custom_id or r.property)}/{api}"
        creates = (r.custom_id or r.property) if r.operation == CREATE else None
        state = [(f"{pid}/{api}", canonical(api, r.payload))] if pid is not None else []
        out.append(Planned(KIND, r.operation, key, body_of(r.payload), r.property,
                           "create" if r.operation == CREATE else f"{op.method} {api}", hotel_code=pid,
                           items=len(r.cells.cells), state=state, rows=cell_rows(r) if rows else None,
                           creates=creates,
                           method=op.method, path=path, source=r,
                           extra={"property": r.property, "hotel_code": pid, "custom_id": r.custom_id, "api": api,
                                  "method": op.method, "path": path, "source_rows": source_rows_of(r)}))
    return out


def duplicate_of(result: Result) -> str | None:
    """The existing property an answer refusing a duplicate create names (``details.property_id``)."""
    env = result.envelope
    for e in (env.errors if env is not None else ()):
        found = e.details.get("property_id") if isinstance(e.details, Mapping) else None
        if found is not None and str(found).strip().isdigit():
            return str(int(str(found).strip()))
    return None


def created_id(result: Result) -> str | None:
    data = result.data
    found = data.get("property_id") if isinstance(data, Mapping) else None
    return None if found is None else str(found)


class ModularContentKind(Kind):
    """The modular content in the send driver (see the module docstring)."""

    info = MODULAR

    def answer(self, planned: Planned, result: Result, sends: int, ruids: Sequence[str]) -> Answer:
        if planned.operation == CREATE:
            made = created_id(result) if result.ok else None
            if made is not None:
                return Answer("success", made=made, note=f"created: property {made}")
            existing = duplicate_of(result)
            if existing is not None:
                return Answer("success", made=existing, note=(
                    f"the platform already has this property ({existing}: same name, address and coordinates): "
                    "mapped to it, not created twice"))
            if result.ok:  # a success naming no property: it exists, but which is it?
                return Answer("unrecognised", unclear=True, note="the create was answered without a property_id")
        answer = super().answer(planned, result, sends, ruids)
        if answer.unclear:
            answer.note = (f"{result.error or result.outcome.value}: no clear answer to a create, so the property may "
                           "have been made; the next push settles it by sending the create again (the platform "
                           "refuses a duplicate and names the property)")
        return answer

    def accept(self, planned: Planned, result: Result, answer: Answer) -> list[tuple[str, str]] | None:
        if planned.operation != CREATE:
            return None
        if duplicate_of(result) is not None:
            return []  # the platform's property may differ: the update that follows sends the details
        req: Request = planned.source
        return [(f"{answer.made}/property", canonical("property", req.payload))] if answer.made else []

    def resolve(self, client: Any, planned: Planned, *, sent_now: bool = False) -> Resolution:
        """A create whose answer was never seen: send it again (the platform refuses the duplicate naming the
        property; a success means the first never arrived, and this one made it)."""
        if planned.operation != CREATE or client is None:
            return Resolution()
        result = client.send(planned.operation, planned.body, method=planned.method, path=planned.path)
        existing = duplicate_of(result) or (created_id(result) if result.ok else None)
        if existing is not None:
            return Resolution(made=existing, note=f" (sent again: the platform names property {existing}; ruid "
                                                  f"{result.ruid or '-'})")
        return Resolution()


def folder_planned(manifest: pd.DataFrame, bodies: Sequence[bytes], ids: Mapping[str, int]) -> list[Planned]:
    """The requests of a dry-run folder of this kind: the path of a property created since filled in from
    ``ids`` (custom ID -> property id); the state read back from the request itself."""
    out = []
    for row, body in zip(manifest.to_dict("records"), bodies, strict=True):
        api, custom = str(row["api"]), str(row.get("custom_id") or "") or None
        hotel = str(row.get("hotel_code") or "").strip()
        pid = int(float(hotel)) if hotel else ids.get(custom or str(row["property"]))
        path = str(row["path"])
        if PLACEHOLDER in path and pid is not None:
            path = path.replace(PLACEHOLDER, str(pid))
        state = [(f"{pid}/{api}", canonical(api, json.loads(body)))] if pid is not None else []
        req = Request(str(row["property"]), pid, custom, str(row["operation"]), json.loads(body))
        out.append(Planned(KIND, str(row["operation"]), str(row["key"]), body, str(row["property"]), str(row["what"]),
                           hotel_code=pid, state=state, creates=str(row.get("creates") or "") or None,
                           method=str(row["method"]), path=path, source=req,
                           extra={"property": row["property"], "hotel_code": pid, "custom_id": custom, "api": api,
                                  "method": row["method"], "path": path, "source_rows": row.get("source_rows", "")}))
    return out


__all__ = ["APIS", "API_OF", "CREATE", "KIND", "MODULAR", "ModularContentKind", "OWN_COLUMNS", "PLACEHOLDER",
           "body_of", "canonical", "cell_rows", "source_rows_of", "duplicate_of", "folder_planned", "modular_touched", "planned_modular",
           "refuse_mixed"]


def modular_touched(journal: Any, target: str) -> set[int]:
    """The properties whose content the journal saw accepted through a modular API on ``target``."""
    return {int(item.split("/", 1)[0]) for item in journal.accepted_items(target, KIND)
            if item.split("/", 1)[0].isdigit()}


def refuse_mixed(plan: Any, touched: set[int], replace: bool) -> Any:
    """A content-operation plan (``workbench.writers.content_plan.ContentPlan``) without the Overlays of the
    properties changed through a modular API (``touched``): the published migration guide warns that the content
    operation's Overlay erases what the modular APIs set. Each is held back with an error on its Property row
    (rule ``modular_overlay_refused``), unless ``replace``."""
    if replace or not touched:
        return plan
    keep, rows = [], []
    for r in plan.requests:
        if r.notif_type == "Overlay" and r.hotel_code in touched:
            rows.append({"source": r.source, "sheet": r.sheet, "row": r.row, "column": "HotelCode",
                         "value": str(r.hotel_code), "rule": "modular_overlay_refused", "severity": "error",
                         "message": f"property {r.hotel_code} was changed through the modular APIs (journal): an "
                                    "Overlay of OTA_HotelDescriptiveContentNotif replaces its whole content and "
                                    "would erase what they set; push it with --api modular, or send with --replace"})
            plan.held.append(r.key)
        else:
            keep.append(r)
    if rows:
        plan.requests = keep
        plan.issues = pd.concat([plan.issues, pd.DataFrame(rows)], ignore_index=True)
    return plan
