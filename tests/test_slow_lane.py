"""The measured slow list: durations parsed and summed per test, written above the threshold only."""

from __future__ import annotations

import importlib.util
from pathlib import Path

SPEC = importlib.util.spec_from_file_location("slow_lane", Path(__file__).with_name("slow_lane.py"))
assert SPEC is not None and SPEC.loader is not None
slow_lane = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(slow_lane)

LOG = """
============================= slowest durations ==============================
12.50s call     tests/a_test.py::test_big[x-1]
0.40s setup    tests/a_test.py::test_big[x-1]
0.30s call     tests/b_test.py::test_small
0.30s teardown tests/b_test.py::test_small
0.10s call     tests/c_test.py::test_tiny
(7697 durations < 0.005s hidden.  Use -vv to show these durations.)
"""


def test_setup_call_and_teardown_add_up_per_test() -> None:
    assert slow_lane.measured(LOG) == {"tests/a_test.py::test_big[x-1]": 12.9, "tests/b_test.py::test_small": 0.6,
                                       "tests/c_test.py::test_tiny": 0.1}


def test_only_tests_at_the_threshold_are_listed_slowest_first(tmp_path: Path) -> None:
    out = tmp_path / "slow.txt"
    assert slow_lane.write_list(slow_lane.measured(LOG), out, threshold=0.5) == 2
    lines = [line.split() for line in out.read_text().splitlines() if not line.startswith("#")]
    assert lines == [["12.90", "tests/a_test.py::test_big[x-1]"], ["0.60", "tests/b_test.py::test_small"]]
