"""The fast lane (``pytest -m "not slow"``): which tests are slow is measured, not guessed.

Tests that start real processes, clusters, browsers or load are marked ``@pytest.mark.slow`` where they
are written. Beside them, ``tests/slow_tests.txt`` lists the tests whose measured time (setup, call and
teardown; a whole run of the suite with ``--durations=0``) is at least :data:`THRESHOLD` seconds, and
``conftest.py`` marks those slow too. After the suite changes, measure again and rewrite the list:

    .venv/bin/python -m pytest -q -p no:randomly --durations=0 > /tmp/durations.log
    .venv/bin/python tests/slow_lane.py /tmp/durations.log [/tmp/more-durations.log ...]

(several logs: each test's longest measured time counts, e.g. a whole run and a serial run of the fast lane).

A test the list does not know (a new one) runs in the fast lane until the list is measured again.
"""

from __future__ import annotations

import re
import sys
from collections import defaultdict
from pathlib import Path

LIST = Path(__file__).with_name("slow_tests.txt")
THRESHOLD = 0.25  # seconds: what the fast lane leaves out (a serial run of the fast lane: about 3 minutes here)
_LINE = re.compile(r"^(\d+(?:\.\d+)?)s (?:call|setup|teardown)\s+(\S.*)$")


def measured(log: str) -> dict[str, float]:
    """Seconds per test id from pytest's ``--durations`` lines (setup, call and teardown added up)."""
    times: dict[str, float] = defaultdict(float)
    for line in log.splitlines():
        if m := _LINE.match(line.strip()):
            times[m.group(2).strip()] += float(m.group(1))
    return dict(times)


def write_list(times: dict[str, float], path: Path = LIST, threshold: float = THRESHOLD) -> int:
    slow = sorted(((s, t) for t, s in times.items() if s >= threshold), reverse=True)
    head = (f"# tests measured at >= {threshold} s (tests/slow_lane.py): marked slow, left out of "
            f"`pytest -m \"not slow\"`\n")
    path.write_text(head + "".join(f"{s:8.2f}  {t}\n" for s, t in slow), encoding="utf-8")
    return len(slow)


if __name__ == "__main__":
    longest: dict[str, float] = {}
    for log in sys.argv[1:]:
        for test, seconds in measured(Path(log).read_text(encoding="utf-8")).items():
            longest[test] = max(seconds, longest.get(test, 0.0))
    count = write_list(longest)
    print(f"{count} tests at >= {THRESHOLD} s written to {LIST}")
