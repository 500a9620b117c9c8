"""One analyst's sheet copied into another workbook as it looks: values with their number formats
(a date stays ``dd/mm/yyyy``, never ``yyyy-mm-dd h:mm:ss``), fonts, fills, borders, alignment,
column widths, row heights, hidden columns, rows and sheets, merged cells, freeze panes and the
filter. openpyxl cannot move a style between workbooks, so each part of it is copied.
"""

from __future__ import annotations

from copy import copy

from openpyxl.worksheet.worksheet import Worksheet


def copy_sheet(src: Worksheet, dst: Worksheet) -> None:
    """Copy ``src`` (a sheet of a workbook loaded without ``read_only``) into the empty ``dst``."""
    for row in src.iter_rows():
        for cell in row:
            if cell.value is None and not cell.has_style:
                continue
            out = dst.cell(row=cell.row, column=cell.column, value=cell.value)
            if out.data_type == "f" and cell.data_type != "f":  # a text starting with `=` stays text
                out.data_type = "s"
            if cell.has_style:
                out.number_format = cell.number_format
                out.font, out.fill, out.border = copy(cell.font), copy(cell.fill), copy(cell.border)
                out.alignment, out.protection = copy(cell.alignment), copy(cell.protection)
    for key, dim in src.column_dimensions.items():
        target = dst.column_dimensions[key]
        target.width, target.hidden = dim.width, dim.hidden
        target.min, target.max = dim.min, dim.max  # a width set once for a span of columns
    for key, rdim in src.row_dimensions.items():
        if rdim.height is not None or rdim.hidden:
            dst.row_dimensions[key].height, dst.row_dimensions[key].hidden = rdim.height, rdim.hidden
    for merged in src.merged_cells.ranges:
        dst.merge_cells(str(merged))
    dst.freeze_panes = src.freeze_panes
    dst.auto_filter.ref = src.auto_filter.ref
    dst.sheet_state = src.sheet_state
    dst.sheet_format = copy(src.sheet_format)
    dst.sheet_properties.tabColor = copy(src.sheet_properties.tabColor)
