"""Benchmark the notification endpoints on this machine (issue 5).

Starts the receiver as its own process (``python -m workbench.notify serve``, HTTPS on
loopback, SQLite in WAL mode with a fsync at every commit unless told otherwise) and measures:

* notifications stored durably per second - every 200 is sent after its commit - driven by a
  lean keep-alive HTTPS client (raw asyncio streams), so the client's cost does not hide the
  server's; reference in the same run: GET /.well-known/jwks.json (the same HTTP/TLS stack with
  no authentication and no database), reported as a ratio;
* the same through the CNS stand-in (httpx), i.e. what one Python sender achieves;
* access tokens issued per second (POST /oauth/token, rate limit turned off);
* in-process: RS256 sign and verify time per token.

Each figure is the median of --runs runs. Usage:

    .venv/bin/python benchmarks/bench_notify.py [--runs 5] [--count 3000] [--database-url postgresql://...]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from workbench.config import Secret  # noqa: E402
from workbench.notify import NotifyService  # noqa: E402
from workbench.notify.keys import KeyRing  # noqa: E402
from workbench.notify.tokens import TokenService  # noqa: E402
from workbench.sandbox.cns import CnsClient, CnsConfig, notification  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Receiver:
    def __init__(self, state: Path, database_url: str | None, toml: str) -> None:
        state.mkdir(parents=True, exist_ok=True)
        (state / "notify.toml").write_text(toml)
        with NotifyService(state, database_url=database_url) as svc:
            self.creds = svc.credentials.create()
        self.port = free_port()
        cmd = [sys.executable, "-m", "workbench.notify", "serve", "--state-dir", str(state), "--port", str(self.port)]
        if database_url:
            cmd += ["--database-url", database_url]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                self.ctx = ssl.create_default_context(cafile=str(state / "tls" / "ca.pem"))
                if httpx.get(f"https://127.0.0.1:{self.port}/health", verify=self.ctx, timeout=1).status_code == 200:
                    return
            except (httpx.HTTPError, OSError):
                time.sleep(0.1)
        raise RuntimeError("receiver did not start")

    def token(self) -> str:
        r = httpx.post(f"https://127.0.0.1:{self.port}/oauth/token", verify=self.ctx, data={
            "grant_type": "client_credentials", "client_id": self.creds.client_id, "client_secret": self.creds.secret})
        return r.json()["access_token"]

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)


async def lean_load(port: int, ctx: ssl.SSLContext, requests: list[bytes], concurrency: int) -> tuple[float, dict]:
    """Send pre-built HTTP/1.1 requests over ``concurrency`` keep-alive TLS connections."""
    cursor = iter(range(len(requests)))
    statuses: dict[int, int] = {}

    async def worker() -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, ssl=ctx)
        for i in cursor:
            writer.write(requests[i])
            status = int((await reader.readline()).split()[1])
            length = 0
            while (line := await reader.readline()) not in (b"\r\n", b""):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            await reader.readexactly(length)
            statuses[status] = statuses.get(status, 0) + 1
        writer.close()

    t0 = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return time.perf_counter() - t0, statuses


def post(path: str, body: bytes, content_type: str, token: str | None = None) -> bytes:
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    return (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {content_type}\r\n{auth}"
            f"Content-Length: {len(body)}\r\n\r\n").encode() + body


def rate(r: Receiver, requests: list[bytes], concurrency: int) -> float:
    elapsed, statuses = asyncio.run(lean_load(r.port, r.ctx, requests, concurrency))
    if set(statuses) != {200}:
        raise RuntimeError(f"unexpected answers: {statuses}")
    return len(requests) / elapsed


def bench_receiver(label: str, database_url: str | None, toml: str, args: argparse.Namespace) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        r = Receiver(Path(tmp) / "state", database_url, toml)
        try:
            token = r.token()
            serial = itertools.count()
            stored, reference = [], []
            for _ in range(args.runs):
                reqs = [post("/notifications", json.dumps(notification("PAYOUT_UPDATE", {
                    "n": next(serial), "amount": "12.50"})).encode(), "application/json", token)
                    for _ in range(args.count)]
                stored.append(rate(r, reqs, args.concurrency))
                ref = [b"GET /.well-known/jwks.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"] * args.count
                reference.append(rate(r, ref, args.concurrency))
            dup = [post("/notifications", json.dumps(notification("A", {}, uuid="same")).encode(),
                        "application/json", token)] * args.count
            duplicates = statistics.median(rate(r, dup, args.concurrency) for _ in range(args.runs))
            form = (f"grant_type=client_credentials&client_id={r.creds.client_id}"
                    f"&client_secret={r.creds.secret}").encode()
            tok_reqs = [post("/oauth/token", form, "application/x-www-form-urlencoded")] * args.tokens
            tokens = statistics.median(rate(r, tok_reqs, 8) for _ in range(args.runs))
            cns = []
            config = CnsConfig(f"https://127.0.0.1:{r.port}/oauth/token", f"https://127.0.0.1:{r.port}/notifications",
                               r.creds.client_id, Secret(r.creds.secret), str(Path(tmp) / "state/tls/ca.pem"))
            for _ in range(max(1, args.runs // 2)):
                envs = [notification("PAYOUT_UPDATE", {"n": next(serial)}) for _ in range(args.count // 2)]
                t0 = time.perf_counter()
                results = CnsClient.deliver_all(config, envs, concurrency=8)
                cns.append(len(envs) / (time.perf_counter() - t0))
                assert all(x.delivered for x in results)
        finally:
            r.stop()
    med, ref = statistics.median(stored), statistics.median(reference)
    return {"label": label, "stored_per_s": med, "runs": [round(x) for x in stored], "reference_per_s": ref,
            "ratio": med / ref, "duplicates_per_s": duplicates, "tokens_per_s": tokens,
            "cns_standin_per_s": statistics.median(cns)}


def bench_crypto(runs: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        service = TokenService(KeyRing(Path(tmp) / "keys"), "workbench-notify")
        token = service.issue("c").access_token
        sign, verify = [], []
        for _ in range(runs):
            t0 = time.perf_counter()
            for _ in range(200):
                service.issue("c")
            sign.append((time.perf_counter() - t0) / 200 * 1e6)
            t0 = time.perf_counter()
            for _ in range(2000):
                service.verify(token)
            verify.append((time.perf_counter() - t0) / 2000 * 1e6)
    return {"sign_us": statistics.median(sign), "verify_us": statistics.median(verify)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--count", type=int, default=3000, help="notifications per run")
    ap.add_argument("--tokens", type=int, default=300, help="token requests per run")
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--database-url", help="also benchmark this PostgreSQL database")
    args = ap.parse_args()
    open_limit = '[tokens]\nrequests_per_minute = 0\n[request_to_book]\ncheck_interval_seconds = 0\n'
    rows = [bench_receiver("SQLite WAL, synchronous=FULL (default)", None, open_limit, args),
            bench_receiver("SQLite WAL, synchronous=NORMAL", None,
                           open_limit + '[receiver]\nsqlite_synchronous = "NORMAL"\n', args)]
    if args.database_url:
        rows.append(bench_receiver("PostgreSQL (synchronous_commit on)", args.database_url, open_limit, args))
    crypto = bench_crypto(args.runs)
    print(f"{'store':42} {'stored/s':>9} {'jwks ref/s':>10} {'ratio':>6} {'dup/s':>7} {'tokens/s':>9} {'CNS/s':>7}")
    for row in rows:
        print(f"{row['label']:42} {row['stored_per_s']:9.0f} {row['reference_per_s']:10.0f} {row['ratio']:6.2f} "
              f"{row['duplicates_per_s']:7.0f} {row['tokens_per_s']:9.0f} {row['cns_standin_per_s']:7.0f}   "
              f"runs {row['runs']}")
    print(f"RS256 in-process: sign {crypto['sign_us']:.0f} us, verify {crypto['verify_us']:.0f} us per token")


if __name__ == "__main__":
    main()
