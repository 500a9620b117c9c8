"""Room types from sheets to the platform: overlay safety (merge, diff, bed/non-bed exception, removal),
creation with the RoomID -> InvCode mapping, never re-sending a New blindly, the Home deprecation.

Unit tests talk to a small stand-in of the platform through ``httpx.MockTransport``; the tests at
the end run against the real sandbox over HTTPS (``run_sandbox``) and check the sandbox's own state.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import itertools
import ssl

import httpx
import pandas as pd
import pytest
from lxml import etree
from typer.testing import CliRunner

from workbench.cli import app
from workbench.config import Secret, Settings
from workbench.flows.rooms import (
    BlockedByErrors,
    DeprecatedOperationWarning,
    OperationSunset,
    check_rooms,
    fetch_rooms,
    preview_rooms,
    push_rooms,
    write_rooms_workbook,
)
from workbench.ota.inv_notif import OVERLAY, Amenity, parse_inv_notif_request
from workbench.ota.ns import OTA_NS, parse_xml
from workbench.transport import SyncPlatformClient

BEDS = {33, 58, 86, 102, 113, 200, 203, 249, 4001}
ROOMS = ["HotelCode", "InvCode", "RoomID", "RoomType", "RoomTypeName", "MaxOccupancy", "MaxAdultOccupancy",
         "MaxChildOccupancy", "NonSmoking"]
AMEN = ["HotelCode", "InvCode", "RoomID", "SubRoom", "AmenityCode", "Value", "Configuration"]
SUBS = ["HotelCode", "InvCode", "RoomID", "SubRoom", "RoomType", "MaxGuests", "Number"]


class FakePlatform:
    """InvNotif (New/Overlay, per-part replace, bed/non-bed exception, Value=0) and DescriptiveInfo."""

    def __init__(self) -> None:
        self.rooms: dict[str, dict] = {
            "101": {"hotel": "7", "RoomID": "11", "RoomType": "9", "name": "Double", "Occupancy":
                    {"MaxOccupancy": 2, "MaxAdultOccupancy": 2, "MaxChildOccupancy": 0},
                    "amenities": {(2, None): None, (5, None): None, (86, None): 1}, "subrooms": None},
        }
        self.ids = itertools.count(500)
        self.sent: list[bytes] = []
        self.drop_after_new = False  # apply a New, then lose the answer (ambiguous failure)
        self.drop_before_new = False  # lose the request before it is applied
        self.drop_after_nth_new: int | None = None  # apply the n-th New (1-based), then lose its answer
        self.news = 0

    def handler(self, request: httpx.Request) -> httpx.Response:
        body = request.content
        if request.url.path.endswith("OTA_HotelDescriptiveInfo"):
            hotel = parse_xml(body).find(f".//{{{OTA_NS}}}HotelDescriptiveInfo").get("HotelCode")
            return httpx.Response(200, content=self.describe(hotel))
        self.sent.append(body)
        hotel, (msg,) = parse_inv_notif_request(body)
        if msg.notif_type == "New":
            if self.drop_before_new:
                raise httpx.ReadTimeout("timed out", request=request)
            inv = str(next(self.ids))
            self.rooms[inv] = {"hotel": hotel, "RoomID": msg.room.get("RoomID"), "RoomType": msg.room["RoomType"],
                               "name": msg.name, "Occupancy": msg.occupancy or {}, "NonSmoking": msg.room.get("NonSmoking"),
                               "amenities": {a.key: a.value for a in msg.amenities or ()},
                               "subrooms": msg.subrooms}
            self.news += 1
            if self.drop_after_new or self.news == self.drop_after_nth_new:
                raise httpx.ReadTimeout("timed out", request=request)
            ref = f'<InventoryCrossRefs><InventoryCrossRef RequestInvCode="{msg.room.get("RoomID", "1")}" ' \
                  f'ResponseInvCode="{inv}"/></InventoryCrossRefs>'
            return self._ok(ref)
        room = self.rooms[msg.inv_code]
        if msg.name is not None:
            room["name"] = msg.name
        if msg.occupancy is not None:
            room["Occupancy"] = msg.occupancy
        if msg.amenities is not None:
            kinds = {a.code in BEDS for a in msg.amenities}
            kept = {k: v for k, v in room["amenities"].items() if len(kinds) == 1 and (k[0] in BEDS) not in kinds}
            kept.update({a.key: a.value for a in msg.amenities if a.value != 0})
            room["amenities"] = kept
        if msg.subrooms is not None:
            room["subrooms"] = msg.subrooms
        return self._ok("")

    @staticmethod
    def _ok(inner: str) -> httpx.Response:
        return httpx.Response(200, content=f'<OTA_HotelInvNotifRS xmlns="{OTA_NS}" Version="3.000"><Success/>{inner}'
                                           f'</OTA_HotelInvNotifRS><!-- RUID: [r1] -->'.encode())

    def describe(self, hotel: str) -> bytes:
        """The published shape (spec E2; finding 3): no Success, RoomTypeName = the room type, DescriptiveText =
        the name, Amenity directly under GuestRoom; no RoomID, Room@RoomType code, size, units or sub-rooms."""
        root = etree.Element("OTA_HotelDescriptiveInfoRS", Version="1.006")
        holder = etree.SubElement(etree.SubElement(etree.SubElement(etree.SubElement(
            root, "HotelDescriptiveContents"), "HotelDescriptiveContent", HotelCode=hotel), "FacilityInfo"),
            "GuestRooms")
        for inv, r in self.rooms.items():
            if r["hotel"] != hotel:
                continue
            occ = r["Occupancy"]
            gr = etree.SubElement(holder, "GuestRoom", ID=inv, Active="1", RoomTypeName=TYPE_NAMES[r["RoomType"]],
                                  **({"MaxOccupancy": str(occ["MaxOccupancy"])} if "MaxOccupancy" in occ else {}),
                                  NonSmoking=str(r.get("NonSmoking") or "Unknown"))
            for (code, conf), value in r["amenities"].items():
                etree.SubElement(gr, "Amenity", RoomAmenityCode=str(code),
                                 **({"Quantity": str(value)} if value is not None else {}),
                                 **({"Configuration": str(conf)} if conf is not None else {}))
            if r["name"]:
                etree.SubElement(gr, "DescriptiveText").text = r["name"]
            etree.SubElement(gr, "Occupancy", {k: str(v) for k, v in occ.items()})
        return etree.tostring(root) + b"\n<!-- RUID: [r2] -->"


TYPE_NAMES = {"9": "Double", "Double": "Double", "Apartment": "Apartment", "1": "Apartment"}
SETTINGS = Settings(base_url="https://platform.test", username="u", password=Secret("p"))


@pytest.fixture
def fake():
    platform = FakePlatform()
    client = SyncPlatformClient(SETTINGS, transport=httpx.MockTransport(platform.handler))
    yield platform, client
    client.close()


def _sent_messages(platform: FakePlatform):
    return [parse_inv_notif_request(b)[1][0] for b in platform.sent]


def test_overlaying_one_amenity_sends_every_other_stored_one_again(fake, write_xlsx) -> None:
    platform, client = fake
    check = check_rooms(write_xlsx({"Amenities": [AMEN, [7, "101", None, None, 69, None, None]]}))
    result = push_rooms(check, SETTINGS, client=client)
    assert result.ok
    (msg,) = _sent_messages(platform)
    assert msg.notif_type == OVERLAY and msg.inv_code == "101"
    assert msg.occupancy is None and msg.room is None and msg.name is None  # parts not touched are not sent
    assert set(msg.amenities) == {Amenity(2), Amenity(5), Amenity(69)}  # non-beds only: beds stay untouched
    assert platform.rooms["101"]["amenities"] == {(2, None): None, (5, None): None, (86, None): 1, (69, None): None}
    assert result.plan.diff[["part", "item", "before", "after", "change"]].values.tolist() == [
        ["amenity", "69", None, "yes", "added"]]


def test_a_removal_is_sent_as_value_zero_and_only_what_was_asked_goes(fake, write_xlsx) -> None:
    platform, client = fake
    check = check_rooms(write_xlsx({"Amenities": [AMEN, [7, "101", None, None, 5, "remove", None]]}))
    push_rooms(check, SETTINGS, client=client)
    (msg,) = _sent_messages(platform)
    assert msg.amenities == (Amenity(2), Amenity(5, 0))
    assert platform.rooms["101"]["amenities"] == {(2, None): None, (86, None): 1}


def test_a_bed_change_sends_beds_only_and_mixed_changes_send_everything(fake, write_xlsx) -> None:
    platform, client = fake
    push_rooms(check_rooms(write_xlsx({"Amenities": [AMEN, [7, "101", None, None, 86, 2, None]]}, name="a.xlsx")),
               SETTINGS, client=client)
    push_rooms(check_rooms(write_xlsx({"Amenities": [AMEN, [7, "101", None, None, 113, 1, None],
                                                     [7, "101", None, None, 2, 0, None]]}, name="b.xlsx")),
               SETTINGS, client=client)
    beds, mixed = _sent_messages(platform)
    assert beds.amenities == (Amenity(86, 2),)
    assert set(mixed.amenities) == {Amenity(5), Amenity(86, 2), Amenity(113, 1), Amenity(2, 0)}
    assert platform.rooms["101"]["amenities"] == {(5, None): None, (86, None): 2, (113, None): 1}


def test_blank_cells_keep_stored_values_and_an_unchanged_sheet_sends_nothing(fake, write_xlsx) -> None:
    platform, client = fake
    sheet = {"Rooms": [ROOMS, [7, "101", None, None, "Double", 2, None, None, None]]}
    result = push_rooms(check_rooms(write_xlsx(sheet)), SETTINGS, client=client)
    assert platform.sent == [] and result.results.empty and result.plan.diff.empty
    sheet = {"Rooms": [ROOMS, [7, "101", None, None, None, 3, 2, 1, None]]}
    plan = preview_rooms(check_rooms(write_xlsx(sheet, name="b.xlsx")), SETTINGS, client=client)
    (req,) = plan.requests
    assert req.message.occupancy == {"MaxOccupancy": 3, "MaxAdultOccupancy": 2, "MaxChildOccupancy": 1}
    assert plan.diff[["item", "before", "after", "change"]].values.tolist() == [
        ["MaxOccupancy", "2", "3", "changed"], ["MaxChildOccupancy", "0", "1", "changed"]]


def _new_room_sheet(write_xlsx, name: str = "new.xlsx"):
    return write_xlsx({"Rooms": [ROOMS, [7, None, 77, "Apartment", "Loft", 4, 4, 2, 1]],
                       "SubRooms": [SUBS, [7, None, 77, "Bedroom 1", "Bedroom", 2, None]],
                       "Amenities": [AMEN, [7, None, 77, None, 59, None, None],
                                     [7, None, 77, "Bedroom 1", 33, 1, None]]}, name=name)


def test_creation_maps_roomid_to_invcode_and_fills_a_copy_of_the_workbook(fake, write_xlsx, tmp_path) -> None:
    platform, client = fake
    path = _new_room_sheet(write_xlsx)
    result = push_rooms(check_rooms(path), SETTINGS, client=client, mapping=tmp_path / "map.csv",
                        workbook_copy=tmp_path / "filled.xlsx")
    assert result.results[["notif_type", "inv_code", "outcome"]].values.tolist() == [["New", "500", "success"]]
    mapping = pd.read_csv(tmp_path / "map.csv", dtype=str)
    assert mapping[["hotel_code", "room_id", "room_name", "inv_code", "how"]].values.tolist() == [
        ["7", "77", "Loft", "500", "created"]]
    filled = check_rooms(tmp_path / "filled.xlsx")
    assert filled.rooms["inv_code"].tolist() == ["500"]
    assert filled.amenities["inv_code"].tolist() == ["500", "500"]
    known = push_rooms(check_rooms(path), SETTINGS, client=client, mapping=tmp_path / "map.csv")
    assert len(platform.sent) == 1 and known.results.empty  # the journal knows what was sent: nothing to send
    assert known.plan.issues.empty  # and nothing it cannot compare
    # another journal (nothing sent from it): its RoomID is in the mapping, so nothing is created twice
    again = push_rooms(check_rooms(path), SETTINGS, client=client, mapping=tmp_path / "map.csv",
                       journal=tmp_path / "other-journal.sqlite")
    assert len(platform.sent) == 1 and again.results.empty
    assert again.mapping["how"].tolist() == ["found on the platform before sending (its RoomID is in the mapping)"]
    assert len(pd.read_csv(tmp_path / "map.csv")) == 1
    # what the read does not carry (RoomID, sub-rooms) is not compared and not sent, and the analyst is told
    (warning,) = again.plan.issues.itertuples()
    assert (warning.rule, warning.severity, warning.sheet, warning.row) == ("not_compared", "warning", "Rooms", 2)
    assert ("; `RoomID`, its sub-rooms and their beds cannot be compared with the platform's read, so they are not "
            "sent: to change them, put InvCode 500 on the row") in warning.message
    # without the mapping the platform's read (no RoomID) is matched by name, and says so
    by_name = push_rooms(check_rooms(path), SETTINGS, client=client, mapping=tmp_path / "other.csv",
                         journal=tmp_path / "other-journal.sqlite")
    assert len(platform.sent) == 1 and by_name.results.empty
    assert by_name.mapping["how"].tolist() == ["found on the platform before sending (same name)"]
    assert "matched_by_name" in set(by_name.plan.issues["rule"])


def test_after_an_ambiguous_failure_a_new_is_read_back_not_resent(fake, write_xlsx) -> None:
    platform, client = fake
    platform.drop_after_new = True
    result = push_rooms(check_rooms(_new_room_sheet(write_xlsx)), SETTINGS, client=client)
    assert len(platform.sent) == 1
    row = result.results.iloc[0]
    assert (row["outcome"], row["inv_code"]) == ("success", "500")
    assert row["message"].startswith("created (confirmed by reading the property back after: ReadTimeout")
    assert result.mapping["how"].tolist() == ["confirmed by reading back"]


def test_the_read_back_matches_by_name_only_among_room_types_that_were_not_there_before(fake, write_xlsx) -> None:
    """The published read has no RoomID, so a New is read back by name: a room type of the same name created a
    moment earlier in the same push (or there before it) is not taken for it."""
    platform, client = fake
    platform.drop_after_nth_new = 2
    path = write_xlsx({"Rooms": [ROOMS, [7, None, 77, "Double", "Loft", 2, 2, 0, 1],
                                 [7, None, 78, "Double", "Loft", 2, 2, 0, 1]]})
    result = push_rooms(check_rooms(path), SETTINGS, client=client)
    assert result.results[["inv_code", "outcome"]].values.tolist() == [["500", "success"], ["501", "success"]]
    assert result.mapping[["room_id", "inv_code", "how"]].values.tolist() == [
        ["77", "500", "created"], ["78", "501", "confirmed by reading back"]]


def test_when_the_read_back_does_not_find_it_the_new_is_reported_not_resent(fake, write_xlsx) -> None:
    platform, client = fake
    platform.drop_before_new = True
    result = push_rooms(check_rooms(_new_room_sheet(write_xlsx)), SETTINGS, client=client)
    assert len(platform.sent) == 1 and not result.ok and result.mapping.empty
    assert "the room type is not there, so it was not created; push again" in result.results.iloc[0]["message"]


def test_errors_and_unknown_invcodes_block_the_push(fake, write_xlsx) -> None:
    platform, client = fake
    with pytest.raises(BlockedByErrors, match="1 error"):
        push_rooms(check_rooms(write_xlsx({"Rooms": [ROOMS, [7, "101", None, 9, "x", 5, 2, 1, None]]})),
                   SETTINGS, client=client)
    with pytest.raises(BlockedByErrors) as err:
        push_rooms(check_rooms(write_xlsx({"Amenities": [AMEN, [7, "999", None, None, 2, None, None]]},
                                          name="b.xlsx")), SETTINGS, client=client)
    assert err.value.issues["rule"].tolist() == ["unknown_inv_code"]
    assert platform.sent == []


def test_home_provider_type_is_warned_before_the_sunset_and_refused_from_it(fake, write_xlsx) -> None:
    platform, client = fake
    check = check_rooms(write_xlsx({"Amenities": [AMEN, [7, "101", None, None, 69, None, None]]}))
    home = SETTINGS.with_(provider_type="Home")
    with pytest.warns(DeprecatedOperationWarning, match="sunset on 2026-12-31 .30 days left"):
        push_rooms(check, home, client=client, today=dt.date(2026, 12, 1))
    with pytest.raises(OperationSunset, match="was sunset on 2026-12-31"):
        push_rooms(check, home, client=client, today=dt.date(2026, 12, 31))
    assert len(platform.sent) == 1


# --- against the real sandbox over HTTPS -----------------------------------------------------------------

@pytest.fixture(scope="module")
def sandbox():
    from workbench.sandbox import run_sandbox

    with run_sandbox(today=dt.date(2026, 12, 1)) as sb:
        yield sb


def _state(sb, kind: str) -> list[dict[str, str]]:
    with httpx.Client(verify=ssl.create_default_context(cafile=str(sb.tls.ca_bundle))) as c:
        text = c.get(f"{sb.base_url}/_sandbox/{kind}.csv", auth=(sb.sandbox.username, sb.sandbox.password)).text
    return list(csv.DictReader(io.StringIO(text)))


def test_sandbox_create_from_a_sheet_then_read_back_equals_the_sheet(sandbox, write_xlsx, tmp_path) -> None:
    path = write_xlsx({
        "Rooms": [ROOMS + ["Quantity", "SizeMeasurement", "SizeMeasurementUnit", "MaximumAdditionalGuests",
                           "MaxCribs", "MaxRollaways", "MaxChildPayableOccupancy"],
                  [1000005, None, 5101, "Chalet", "Family Chalet", 6, 4, 2, 1, 2, 90, "sqm", 1, 1, 1, 1]],
        "SubRooms": [SUBS, [1000005, None, 5101, "Bedroom 1", "Bedroom", 2, None],
                     [1000005, None, 5101, "Bedroom 2", "Bedroom", 2, None],
                     [1000005, None, 5101, "Bathroom 1", "Bathroom", None, 2]],
        "Amenities": [AMEN, [1000005, None, 5101, None, 59, None, None], [1000005, None, 5101, None, 2, None, None],
                      [1000005, None, 5101, "Bedroom 1", 58, 1, None],
                      [1000005, None, 5101, "Bedroom 2", 113, 2, None]]})
    check = check_rooms(path)
    assert check.ok, check.issues
    result = push_rooms(check, sandbox.settings, mapping=tmp_path / "map.csv")
    assert result.ok, result.results
    inv = result.mapping["inv_code"].iloc[0]
    # everything the sheet said is stored (the sandbox's own tables, which hold what the read leaves out)
    (stored,) = [r for r in _state(sandbox, "rooms") if r["InvCode"] == inv]
    assert {k: stored[k] for k in ("RoomID", "RoomType", "RoomTypeName", "MaxOccupancy", "MaxAdultOccupancy",
                                   "MaxChildOccupancy", "MaxChildPayableOccupancy", "Quantity", "NonSmoking",
                                   "SizeMeasurement", "SizeMeasurementUnit", "MaximumAdditionalGuests", "MaxCribs",
                                   "MaxRollaways", "Active")} == {
        "RoomID": "5101", "RoomType": "Chalet", "RoomTypeName": "Family Chalet", "MaxOccupancy": "6",
        "MaxAdultOccupancy": "4", "MaxChildOccupancy": "2", "MaxChildPayableOccupancy": "1", "Quantity": "2",
        "NonSmoking": "1", "SizeMeasurement": "90", "SizeMeasurementUnit": "sqm", "MaximumAdditionalGuests": "1",
        "MaxCribs": "1", "MaxRollaways": "1", "Active": "1"}
    assert [(s["SubRoom"], s["RoomType"], s["MaxGuests"], s["Number"]) for s in _state(sandbox, "subrooms")
            if s["InvCode"] == inv] == [("1", "Bedroom", "2", ""), ("2", "Bedroom", "2", ""), ("3", "Bathroom", "", "2")]
    assert sorted((a["SubRoom"], a["AmenityCode"], a["Quantity"]) for a in _state(sandbox, "amenities")
                  if a["InvCode"] == inv) == [("", "2", ""), ("", "59", ""), ("1", "58", "1"), ("2", "113", "2")]
    # the read gives what the platform publishes, each fact in its column; the rest is unknown, not empty
    back = fetch_rooms(sandbox.settings, [1000005])
    room = back.rooms[back.rooms["inv_code"] == inv].iloc[0]
    cols = ["room_type", "room_name", "max_occupancy", "max_adult_occupancy", "max_child_occupancy",
            "max_child_payable_occupancy", "non_smoking", "maximum_additional_guests", "max_cribs", "max_rollaways"]
    assert room[cols].tolist() == ["Chalet", "Family Chalet", 6, 4, 2, 1, 1, 1, 1, 1]
    assert back.unknown_facts(1000005, inv) == {"room_id", "size_measurement", "size_measurement_unit", "quantity",
                                                "subrooms"}
    mine = back.amenities[back.amenities["inv_code"] == inv]
    assert sorted(mine["amenity_code"].tolist()) == [2, 59] and mine["subroom"].isna().all()
    # the fetched workbook leaves the unknown facts blank, says why, and reads back the same
    out = write_rooms_workbook(back, tmp_path / "fetched.xlsx")
    again = check_rooms(out)
    assert again.ok and again.issues.empty
    row = again.rooms[again.rooms["inv_code"] == inv].iloc[0]
    assert row[cols].tolist() == room[cols].tolist() and row["active"] == 1
    assert pd.isna(row["room_id"]) and pd.isna(row["size_measurement"]) and pd.isna(row["subroom_count"])
    from openpyxl import load_workbook
    wb = load_workbook(out)
    assert wb.sheetnames == ["Rooms", "SubRooms", "Amenities", "About"]
    headers = {c.value: c for c in wb["Rooms"][1]}
    assert "does not send RoomID" in headers["RoomID"].comment.text and headers["MaxOccupancy"].comment is None
    about = "\n".join(str(r[0]) for r in wb["About"].iter_rows(values_only=True) if r[0])
    assert "Sub-rooms and their beds" in about and "SizeMeasurement (" in about


def test_sandbox_overlaying_one_amenity_leaves_every_other_stored_fact_unchanged(sandbox, write_xlsx) -> None:
    before = {k: _state(sandbox, k) for k in ("rooms", "subrooms", "amenities")}
    check = check_rooms(write_xlsx({"Amenities": [AMEN, [1000004, "402", None, None, 69, None, None]]}))
    result = push_rooms(check, sandbox.settings)
    assert result.ok and result.results["parts"].tolist() == ["Amenities"]
    after = {k: _state(sandbox, k) for k in ("rooms", "subrooms", "amenities")}
    assert after["rooms"] == before["rooms"] and after["subrooms"] == before["subrooms"]
    added = [r for r in after["amenities"] if r not in before["amenities"]]
    gone = [r for r in before["amenities"] if r not in after["amenities"]]
    assert gone == [] and len(added) == 1 and "69" in added[0].values()


def test_cli_validate_push_dry_run_and_fetch(sandbox, tmp_path) -> None:
    from workbench.paths import SAMPLES

    runner = CliRunner()
    res = runner.invoke(app, ["validate", "rooms", str(SAMPLES / "rooms.xlsx"), "--report",
                              str(tmp_path / "issues.csv")])
    assert res.exit_code == 1 and "17 errors, 3 warnings" in res.output
    assert len(pd.read_csv(tmp_path / "issues.csv")) == 20
    env = str(sandbox.connection_file)
    res = runner.invoke(app, ["fetch", "rooms", "--hotel", "1000001", "--out", str(tmp_path / "f.xlsx"),
                              "--env-file", env])
    assert res.exit_code == 0, res.output
    assert "Standard Double Room" in res.output
    assert "Not in the platform's read" in res.output and "RoomID" in res.output
    res = runner.invoke(app, ["push", "rooms", str(tmp_path / "f.xlsx"), "--dry-run", str(tmp_path / "dry"),
                              "--env-file", env])
    assert res.exit_code == 0, res.output
    assert pd.read_csv(tmp_path / "dry" / "manifest.csv").empty  # the platform's own state: nothing to change
    assert pd.read_csv(tmp_path / "dry" / "parts.csv").empty
    from openpyxl import load_workbook
    wb = load_workbook(tmp_path / "f.xlsx")
    ws = wb["Rooms"]
    col = {c.value: c.column for c in ws[1]}
    row = next(r[0].row for r in ws.iter_rows(min_row=2) if r[col["InvCode"] - 1].value == "101")
    ws.cell(row=row, column=col["MaxOccupancy"], value=2)
    wb.save(tmp_path / "g.xlsx")
    res = runner.invoke(app, ["push", "rooms", str(tmp_path / "g.xlsx"), "--dry-run", str(tmp_path / "dry"),
                              "--env-file", env])
    assert res.exit_code == 0, res.output
    parts = pd.read_csv(tmp_path / "dry" / "parts.csv")
    assert parts[["inv_code", "part", "before", "after"]].values.tolist() == [
        [101, "Occupancy", "MaxOccupancy=3, MaxAdultOccupancy=2, MaxChildOccupancy=1",
         "MaxOccupancy=2, MaxAdultOccupancy=2, MaxChildOccupancy=1"]]
    assert "Occupancy (the whole part): MaxOccupancy=3" in res.output and "->" in res.output
    ws.cell(row=row, column=col["NonSmoking"], value=0)  # the Room part: RoomID, size and units are unknown
    wb.save(tmp_path / "h.xlsx")
    res = runner.invoke(app, ["push", "rooms", str(tmp_path / "h.xlsx"), "--dry-run", str(tmp_path / "dry"),
                              "--env-file", env])
    assert res.exit_code == 1 and "part_incomplete" in res.output and "Traceback" not in res.output
    res = runner.invoke(app, ["validate", "rooms", str(tmp_path / "missing.xlsx")])
    assert res.exit_code == 2 and "does not exist" in res.output


def _apartment(write_xlsx, name: str, room_id: int, whole: bool = True) -> object:
    """A new apartment, the way an analyst fills a workbook to create one; ``whole``: with SubRoomCount and the
    Room part's size and units (the sub-rooms and the Room part stated whole)."""
    rooms = ROOMS + ["SubRoomCount", "SizeMeasurement", "SizeMeasurementUnit", "Quantity"]
    stated = [2, 50, "sqm", 1] if whole else [None, None, None, None]
    return write_xlsx({"Rooms": [rooms, [1000005, None, room_id, "Apartment", f"Loft {room_id}", 4, 4, 2, 1, *stated]],
                       "SubRooms": [SUBS, [1000005, None, room_id, "Bedroom 1", "Bedroom", 2, None],
                                    [1000005, None, room_id, "Bathroom 1", "Bathroom", None, 1]],
                       "Amenities": [AMEN, [1000005, None, room_id, None, 59, None, None],
                                     [1000005, None, room_id, "Bedroom 1", 58, 1, None]]}, name=name)


@pytest.mark.parametrize(("second", "whole"), [("same workbook", True), ("filled copy", True),
                                               ("filled copy", False)])
def test_sandbox_a_second_push_of_a_new_apartment_keeps_its_sub_rooms_and_beds(sandbox, write_xlsx, tmp_path,
                                                                                second, whole) -> None:
    """Issue 22: the second push (the room type now known by the mapping, the read without sub-rooms) sent an
    empty `<SubRooms/>`, and the platform replaced the sub-rooms and their beds with nothing; the filled copy
    without SubRoomCount was refused (part_incomplete) although nothing changed."""
    room_id = {("same workbook", True): 5301, ("filled copy", True): 5302, ("filled copy", False): 5303}[
        (second, whole)]
    path = _apartment(write_xlsx, f"apartment-{room_id}.xlsx", room_id, whole)
    first = push_rooms(check_rooms(path), sandbox.settings, mapping=tmp_path / "map.csv",
                       workbook_copy=tmp_path / "filled.xlsx")
    assert first.ok, first.results
    inv = first.mapping["inv_code"].iloc[0]

    def stored() -> tuple[list, list]:
        return ([s for s in _state(sandbox, "subrooms") if s["InvCode"] == inv],
                [a for a in _state(sandbox, "amenities") if a["InvCode"] == inv and a["SubRoom"]])
    before = stored()
    assert [s["RoomType"] for s in before[0]] == ["Bedroom", "Bathroom"] and len(before[1]) == 1
    again = push_rooms(check_rooms(path if second == "same workbook" else tmp_path / "filled.xlsx"),
                       sandbox.settings, mapping=tmp_path / "map.csv")
    assert again.ok, again.plan.issues
    assert stored() == before
    assert all(r.message.subrooms != () for r in again.plan.requests)  # never an empty SubRooms
    if not whole:  # the journal knows what the first push sent: nothing changed, nothing is sent
        assert again.results.empty and again.plan.issues.empty
        # from another journal nothing can be compared: nothing is sent, and the analyst is told what to fill in
        blind = push_rooms(check_rooms(tmp_path / "filled.xlsx"), sandbox.settings, mapping=tmp_path / "map.csv",
                           journal=tmp_path / "other-journal.sqlite")
        assert blind.results.empty and stored() == before
        assert set(blind.plan.issues["rule"]) == {"part_not_compared"}
        assert (blind.plan.issues["severity"] == "warning").all()
