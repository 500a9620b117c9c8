"""``keep_freed_memory``: after it, a freed array's memory is reused without page faults, and Arrow
allocates from the same heap; switched off, nothing changes. Each case runs in its own process (the
settings last for the process)."""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(platform.system() != "Linux" or platform.libc_ver()[0] != "glibc",
                                reason="glibc's mallopt: Linux only")

PROBE = """
import json, resource
import numpy as np
import pyarrow as pa
from workbench.memory import keep_freed_memory

applied = keep_freed_memory()
faults = []
for _ in range(5):  # columns of a million rows made and freed again and again, as the loaders do
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    columns = [np.ones(n) for n in (1_000_000, 250_000, 2_000_000, 500_000, 1_000_000)]
    text = pa.array(["EUR"] * 200_000)
    del columns, text
    faults.append(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
print(json.dumps({"applied": applied, "pool": pa.default_memory_pool().backend_name, "faults": faults[1:]}))
"""


def _probe(**env: str) -> dict:
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True,
                          env={**os.environ, **env})
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_freed_memory_is_reused_without_faulting_it_in_again() -> None:
    on = _probe(WORKBENCH_MALLOC_TUNING="1")
    assert on["applied"] and on["pool"] == "system"
    assert max(on["faults"]) < 500  # the heap's pages, already there (~37 MB made each time)
    off = _probe(WORKBENCH_MALLOC_TUNING="0")
    assert not off["applied"] and off["pool"] != "system"
    assert min(off["faults"]) > 2000  # mapped and faulted in anew each time (~9,000 pages made)


BIG = """
import json, resource
from workbench.memory import keep_freed_memory

applied = keep_freed_memory()
faults = []
for _ in range(4):  # blocks past glibc's largest mmap threshold (32 MiB), as a reader's cell buffers are
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    block = bytearray(48_000_000)  # malloc's (numpy would ask for huge pages itself)
    block[::4096] = bytes(len(range(0, 48_000_000, 4096)))  # every page written
    del block
    faults.append(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
print(json.dumps({"applied": applied, "faults": faults[1:]}))
"""


def test_blocks_past_32_mib_are_reused_too() -> None:
    done = subprocess.run([sys.executable, "-c", BIG], capture_output=True, text=True, check=True,
                          env={**os.environ, "WORKBENCH_MALLOC_TUNING": "1"})
    on = json.loads(done.stdout.strip().splitlines()[-1])
    assert on["applied"]
    assert max(on["faults"]) < 500  # the heap's pages again, not 11,700 new ones each time


def test_fewer_collections_raises_the_threshold_unless_switched_off() -> None:
    probe = ("import gc, json; from workbench.memory import fewer_collections; fewer_collections(); "
             "print(json.dumps([gc.get_threshold()[0], gc.get_freeze_count() > 0]))")
    for setting, expected in (("1", [50_000, True]), ("0", [700, False])):
        done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                              env={**os.environ, "WORKBENCH_MALLOC_TUNING": setting})
        assert json.loads(done.stdout) == expected


def test_the_command_line_starts_collecting_less_and_servers_go_back_to_pythons_thresholds() -> None:
    probe = ("import gc, json; before = gc.get_threshold(); import workbench.cli; starting = gc.get_threshold(); "
             "from workbench.memory import serving; serving(); "
             "print(json.dumps([before, starting, gc.get_threshold()]))")
    for setting, starting in (("1", [50_000, 20, 20]), ("0", [700, 10, 10])):
        done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                              env={**os.environ, "WORKBENCH_MALLOC_TUNING": setting})
        before, during, served = json.loads(done.stdout)
        assert before == [700, 10, 10]
        assert during == starting
        assert served == before


def test_a_batch_process_keeps_its_own_settings_when_a_server_starts_in_it() -> None:
    probe = ("import gc, json; from workbench.memory import batch_process, serving; batch_process(); serving(); "
             "print(json.dumps(gc.get_threshold()))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                          env={**os.environ, "WORKBENCH_MALLOC_TUNING": "1"})
    assert json.loads(done.stdout) == [50_000, 20, 20]
