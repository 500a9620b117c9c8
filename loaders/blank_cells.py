"""Cells the fast readers see as blank but are not: Excel error values, formulas without a saved
value, and the cells of a merged range other than its first.

A blank cell means "no value" to a reader (no price, or "keep what the platform has" for rooms),
so each of these becomes an error on its cell instead. Error values come with the sheet
(``RawSheet.errors``, from fastexcel); formulas and merged ranges need the sheet XML, which is read
only when a column read has a blank cell or rows are missing, and not at all when the bounds check
before reading scanned the sheet whole and found neither (``xlsx_bounds.known_plain``).
"""

from __future__ import annotations

import zipfile

from loaders import xlsx_bounds, xlsx_xml
from loaders.inflate import INFLATE_ERRORS
from loaders.sheets import RawSheet

_UNREADABLE: tuple[type[Exception], ...] = (KeyError, zipfile.BadZipFile, ValueError, OSError, *INFLATE_ERRORS)


def blank_cells(raw: RawSheet) -> xlsx_xml.Blanks:
    """Formulas without a saved value and merged ranges of the sheet, by column position (not
    sheet column). Only .xlsx/.xlsm hold them; costs one pass over the sheet."""
    none = xlsx_xml.Blanks({}, [])
    if raw.path.suffix.lower() not in xlsx_xml.XLSX_SUFFIXES or not raw.sheet:
        return none
    if xlsx_bounds.known_plain(raw.path, raw.sheet):  # scanned whole before reading: neither is there
        return none
    try:
        found = xlsx_xml.scan_blanks(raw.path, raw.sheet)
    except _UNREADABLE:  # damaged: the reader says so
        return none
    if not found.formulas and not found.merged:
        return none
    first = raw.first_column
    if first is None:
        from python_calamine import CalamineWorkbook

        with CalamineWorkbook.from_path(str(raw.path)) as wb:
            start = wb.get_sheet_by_name(raw.sheet).start
        first = int(start[1]) if start else 0
    return xlsx_xml.Blanks({(row, col - first): f for (row, col), f in found.formulas.items() if col >= first},
                           [(r1, c1 - first, r2, c2 - first) for r1, c1, r2, c2 in found.merged])


def problem_cells(raw: RawSheet, used: dict[int, str]) -> dict[tuple[int, int], tuple[str, str, str]]:
    """Cells of the columns read (``used``: position -> header) that the fast readers see as blank
    but are not: an Excel error value, a formula without a saved value, or a cell of a merged
    range other than its first: ``{(Excel row, position): (rule, value, message)}``. The sheet XML
    is searched only when a column read has a blank cell, rows are missing (blank to the reader)
    or no row has a value."""
    out = {key: ("excel_error", v, f"the cell holds the Excel error `{v}`: correct the formula, or type the value")
           for key, v in raw.errors.items() if key[1] in used}
    if raw.path.suffix.lower() not in xlsx_xml.XLSX_SUFFIXES or not raw.sheet:
        return out
    last = int(raw.rows.iloc[-1]) if len(raw.rows) else raw.header_row
    gaps = last - raw.header_row != len(raw.rows) or (raw.last_row is not None and raw.last_row > last)
    if len(raw.body) == 0 or gaps or bool(raw.blank_columns & set(used)):
        blanks = blank_cells(raw)
        for key, formula in blanks.formulas.items():
            if key[1] in used and key[0] > raw.header_row:
                out.setdefault(key, ("formula_no_value", formula,
                                     "formula with no saved value: open and save the file in Excel"))
        for r1, c1, r2, c2 in blanks.merged:
            ref = (f"{xlsx_xml.column_letters(c1 + (raw.first_column or 0))}{r1}:"
                   f"{xlsx_xml.column_letters(c2 + (raw.first_column or 0))}{r2}")
            for row in range(max(r1, raw.header_row + 1), min(r2, last) + 1):
                for pos in range(c1, c2 + 1):
                    if pos in used and (row, pos) != (r1, c1):
                        out.setdefault((row, pos), ("merged_cells", ref,
                                                    f"part of the merged cells `{ref}`: only the first of them "
                                                    "holds the value; unmerge the cells and fill in each row"))
    return dict(sorted(out.items()))
