"""`workbench notify list / requests / decide / dead-letters` over hostile stored bodies: a body that
cannot be read is one warning line naming it (its row kept), markup and terminal escapes in a body are
shown as text, and nothing crashes."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pandas as pd
from typer.testing import CliRunner

from workbench.cli.notify import notify_app
from workbench.notify import NotifyConfig, NotifyService, RequestToBookConfig
from workbench.notify.store import DeadLetter, Notification

runner = CliRunner()


def cli(*args: str) -> tuple[int, str]:
    result = runner.invoke(notify_app, list(args), env={"COLUMNS": "200"})
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result.exit_code, result.output


def seed(state: Path) -> None:
    now = datetime.now(UTC)
    checkin = (now + timedelta(days=9)).date().isoformat()

    def rtb(uuid: str, rid: str) -> str:
        return json.dumps({"metadata": {"uuid": uuid, "type": "REQUEST_TO_BOOK", "payloadVersion": "1.0"},
                           "payload": {"request_id": rid, "hotel_id": 8, "checkin": checkin}})

    bodies = [
        ("legacy-bom", "REQUEST_TO_BOOK", "\ufeff" + rtb("legacy-bom", "R-OLD")),   # stored by an older version
        ("broken", "REQUEST_TO_BOOK", '{"metadata": {"uuid": "broken"}, "payload": {"request_id": '),
        ("markup", "PAYOUT_UPDATE", json.dumps({"metadata": {"uuid": "markup", "note": "[/bold] \x1b[2J"},
                                                "payload": {"text": "[red]x[/] \x1b]52;c;aGk=\x07"}})),
    ]
    config = NotifyConfig(request_to_book=RequestToBookConfig(check_interval_seconds=0))
    with NotifyService(state, config) as svc:
        for uuid, type_, body in bodies:
            svc.store.save(Notification(uuid, type_, "1.0", now.timestamp(), "cns", body)).result(10)
        svc.store.dead_letter(DeadLetter(now.timestamp(), "cns", "body is not valid JSON", "application/json",
                                         "[/x] \x1b[31m")).result(10)


def test_list_names_an_unreadable_body_and_keeps_every_row(tmp_path: Path) -> None:
    seed(tmp_path / "s")
    code, out = cli("list", "--state-dir", str(tmp_path / "s"), "--out", str(tmp_path / "inbox.csv"))
    assert code == 0, out
    text = " ".join(out.split())
    assert "3 notifications" in text
    assert "WARNING: notification `broken` (type REQUEST_TO_BOOK" in text and "could not be read" in text
    assert "ask the platform to resend it" in text and "legacy-bom` (" not in text  # a mark alone is read
    frame = pd.read_csv(tmp_path / "inbox.csv", encoding="utf-8-sig")
    assert frame["uuid"].tolist() == ["legacy-bom", "broken", "markup"]
    assert json.loads(frame["payload"][0])["request_id"] == "R-OLD" and pd.isna(frame["payload"][1])


def test_markup_and_terminal_escapes_in_a_body_are_printed_as_text(tmp_path: Path) -> None:
    seed(tmp_path / "s")
    code, out = cli("list", "--state-dir", str(tmp_path / "s"))
    assert code == 0 and "\x1b" not in out and '"[red]x[/]' in out
    code, out = cli("dead-letters", "--state-dir", str(tmp_path / "s"))
    assert code == 0 and "1 dead letters" in out and "\x1b" not in out and "[/x] \\x1b[31m" in out


def test_requests_and_decisions_go_on_around_an_unreadable_request(tmp_path: Path) -> None:
    seed(tmp_path / "s")
    code, out = cli("requests", "--state-dir", str(tmp_path / "s"), "--out", str(tmp_path / "open.csv"))
    assert code == 0, out
    text = " ".join(out.split())
    assert "R-OLD" in text and "WARNING: notification `broken`" in text
    frame = pd.read_csv(tmp_path / "open.csv", encoding="utf-8-sig").set_index("request_id")
    assert frame.loc["R-OLD", "hotel_id"] == 8 and frame.loc["broken", "state"] == "awaiting_partner_decision"
    code, out = cli("decide", "R-OLD", "accept", "--state-dir", str(tmp_path / "s"))
    assert code == 0 and "now awaiting_guest_confirmation" in out
    code, out = cli("decide", "broken", "decline", "--state-dir", str(tmp_path / "s"))
    assert code == 0 and "now declined" in out
