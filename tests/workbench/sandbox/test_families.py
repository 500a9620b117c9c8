"""Operation families: a JSON family in the shape of the platform's modular APIs (method + path
pattern + JSON body + the JSON envelope), registered here in the test, served through the same
pipeline as the XML operations; families may not share endpoints; the request log's method and path."""

from __future__ import annotations

import csv
import io
import json
import sqlite3

import pytest

from workbench.sandbox import SandboxConfig, create_app
from workbench.sandbox.platform.calls import Call, Family, PlatformState, Reply
from workbench.sandbox.platform.endpoints import json_api
from workbench.sandbox.platform.issues import Issue
from workbench.sandbox.platform.protocol import json_body
from workbench.sandbox.platform.store import Store
from workbench.sandbox.testing import INV_NOTIF_PATH, InProcess, inv_notif_request, product

JSON_HEADERS = {"Content-Type": "application/json"}
NOTE = "/notes-api/properties/{propertyId}/note"


class Notes:
    """The test family's own state: one note per property, in a table of the sandbox's database."""

    def __init__(self, store: Store) -> None:
        self.store = store
        with store.locked() as db:
            db.execute("CREATE TABLE IF NOT EXISTS test_notes (property_id TEXT PRIMARY KEY, text TEXT)")

    def get(self, property_id: str) -> str | None:
        with self.store.locked() as db:
            row = db.execute("SELECT text FROM test_notes WHERE property_id = ?", (property_id,)).fetchone()
        return row[0] if row else None

    def put(self, property_id: str, text: str) -> None:
        with self.store.locked() as db:
            db.execute("INSERT OR REPLACE INTO test_notes VALUES (?, ?)", (property_id, text))

    def delete(self, property_id: str) -> bool:
        with self.store.locked() as db:
            return db.execute("DELETE FROM test_notes WHERE property_id = ?", (property_id,)).rowcount > 0


def _answer(call: Call, data: object = None, status: int = 200, *errors: Issue) -> Reply:
    return Reply(status, json_body(call.ruid, data, errors=errors), "errors" if errors else "success")


def _missing(call: Call) -> Reply:
    return _answer(call, None, 404, Issue("394", f"no note for property {call.path_params['propertyId']}"))


async def read(sb: PlatformState, call: Call) -> Reply:
    text = sb.own(Notes).get(call.path_params["propertyId"])
    if text is None:
        return _missing(call)
    return _answer(call, {"property_id": call.path_params["propertyId"], "text": text,
                          "language_code": call.query.get("language_code"), "version": call.version})


async def write(sb: PlatformState, call: Call) -> Reply:
    body = call.json if isinstance(call.json, dict) else {}
    if not isinstance(body.get("text"), str) or not body["text"]:
        return _answer(call, None, 400, Issue("321", "required field missing", "text is required", "text"))
    sb.own(Notes).put(call.path_params["propertyId"], body["text"])
    return _answer(call, {"property_id": call.path_params["propertyId"], "method": call.method})


async def delete(sb: PlatformState, call: Call) -> Reply:
    if not sb.own(Notes).delete(call.path_params["propertyId"]):
        return _missing(call)
    return _answer(call, {"deleted": True})


READ, PUT, PATCH, DELETE = (json_api("notes.read", "GET", NOTE), json_api("notes.put", "PUT", NOTE),
                            json_api("notes.patch", "PATCH", NOTE), json_api("notes.delete", "DELETE", NOTE))
NOTES = Family("notes", (READ, PUT, PATCH, DELETE),
               {READ.name: read, PUT.name: write, PATCH.name: write, DELETE.name: delete})


@pytest.fixture
def sb():
    box = InProcess(SandboxConfig(password="pw"), families=[NOTES])
    yield box
    box.close()


def envelope(response) -> dict:
    assert response.headers["content-type"].startswith("application/json")
    data = response.json()
    assert set(data) == {"data", "warnings", "errors", "meta"} and data["meta"]["ruid"]
    return data


def test_a_json_family_is_routed_by_method_and_path_with_its_path_params_and_body(sb):
    path = "/notes-api/properties/8011/note"
    put = sb.request("PUT", path, json.dumps({"text": "Quiet street"}).encode(), JSON_HEADERS)
    assert put.status_code == 200 and envelope(put)["data"] == {"property_id": "8011", "method": "PUT"}
    got = sb.request("GET", path + "?language_code=nl")  # no body, no Content-Type: nothing to check
    assert got.status_code == 200
    assert envelope(got)["data"] == {"property_id": "8011", "text": "Quiet street", "language_code": "nl",
                                     "version": "1.0"}
    patch = sb.request("PATCH", path, json.dumps({"text": "Quiet street, no parking"}).encode(), JSON_HEADERS)
    assert envelope(patch)["data"]["method"] == "PATCH"
    assert envelope(sb.request("GET", path))["data"]["text"] == "Quiet street, no parking"
    assert envelope(sb.request("GET", "/notes-api/properties/8012/note"))["errors"][0]["code"] == "394"
    assert envelope(sb.request("DELETE", path))["data"] == {"deleted": True}
    gone = sb.request("GET", path)
    assert gone.status_code == 404 and envelope(gone)["data"] is None
    assert sb.sandbox.own(Notes) is sb.sandbox.own(Notes)  # the family's state is made once


def test_a_handler_s_issues_come_in_the_envelope(sb):
    bad = sb.request("PUT", "/notes-api/properties/8011/note", b'{"text": ""}', JSON_HEADERS)
    assert bad.status_code == 400
    assert envelope(bad)["errors"] == [{"code": "321", "message": "required field missing",
                                        "description": "text is required", "details": {"fields": ["text"]}}]


NOTE_PATH = "/notes-api/properties/8011/note"


@pytest.mark.parametrize("method,body,headers,auth,status,code", [
    ("GET", b"", {}, None, 401, "401"),  # the pipeline's checks come first, answered in the family's format
    ("GET", b"", {}, ("sandbox", "wrong"), 401, "401"),
    ("PUT", b'{"text": "x"}', {"Content-Type": "application/xml"}, "default", 415, "MISUSE_CONTENT_TYPE"),
    ("PUT", b"<note/>", JSON_HEADERS, "default", 415, "MISUSE_CONTENT_TYPE"),
    ("PUT", b'{"text": "x"}', {"Content-Type": "application/json; charset=latin-1"}, "default", 415,
     "MISUSE_CONTENT_TYPE"),
    ("PUT", b'{"text": ', JSON_HEADERS, "default", 400, "INVALID_JSON"),
    ("PUT", b'{"text": "x"}', {**JSON_HEADERS, "Content-Encoding": "zip"}, "default", 415,
     "MISUSE_CONTENT_ENCODING"),
])
def test_a_json_call_goes_through_the_pipeline(sb, method, body, headers, auth, status, code):
    r = sb.request(method, NOTE_PATH, body, headers, auth=auth)
    assert r.status_code == status and [e["code"] for e in envelope(r)["errors"]] == [code]
    assert sb.requests()[-1]["endpoint"] == {"GET": READ.name, "PUT": PUT.name}[method]


def test_a_method_the_family_does_not_declare_is_not_allowed_in_its_envelope(sb):
    r = sb.request("POST", NOTE_PATH, b"{}", JSON_HEADERS)
    assert r.status_code == 405 and set(r.headers["allow"].split(", ")) >= {"GET", "PUT", "PATCH", "DELETE"}
    assert envelope(r)["errors"][0]["code"] == "405" and "does not take POST" in r.json()["errors"][0]["message"]
    xml = sb.request("GET", INV_NOTIF_PATH)  # the XML operations answer as before
    assert (xml.status_code, xml.text, xml.headers["allow"]) == (405, "Method Not Allowed", "POST")


def test_an_unknown_path_under_a_json_api_is_answered_in_its_envelope(sb):
    r = sb.request("GET", "/notes-api/properties/8011/notes")
    assert r.status_code == 404 and envelope(r)["errors"][0]["code"] == "404"
    assert f"DELETE {NOTE}" in r.json()["errors"][0]["message"]
    xml = sb.request("POST", "/hotels/ota/OTA_HotelNoSuchNotif")
    assert xml.status_code == 404 and xml.headers["content-type"].startswith("application/xml")
    assert b'<fault code="404"' in xml.content


def test_limits_and_faults_apply_to_a_family_by_endpoint_name():
    box = InProcess(SandboxConfig(password="pw", limits={"notes.read": 1}, faults="5xx=1,ops=notes.delete"),
                    families=[NOTES])
    try:
        assert box.request("GET", NOTE_PATH).status_code == 404  # admitted: the handler answers
        limited = box.request("GET", NOTE_PATH)
        assert limited.status_code == 429 and limited.headers["retry-after"]
        assert envelope(limited)["errors"][0]["code"] == "429"
        faulted = box.request("DELETE", NOTE_PATH)
        assert faulted.status_code == 503 and envelope(faulted)["errors"][0]["code"] == "503"
        assert box.sandbox.limits.limits["notes.read"] == 1
    finally:
        box.close()


@pytest.mark.parametrize("clash,needle", [
    (Family("copy", (json_api("notes.read", "GET", "/other-api/x"),)), "endpoint `notes.read`"),
    (Family("copy", (json_api("notes.other", "GET", NOTE),)), f"`GET {NOTE}`"),
    (Family("copy", (json_api("OTA_HotelInvNotif", "POST", "/other-api/x"),)), "family `rooms` already serves"),
])
def test_families_cannot_share_an_endpoint(clash, needle):
    with pytest.raises(ValueError, match="operation family `copy` declares") as info:
        create_app(SandboxConfig(password="pw"), families=[NOTES, clash])
    assert needle in str(info.value)


OLD_COLUMNS = ["time", "endpoint", "status", "ruid", "host", "account", "outcome", "duration_ms"]


def test_the_request_log_gains_method_and_path_last(sb):
    sb.request("PUT", NOTE_PATH, b'{"text": "x"}', JSON_HEADERS)
    sb.request("GET", NOTE_PATH)
    sb.post(INV_NOTIF_PATH, inv_notif_request(1000001, [product("Overlay", "101", name="A")]))
    sb.post("/ota/OTA_HotelInvNotif", b"")  # the short form, logged as called
    text = sb.request("GET", "/_sandbox/requests.csv").text
    assert text.splitlines()[0].split(",") == [*OLD_COLUMNS, "method", "path"]
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [(r["endpoint"], r["method"], r["path"]) for r in rows] == [
        ("notes.put", "PUT", NOTE_PATH), ("notes.read", "GET", NOTE_PATH),
        ("OTA_HotelInvNotif", "POST", INV_NOTIF_PATH), ("OTA_HotelInvNotif", "POST", "/ota/OTA_HotelInvNotif")]


def test_a_state_from_before_the_method_and_path_columns_gains_them(tmp_path):
    with sqlite3.connect(tmp_path / "sandbox.sqlite3") as db:
        db.execute("CREATE TABLE requests (id INTEGER PRIMARY KEY AUTOINCREMENT, time TEXT, endpoint TEXT, "
                   "status INTEGER, ruid TEXT, host TEXT, account TEXT, outcome TEXT, duration_ms REAL)")
        db.execute("INSERT INTO requests (time, endpoint, status, ruid, host, account, outcome, duration_ms) "
                   "VALUES ('2026-01-01T00:00:00', 'roomrates', 200, 'R==', 'h', 'sandbox', 'success', 1.5)")
    db.close()
    box = InProcess(SandboxConfig(state_dir=tmp_path, password="pw"))
    try:
        box.post("/hotels/xml/currencies", b"", {"Content-Type": "application/x-www-form-urlencoded"})
        rows = box.requests()
        assert [(r["endpoint"], r["method"], r["path"]) for r in rows] == [
            ("roomrates", "", ""), ("currencies", "POST", "/hotels/xml/currencies")]
        assert rows[0]["ruid"] == "R==" and rows[0]["duration_ms"] == "1.5"
    finally:
        box.close()
