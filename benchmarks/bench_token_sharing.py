"""Token exchanges of one machine account across processes and Dask workers (issue 21's figure).

A sandbox process (`workbench sandbox serve`, default mode: tokens) with a token lifetime set short
stands in for the platform's hour. For `--duration` seconds, rounds run back to back; each round
runs at the same time `push rates --engine dask --workers 2 --dry-run` (the client process and its
two workers read rooms and rate plans) and a second process, `push rates` (reads, then sends).
The sandbox counts the exchanges (`/_sandbox/requests.csv`, endpoint `token-exchange`).

Two runs in the same invocation: **shared** (connection.env as written: one cache folder for every
process of the account) and the **reference**, each command with a cache folder of its own (what a
per-process token would cost; the Dask workers still share their client's). The floor is one
exchange per token lifetime spanned (renewal comes before the smaller of 5 minutes and a tenth of the
lifetime remains).

    .venv/bin/python benchmarks/bench_token_sharing.py --lifetime 60 --duration 150
"""

from __future__ import annotations

import argparse
import csv
import io
import math
import os
import ssl
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
RATES = ROOT / "data" / "samples" / "rates.xlsx"
DAY = "2026-12-01"


def workbench(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    return subprocess.run([sys.executable, "-m", "workbench.cli", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=900)


def serve(state: Path, lifetime: float) -> tuple[subprocess.Popen[str], Path]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "workbench.cli", "sandbox", "serve", "--state-dir", str(state),
                             "--port", "0", "--today", DAY, "--token-lifetime", f"{lifetime:g}"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True)
    conn = state / "connection.env"
    while not (conn.is_file() and "WORKBENCH_AUTH_URL" in conn.read_text()):
        if proc.poll() is not None:
            raise SystemExit("the sandbox did not start")
        time.sleep(0.1)
    time.sleep(0.3)
    return proc, conn


def with_cache(conn: Path, folder: Path, name: str) -> Path:
    """A copy of connection.env whose token cache is ``folder`` (the reference: a cache per command)."""
    lines = [ln for ln in conn.read_text().splitlines() if not ln.startswith("WORKBENCH_TOKEN_CACHE=")]
    out = conn.with_name(name)
    out.write_text("\n".join([*lines, f"WORKBENCH_TOKEN_CACHE={folder}"]) + "\n")
    return out


def log(conn: Path) -> list[dict[str, str]]:
    values = dict(ln.split("=", 1) for ln in conn.read_text().splitlines() if "=" in ln and not ln.startswith("#"))
    ctx = ssl.create_default_context(cafile=values["WORKBENCH_CA_BUNDLE"])
    text = httpx.get(values["WORKBENCH_BASE_URL"] + "/_sandbox/requests.csv", verify=ctx, timeout=30).text
    return list(csv.DictReader(io.StringIO(text)))


def run(mode: str, lifetime: float, duration: float, work: Path) -> dict[str, object]:
    state = work / f"sb-{mode}"
    proc, conn = serve(state, lifetime)
    started, rounds, commands, failures = time.time(), 0, 0, 0
    try:
        with ThreadPoolExecutor(2) as pool:
            while time.time() - started < duration:
                rounds += 1
                envs = [conn, conn] if mode == "shared" else [
                    with_cache(conn, work / f"cache-{mode}-{rounds}-{i}", f"c-{rounds}-{i}.env") for i in (0, 1)]
                dask = pool.submit(workbench, "push", "rates", str(RATES), "--engine", "dask", "--workers", "2",
                                   "--dry-run", str(work / f"out-{mode}-{rounds}"), "--skip-invalid", "--as-of", DAY,
                                   "--env-file", str(envs[0]), cwd=work)
                push = pool.submit(workbench, "push", "rates", str(RATES), "--skip-invalid", "--as-of", DAY, "--full",
                                   "--journal", str(work / f"j-{mode}.sqlite"), "--env-file", str(envs[1]), cwd=work)
                for done in (dask.result(), push.result()):
                    commands += 1
                    failures += done.returncode not in (0, 1)
        calls = log(conn)
    finally:
        proc.terminate()
        proc.wait(20)
    exchanges = [r for r in calls if r["endpoint"] == "token-exchange"]
    platform = [r for r in calls if r["endpoint"] != "token-exchange"]
    spanned = math.ceil((time.time() - started) / (lifetime * 0.9))
    return {"mode": mode, "rounds": rounds, "commands": commands, "failed commands": failures,
            "calls authenticated": len(platform), "401": sum(r["status"] == "401" for r in platform),
            "roomrates reads": sum(r["endpoint"] == "roomrates" for r in platform),
            "exchanges": len(exchanges), "lifetimes spanned": spanned, "seconds": round(time.time() - started)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lifetime", type=float, default=60.0, help="the sandbox's token lifetime, seconds")
    parser.add_argument("--duration", type=float, default=150.0, help="seconds of rounds per mode")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-tokens-") as tmp:
        rows = [run(mode, args.lifetime, args.duration, Path(tmp)) for mode in ("shared", "per-command")]
    keys = list(rows[0])
    print("| " + " | ".join(keys) + " |")
    print("|" + "---|" * len(keys))
    for r in rows:
        print("| " + " | ".join(str(r[k]) for k in keys) + " |")
    shared, reference = rows
    print(f"\nexchanges, shared / per-command: {shared['exchanges']} / {reference['exchanges']} = "
          f"{int(shared['exchanges']) / max(1, int(reference['exchanges'])):.2f}x")


if __name__ == "__main__":
    main()
