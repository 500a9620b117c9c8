"""``workbench.reports`` loads its writers on first use: the path comparisons every command makes before any work
(``workbench.reports.output_files``) do not import the report writers, and every name of the face still works."""

from __future__ import annotations

import subprocess
import sys

import workbench.reports as reports
from workbench.reports.push import NothingSent, write_push_report
from workbench.reports.validation import ReportContext


def test_output_files_leave_the_writers_unloaded() -> None:
    code = ("import sys, workbench.reports.output_files; "
            "print(sorted(m for m in ('workbench.reports.push', 'workbench.reports.validation', "
            "'workbench.reports.tables', 'workbench.writers.push') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_every_name_of_the_face_resolves() -> None:
    assert reports.NothingSent is NothingSent and reports.write_push_report is write_push_report
    assert reports.ReportContext is ReportContext
    for name in reports.__all__:
        assert callable(getattr(reports, name)), name
    assert set(reports.__all__) <= set(dir(reports))
