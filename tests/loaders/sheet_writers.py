"""Spreadsheet writers for the messy-input tests: an XLSX with hidden sheets and merged cells (openpyxl), and a
minimal OpenDocument writer (no ODS writer is installed): strings, numbers, booleans and hidden sheets, enough for
calamine to read them as LibreOffice writes them. Loaded by file path from the loader and CLI tests."""

from __future__ import annotations

import zipfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from openpyxl import Workbook

_NS = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
       'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
       'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
       'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"')


def _cell(v: object) -> str:
    if v is None:
        return "<table:table-cell/>"
    if isinstance(v, bool):
        return (f'<table:table-cell office:value-type="boolean" office:boolean-value="{str(v).lower()}">'
                f"<text:p>{str(v).upper()}</text:p></table:table-cell>")
    if isinstance(v, (int, float)):
        return f'<table:table-cell office:value-type="float" office:value="{v}"><text:p>{v}</text:p></table:table-cell>'
    return f'<table:table-cell office:value-type="string"><text:p>{escape(str(v))}</text:p></table:table-cell>'


def write_ods(path: Path, sheets: dict[str, Sequence[Sequence[object]]], hidden: Iterable[str] = ()) -> Path:
    hidden = set(hidden)
    tables = "".join(
        f"<table:table table:name={quoteattr(name)} table:style-name=\"{'hid' if name in hidden else 'vis'}\">"
        + "".join("<table:table-row>" + "".join(_cell(v) for v in row) + "</table:table-row>" for row in rows)
        + "</table:table>" for name, rows in sheets.items())
    content = (f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {_NS} office:version="1.2">'
               '<office:automatic-styles>'
               '<style:style style:name="hid" style:family="table"><style:table-properties table:display="false"/>'
               '</style:style><style:style style:name="vis" style:family="table">'
               '<style:table-properties table:display="true"/></style:style></office:automatic-styles>'
               f"<office:body><office:spreadsheet>{tables}</office:spreadsheet></office:body></office:document-content>")
    manifest = ('<?xml version="1.0" encoding="UTF-8"?><manifest:manifest '
                'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
                '<manifest:file-entry manifest:full-path="/" '
                'manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>'
                '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
                "</manifest:manifest>")
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.spreadsheet")
        z.writestr("META-INF/manifest.xml", manifest, compress_type=zipfile.ZIP_DEFLATED)
        z.writestr("content.xml", content, compress_type=zipfile.ZIP_DEFLATED)
    return path


def write_xlsx(path: Path, sheets: dict[str, Sequence[Sequence[object]]], states: dict[str, str] | None = None,
               merges: dict[str, list[str]] | None = None) -> Path:
    """An XLSX with one sheet per entry; ``states`` hides sheets (``hidden``/``veryHidden``), ``merges`` merges
    ranges such as ``"A1:B1"``."""
    wb = Workbook()
    wb.remove(wb.active)
    for title, rows in sheets.items():
        ws = wb.create_sheet(title)
        for r in rows:
            ws.append(list(r))
        ws.sheet_state = (states or {}).get(title, "visible")
        for ref in (merges or {}).get(title, []):
            ws.merge_cells(ref)
    wb.save(path)
    return path
