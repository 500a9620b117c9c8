"""A push report copies every sheet of the analyst's workbook, hidden ones too, which the check
before reading did not see: a sheet past the bounds is left out of the copy, never handed to the
reader (which would abort the process: hence a process of its own)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from tests.loaders import crafted_workbooks as X

ROOT = Path(__file__).resolve().parents[3]
GOOD = '<row r="2"><c r="A2"><v>1000001</v></c><c r="B2" t="inlineStr"><is><t>101</t></is></c>' \
       '<c r="C2" t="inlineStr"><is><t>5001</t></is></c><c r="D2" t="inlineStr"><is><t>2027-03-01</t></is></c>' \
       '<c r="E2"><v>120</v></c><c r="F2" t="inlineStr"><is><t>EUR</t></is></c></row>'
STRAY = '<row r="1"><c r="A1" t="inlineStr"><is><t>note</t></is></c></row>' \
        '<row r="1048576"><c r="XFD1048576"><v>1</v></c></row>'


def test_a_hidden_bomb_sheet_is_not_copied_into_the_push_report(tmp_path: Path) -> None:
    path = X.two_sheets(tmp_path / "rates.xlsx", X.sheet_xml(X.header_row() + GOOD), X.sheet_xml(STRAY))
    code = textwrap.dedent("""
        import sys
        from pathlib import Path
        from openpyxl import load_workbook
        from workbench.flows.rates import check_rates
        from workbench.reports import NothingSent, write_push_report
        source = Path(sys.argv[1])
        check = check_rates([source], as_of="2026-12-01")
        out = write_push_report(NothingSent("a dry run", files=[source]), source.with_name("push.xlsx"))
        print(load_workbook(out, read_only=True).sheetnames)
    """)
    done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=300,
                          cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "['Problems', 'Rates', 'Requests', 'Rows']"
