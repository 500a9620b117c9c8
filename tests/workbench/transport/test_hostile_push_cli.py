"""``workbench push rates`` against hostile answers: the push ends with exit 1 and the failed answer
named in its summary (it used to die with exit 3 on a lying encoding, or never end on a trickle)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from tests.workbench.transport.hostile_server import Answer, gzip_bomb, says_gzip_but_is_not, trickle

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.slow
@pytest.mark.parametrize("answer,settings,said", [
    (says_gzip_but_is_not(), "", "answer says gzip but is not gzip"),
    (gzip_bomb(256 << 20), "WORKBENCH_MAX_ANSWER_BYTES=1048576", "answer larger than 1 MiB after decoding"),
    (trickle(0.1), "WORKBENCH_TIMEOUT_SECONDS=5\nWORKBENCH_REQUEST_DEADLINE_SECONDS=1", "answer not finished within 1 s"),
], ids=["says-gzip", "gzip-bomb", "trickle"])
def test_a_push_meeting_hostile_answers_ends_with_exit_1_and_says_why(serve, tmp_path, answer: Answer, settings, said):
    sheet = tmp_path / "rates.csv"
    pd.DataFrame({"HotelCode": 1000001, "InvTypeCode": "101", "RatePlanCode": "5001",
                  "Date": ["2027-03-01", "2027-03-02"], "AmountAfterTax": ["100.00", "110.00"],
                  "CurrencyCode": "EUR"}).to_csv(sheet, index=False)
    server = serve(answer)
    env = tmp_path / "connection.env"
    env.write_text(f"WORKBENCH_BASE_URL={server.url}\nWORKBENCH_CA_BUNDLE={server.certificates.ca_pem}\n"
                   f"WORKBENCH_USERNAME=machine\nWORKBENCH_PASSWORD=pw\n{settings}\n", encoding="utf-8")
    done = subprocess.run([str(Path(sys.executable).with_name("workbench")), "push", "rates", str(sheet),
                           "--env-file", str(env), "--no-fetch-registry", "--as-of", "2026-12-01",
                           "--journal", str(tmp_path / "journal.sqlite")],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200", "NO_COLOR": "1"})
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"1000001 2027-03: failed, {said} (HTTP 200" in " ".join(done.stdout.split())
    assert "Traceback" not in done.stdout + done.stderr
    assert server.requests == 6  # a rate update may be resent: every attempt the policy allows
