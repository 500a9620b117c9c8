"""Files as people really have them, through the command line in a subprocess: each input with its
exact message and exit code (0 nothing blocks a push, 1 errors found, 2 the input cannot be used),
and never a traceback.

The files are built here (openpyxl writes hidden sheets, booleans, formulas, merged cells; CSV
files are written in their encodings; ODS by ``tests/loaders/sheet_writers.py``). Each command pays
about five seconds for importing pandas and Great Expectations, so rows that expect 0 or 1 with the
same command and options run as one command over their files: that command exits 0 only if each
file alone would, and exits 1 with each file's own error message shown only if each file alone
would exit 1. Every file has its own properties, so no rule crosses files; rows expecting 2 (the
input cannot be used) run alone. The commands run concurrently.
"""

from __future__ import annotations

import datetime as dt
import importlib.util
import os
import re
import subprocess
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
H = ["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "AmountAfterTax", "CurrencyCode"]
WIDE = ["HotelCode", "InvTypeCode", "RatePlanCode", "CurrencyCode", dt.datetime(2027, 1, 1), dt.datetime(2027, 1, 2)]
AS_OF = ["--as-of", "2026-12-01"]
VALIDATE = ["validate", "rates"]
GERMAN = "Größe"


def _sheets():  # noqa: ANN202 - the helper module beside the loader tests
    spec = importlib.util.spec_from_file_location("sheet_writers", ROOT / "tests" / "loaders" / "sheet_writers.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def row(hotel: int, **changes: object) -> list[object]:
    out = dict(zip(H, [hotel, "101", "RO", "2027-01-01", 99.5, "EUR"], strict=True))
    out.update(changes)
    return [out[h] for h in H]


xlsx = _sheets().write_xlsx


def csv_file(path: Path, rows: Sequence[Sequence[object]], encoding: str = "utf-8", sep: str = ",") -> Path:
    text = "\n".join(sep.join("" if v is None else str(v) for v in r) for r in rows) + "\n"
    path.write_bytes(text.encode(encoding))
    return path


def first_odd_byte(text: str, encoding: str) -> int:
    """1-based position of the first byte that is not ASCII (where a UTF-8 reading stops)."""
    data = text.encode(encoding)
    return next(i for i, b in enumerate(data) if b > 127) + 1


@dataclass
class Case:
    id: str
    name: str                                 # the file's name, unique to the row
    build: Callable[[Path, int], Path]        # (folder, the row's own hotel id) -> the file
    code: int
    says: list[str]                           # exact fragments of the output; {name} and {hotel} are filled in
    command: list[str] = field(default_factory=lambda: list(VALIDATE))
    options: list[str] = field(default_factory=lambda: list(AS_OF))
    never: list[str] = field(default_factory=list)   # not in this file's issues


def seen(name: str, row_: int = 2, sheet: str = "") -> str:
    """The coverage line a file read without errors shows: its room-rate was priced."""
    return f"{name}{' ' + sheet if sheet else ''} row {row_}, RatePlanCode = RO  coverage"


CSV_1252 = [H, [0, "Suite Müller", "RO", "2027-01-01", "€ 99,50", "EUR"]]

CASES = [
    # --- data that must never be sent
    Case("hidden sheet skipped", "hidden.xlsx",
         lambda d, h: xlsx(d / "hidden.xlsx", {"Rates": [H, row(h)], "OLD do not use": [H, row(h, AmountAfterTax=1)]},
                           states={"OLD do not use": "hidden"}), 0,
         ["Skipped sheet OLD do not use of hidden.xlsx (hidden; name it with --sheet to read it)",
          "warning hidden.xlsx OLD do not use row 1 = hidden  hidden_sheet\n        hidden sheet `OLD do not use` was "
          "not read (hidden sheets are never sent); to read it, name it with --sheet", seen("hidden.xlsx", sheet="Rates")]),
    Case("hidden sheet read when named", "named.xlsx",
         lambda d, h: xlsx(d / "named.xlsx", {"Rates": [H, row(h)], "OLD": [H, row(h, AmountAfterTax=1)]},
                           states={"OLD": "veryHidden"}), 0,
         ["1 price read; 0 errors", seen("named.xlsx", sheet="OLD")], options=[*AS_OF, "--sheet", "OLD"],
         never=["Skipped"]),
    Case("hidden sheet never in a dry run", "dry.xlsx",
         lambda d, h: xlsx(d / "dry.xlsx", {"Rates": [H, row(h)], "OLD": [H, row(h, Date="2027-01-02", AmountAfterTax=1)]},
                           states={"OLD": "hidden"}), 0,
         ["Skipped sheet OLD of dry.xlsx (hidden; name it with --sheet to read it)", "with 1 message for 1 price"],
         command=["push", "rates"], options=[*AS_OF, "--dry-run", "out"]),
    Case("Excel boolean price", "bool.xlsx", lambda d, h: xlsx(d / "bool.xlsx", {"S": [H, row(h, AmountAfterTax=True)]}), 1,
         ["error   bool.xlsx S row 2, AmountAfterTax = true  not_a_number\n        `true` is a yes/no value (TRUE/FALSE), "
          "not a number: type the amount"]),
    Case("TRUE typed in a CSV guests column", "guests.csv",
         lambda d, h: csv_file(d / "guests.csv", [[*H, "NumberOfGuests"], [*row(h), "TRUE"]]), 1,
         ["error   guests.csv row 2, NumberOfGuests = TRUE  not_a_number\n        `TRUE` is a yes/no value (TRUE/FALSE), "
          "not a number of guests (a whole number)"]),
    Case("ODS boolean price below a title row", "bool.ods",
         lambda d, h: _sheets().write_ods(d / "bool.ods", {"Rates": [["Summer"], H, row(h),
                                                                 row(h, Date="2027-01-02", AmountAfterTax=False)]}), 1,
         ["error   bool.ods Rates row 4, AmountAfterTax = false  not_a_number\n        `false` is a yes/no value"]),
    Case("formula without a saved value", "formula.xlsx",
         lambda d, h: xlsx(d / "formula.xlsx", {"S": [H, row(h, AmountAfterTax="=40*2")]}), 1,
         ["error   formula.xlsx S row 2, AmountAfterTax = =40*2  formula_no_value\n        formula with no saved value: "
          "open and save the file in Excel"], never=["no price"]),
    Case("Excel error value", "error.xlsx", lambda d, h: xlsx(d / "error.xlsx", {"S": [H, row(h, AmountAfterTax="#DIV/0!")]}),
         1, ["error   error.xlsx S row 2, AmountAfterTax = #DIV/0!  excel_error\n        the cell holds the Excel error "
             "`#DIV/0!`: correct the formula, or type the value"], never=["no price"]),
    Case("merged hotel cells", "merged.xlsx",
         lambda d, h: xlsx(d / "merged.xlsx", {"S": [H, row(h), row(None, Date="2027-01-02")]}, merges={"S": ["A2:A3"]}),
         1, ["error   merged.xlsx S row 3, HotelCode = A2:A3  merged_cells\n        part of the merged cells `A2:A3`: only "
             "the first of them holds the value; unmerge the cells and fill in each row"]),
    # --- no traceback
    Case("1e20 in a workbook", "e20.xlsx", lambda d, h: xlsx(d / "e20.xlsx", {"S": [H, row(h, AmountAfterTax=1e20)]}), 1,
         ["error   e20.xlsx S row 2, AmountAfterTax = 100000000000000000000  not_a_number\n        "
          "`100000000000000000000` is beyond what the platform accepts (at most 50,000 EUR a night, or the "
          "equivalent): check for extra digits"]),
    Case("19 nines in a CSV", "nines.csv", lambda d, h: csv_file(d / "nines.csv", [H, row(h, AmountAfterTax="9" * 19)]), 1,
         ["error   nines.csv row 2, AmountAfterTax = 9999999999999999999  not_a_number\n        `9999999999999999999` "
          "is beyond what the platform accepts"]),
    Case("1e308 in a wide sheet", "wide.xlsx",
         lambda d, h: xlsx(d / "wide.xlsx", {"W": [WIDE, [h, "101", "RO", "EUR", 1e308, 80]]}), 1,
         ["error   wide.xlsx W row 2, 2027-01-01 = 1000000000000000… (309 digits)  not_a_number\n        "
          "`1000000000000000… (309 digits)` is beyond what the platform accepts"]),
    Case("23-digit integer in an ODS", "digits.ods",
         lambda d, h: _sheets().write_ods(d / "digits.ods", {"S": [H, row(h, AmountAfterTax=12345678901234567890123)]}), 1,
         ["error   digits.ods S row 2, AmountAfterTax = ", "is beyond what the platform accepts"]),
    Case("23-digit hotel id", "hotel.csv", lambda d, h: csv_file(d / "hotel.csv", [H, row(h, HotelCode="1" * 23)]), 1,
         ["error   hotel.csv row 2, HotelCode = 11111111111111111111111  not_a_number\n        "
          "`11111111111111111111111` is too large for a property id (a whole number)"]),
    # --- files as people really have them
    Case("UTF-16 CSV with BOM", "utf16.csv",
         lambda d, h: csv_file(d / "utf16.csv", [H, row(h, InvTypeCode=GERMAN)], encoding="utf-16"), 0,
         [f"{seen('utf16.csv')}\n        1 of the next 365 nights (from 2026-12-01) have a price for room {GERMAN}"]),
    Case("Windows-1252 CSV with a euro sign", "win.csv",
         lambda d, h: csv_file(d / "win.csv", [H, [h, *CSV_1252[1][1:]]], "cp1252", ";"), 0,
         [f"{seen('win.csv')}\n        1 of the next 365 nights (from 2026-12-01) have a price for room Suite Müller"]),
    Case("a forced encoding that does not fit", "forced.csv",
         lambda d, h: csv_file(d / "forced.csv", CSV_1252, "cp1252", ";"), 2,
         [f"Error: `forced.csv` is not UTF-8 text (byte {first_odd_byte(';'.join(H) + chr(10) + '0;Suite Müller', 'cp1252')},"
          " line 2 cannot be read); the file looks like Windows-1252: try --encoding cp1252."],
         options=[*AS_OF, "--encoding", "utf-8"]),
    Case("UTF-8 read as UTF-16", "utf8.csv", lambda d, h: csv_file(d / "utf8.csv", [H, row(1001)]), 2,
         ["Error: `utf8.csv` is missing required column", "The file looks like UTF-8 text, not UTF-16 LE: try "
          "--encoding utf-8."], options=[*AS_OF, "--encoding", "utf-16-le"]),
    Case("title rows above the header", "title.xlsx",
         lambda d, h: xlsx(d / "title.xlsx", {"S": [["Price list summer 2027"], [], ["Hotel Aurora"], H, row(h)]}), 0,
         [seen("title.xlsx", 5, "S")]),
    Case("--header-row forces the header", "forced_header.csv",
         lambda d, h: csv_file(d / "forced_header.csv", [["HotelCode list"], ["Hotel", "RatePlanCode"], H, row(h)]), 0,
         ["1 price read; 0 errors", seen("forced_header.csv", 4)], options=[*AS_OF, "--header-row", "3"]),
    Case("a header over two rows", "tworows.xlsx",
         lambda d, h: xlsx(d / "tworows.xlsx", {"S": [["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "Price", None,
                                                       "CurrencyCode"],
                                                      [None, None, None, None, "after tax", "before tax", None],
                                                      [h, "101", "RO", "2027-01-01", 10, None, "EUR"]]},
                           merges={"S": ["E1:F1"]}), 2,
         ["Error: `tworows.xlsx` sheet `S`: rows 1 and 2 both look like header rows (a header over two rows, or merged "
          "header cells): keep one header row with one name per column (e.g. `AmountAfterTax`, `AmountBeforeTax`) and "
          "unmerge the header cells."]),
    Case("currency marks that agree", "marks.csv",
         lambda d, h: csv_file(d / "marks.csv", [H, row(h, AmountAfterTax="€ 99,50"),
                                                 row(h + 1, AmountAfterTax="99.99 EUR"),
                                                 row(h + 2, AmountAfterTax="CHF 120.-", CurrencyCode="CHF"),
                                                 row(h + 3, AmountAfterTax="¥12,000", CurrencyCode="JPY"),
                                                 row(h + 4, AmountAfterTax="£99.50", CurrencyCode="GBP")], sep=";"), 0,
         [seen("marks.csv", r) for r in range(2, 7)]),
    Case("a currency mark that does not agree", "mark.csv",
         lambda d, h: csv_file(d / "mark.csv", [H, row(h, AmountAfterTax="£99.50")], sep=";"), 1,
         ["error   mark.csv row 2, AmountAfterTax = £99.50  amount_currency\n        `£99.50` is written in GBP, but the "
          "row's currency (CurrencyCode) is EUR: give the price in EUR, or correct CurrencyCode"]),
    Case("a lookup sheet beside the rates", "lookup.xlsx",
         lambda d, h: xlsx(d / "lookup.xlsx", {"Rates": [H, row(h)], "Lookup": [["code", "name"], ["RO", "Room only"]]}),
         0, ["Skipped sheet Lookup of lookup.xlsx (not a rates sheet)", seen("lookup.xlsx", sheet="Rates")]),
    Case("validate rooms on a rates workbook", "rates.xlsx",
         lambda d, h: xlsx(d / "rates.xlsx", {"Amsterdam": [H, row(h)], "Krakow": [WIDE, [h, "101", "RO", "EUR", 80, 90]]}),
         # refused before it is read (the command's kind check); the rooms reader's own words are pinned in
         # tests/loaders/test_messy_files.py for Python callers who bypass it
         2, ["Error: `rates.xlsx` is a rates workbook: use `workbench validate rates`"],
         command=["validate", "rooms"], options=[], never=["duplicate_room"]),
    Case("rooms CSV in Windows-1252", "rooms.csv",
         lambda d, h: csv_file(d / "rooms.csv", [["HotelCode", "InvCode", "RoomType", "RoomTypeName"],
                                                 [h, "A1", 1, "Chambre à deux"]], "cp1252"), 0,
         ["1 room type, 0 sub-rooms, 0 amenity rows read", "0 errors"],
         command=["validate", "rooms"], options=["--encoding", "cp1252"]),
    Case("headers and no rows", "empty.csv", lambda d, h: csv_file(d / "empty.csv", [H]), 0,
         ["warning empty.csv row 1  no_prices\n        no prices in `empty.csv`: it has a header row but no rows below "
          "it"]),
    Case("a bad date and a negative price on one row", "both.csv",
         lambda d, h: csv_file(d / "both.csv", [H, row(h, Date="31/12/2027", AmountAfterTax=-5)]), 1,
         ["error   both.csv row 2, AmountAfterTax = -5  price_negative\n        a price cannot be negative: use 0 to make "
          "the room not bookable that night",
          "error   both.csv row 2, Date = 31/12/2027  not_a_date\n        `31/12/2027` is not a date this tool reads "
          "without guessing: write it as YYYY-MM-DD or format the cell as a date"]),
]


def _batches() -> list[tuple[list[str], list[str], list[Case]]]:
    """Rows that expect 0 or 1 with the same command and options share one command; 2 runs alone."""
    groups: dict[tuple, list[Case]] = {}
    for c in CASES:
        key = (tuple(c.command), tuple(c.options), c.code) if c.code in (0, 1) else (c.id,)
        groups.setdefault(key, []).append(c)
    return [(g[0].command, g[0].options, g) for g in groups.values()]


def _run(command: list[str], options: list[str], cases: list[Case], folder: Path) -> subprocess.CompletedProcess[str]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = [str(c.build(folder, 5000 + 10 * CASES.index(c))) for c in cases]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "250", "NO_COLOR": "1"}
    show = ["--show", "500"] if command == VALIDATE else []
    return subprocess.run([sys.executable, "-m", "workbench.cli", *command, *paths, *options, *show],
                          capture_output=True, text=True, timeout=600, cwd=folder, env=env)


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[subprocess.CompletedProcess[str], Path]]:
    base = tmp_path_factory.mktemp("messy")
    batches = _batches()
    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        futures = [(cases, base / f"batch{i}", pool.submit(_run, cmd, opts, cases, base / f"batch{i}"))
                   for i, (cmd, opts, cases) in enumerate(batches)]
        return {c.id: (f.result(), folder) for cases, folder, f in futures for c in cases}


def issues_of(text: str, name: str) -> str:
    """The printed issues (severity line and message) about file ``name``."""
    blocks = re.findall(r"^(?:error|warning) +\S.*\n(?: {8}.*\n?)*", text, flags=re.M)
    return "".join(b for b in blocks if re.match(rf"^(?:error|warning) +{re.escape(name)}[ ,]", b))


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_each_messy_input_has_its_message_and_exit_code(results, case: Case) -> None:
    out, _ = results[case.id]
    text = out.stdout + out.stderr
    assert "Traceback" not in text, text
    assert out.returncode == case.code, text
    for fragment in case.says:
        assert fragment in text, text
    if case.code == 1:  # an error of this very file (its own exit code would be 1 too)
        assert re.search(r"^error", issues_of(out.stdout, case.name), flags=re.M), text
    for fragment in case.never:
        assert fragment not in issues_of(out.stdout, case.name) + out.stderr, text


@pytest.mark.slow
def test_the_dry_run_does_not_carry_the_hidden_price(results) -> None:
    out, folder = results["hidden sheet never in a dry run"]
    assert out.returncode == 0, out.stdout + out.stderr
    bodies = "".join(p.read_text() for p in (folder / "out").glob("*.xml"))
    assert 'AmountAfterTax="99.5"' in bodies and 'AmountAfterTax="1"' not in bodies
