"""Write a plain frame for people: CSV (UTF-8 with BOM so Excel opens it right) or XLSX; text from
the data is written as text, never as a formula (see :mod:`workbench.reports.cells`)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from workbench.reports.cells import keep_text, write_csv

SUPPORTED = (".csv", ".xlsx")


def check_table_path(path: str | Path) -> Path:
    """``path`` if :func:`write_table` can write it; else ``ValueError`` saying which extensions it takes."""
    path = Path(path)
    if path.suffix.lower() not in SUPPORTED:
        raise ValueError(f"cannot write `{path.name}`: use a file name ending in {' or '.join(SUPPORTED)}")
    return path


def write_table(frame: pd.DataFrame, path: str | Path, sheet_name: str = "data") -> Path:
    """Write ``frame`` to ``path``; the extension picks the format (``.csv`` or ``.xlsx``)."""
    path = check_table_path(path)
    suffix = path.suffix.lower()
    path.parent.mkdir(parents=True, exist_ok=True)
    if suffix == ".csv":
        return write_csv(frame, path)
    out = frame.copy()
    for col in out.columns:  # Excel cannot store timezone-aware datetimes
        if isinstance(out[col].dtype, pd.DatetimeTZDtype):
            out[col] = out[col].dt.tz_convert("UTC").dt.tz_localize(None)
    from openpyxl.utils import get_column_letter  # only when a workbook is written

    with pd.ExcelWriter(path, engine="openpyxl") as writer:
        out.to_excel(writer, sheet_name=sheet_name[:31], index=False)
        ws = writer.sheets[sheet_name[:31]]
        keep_text(ws, out)
        ws.freeze_panes = "A2"
        ws.auto_filter.ref = ws.dimensions
        for i, col in enumerate(out.columns, start=1):
            sample = [str(col), *(str(v) for v in out[col].head(200).tolist())]
            ws.column_dimensions[get_column_letter(i)].width = min(60, max(8, max(map(len, sample)) + 2))
    return path
