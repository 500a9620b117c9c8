"""Hostile workbooks built from XML strings, a few KB each: a stray cell at XFD1048576, millions of
shared strings, zipped whitespace that inflates a thousandfold, a zip directory that lies.

``workbook`` writes a one-sheet .xlsx with ``zipfile``; ``raw_zip`` writes the zip by hand, for
members whose deflate stream is given as is (``repeated_deflate``: a block compressed once and
repeated, so a 1.1 GB member costs a millisecond to build) or whose declared size is false.
"""

from __future__ import annotations

import struct
import zipfile
import zlib
from pathlib import Path

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_CT = ('<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/'
       'content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
       'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/'
       'workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
       '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-'
       'officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType='
       '"application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>')
_RELS = ('<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/'
         '2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
         'relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>')
_WORKBOOK = (f'<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="{MAIN}" xmlns:r="http://schemas.'
             'openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="{name}" sheetId="1" '
             'r:id="rId1"/></sheets></workbook>')
_WORKBOOK_RELS = ('<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/'
                  'package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/'
                  'officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship '
                  'Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
                  'sharedStrings" Target="sharedStrings.xml"/></Relationships>')
HEADER = ["HotelCode", "InvTypeCode", "RatePlanCode", "Date", "AmountAfterTax", "CurrencyCode"]


def inline(ref: str, text: str) -> str:
    return f'<c r="{ref}" t="inlineStr"><is><t>{text}</t></is></c>'


def header_row() -> str:
    """Row 1: the rates header, as inline strings."""
    return '<row r="1">' + "".join(inline(f"{chr(65 + i)}1", h) for i, h in enumerate(HEADER)) + "</row>"


def sheet_xml(rows: str, dimension: str | None = None) -> str:
    dim = f'<dimension ref="{dimension}"/>' if dimension else ""
    return f'<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="{MAIN}">{dim}<sheetData>{rows}</sheetData></worksheet>'


def shared_strings(n: int, unique: int | None = None) -> str:
    count = f' count="{n}" uniqueCount="{unique}"' if unique is not None else ""
    return f'<?xml version="1.0" encoding="UTF-8"?><sst xmlns="{MAIN}"{count}>' + "<si><t>a</t></si>" * n + "</sst>"


def parts(sheet: str, strings: str | None = None, name: str = "Rates") -> dict[str, bytes]:
    out = {"[Content_Types].xml": _CT, "_rels/.rels": _RELS, "xl/workbook.xml": _WORKBOOK.replace("{name}", name),
           "xl/_rels/workbook.xml.rels": _WORKBOOK_RELS, "xl/worksheets/sheet1.xml": sheet,
           "xl/sharedStrings.xml": strings if strings is not None else shared_strings(0, 0)}
    return {k: v.encode() for k, v in out.items()}


def two_sheets(path: Path, visible: str, hidden: str) -> Path:
    """A workbook of two sheets: ``Rates`` (``visible``, its XML) and the hidden ``Notes`` (``hidden``)."""
    members = parts(visible)
    members["xl/workbook.xml"] = members["xl/workbook.xml"].replace(
        b"</sheets>", b'<sheet name="Notes" sheetId="2" state="hidden" r:id="rId3"/></sheets>')
    members["xl/_rels/workbook.xml.rels"] = members["xl/_rels/workbook.xml.rels"].replace(
        b"</Relationships>", b'<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
        b'relationships/worksheet" Target="worksheets/sheet2.xml"/></Relationships>')
    members["[Content_Types].xml"] = members["[Content_Types].xml"].replace(
        b"</Types>", b'<Override PartName="/xl/worksheets/sheet2.xml" ContentType="application/vnd.openxmlformats-'
        b'officedocument.spreadsheetml.worksheet+xml"/></Types>')
    members["xl/worksheets/sheet2.xml"] = hidden.encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for member, data in members.items():
            zf.writestr(member, data)
    return path


def workbook(path: Path, sheet: str, strings: str | None = None, name: str = "Rates") -> Path:
    """A one-sheet .xlsx holding ``sheet`` (its XML) and ``strings`` (sharedStrings.xml)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for member, data in parts(sheet, strings, name).items():
            zf.writestr(member, data)
    return path


def repeated_deflate(prefix: bytes, block: bytes, times: int, suffix: bytes) -> tuple[bytes, int, int]:
    """A raw deflate stream of ``prefix + block * times + suffix`` built by compressing ``block``
    once (a full flush makes every copy of it the same bytes): (stream, inflated size, CRC-32 left
    0: the workbench refuses the file before anything reads that far)."""
    c = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    head = c.compress(prefix) + c.flush(zlib.Z_FULL_FLUSH)
    once = c.compress(block) + c.flush(zlib.Z_FULL_FLUSH)
    again = c.compress(block) + c.flush(zlib.Z_FULL_FLUSH)
    assert once == again  # what makes the copies valid
    tail = c.compress(suffix) + c.flush()
    return head + once * times + tail, len(prefix) + len(block) * times + len(suffix), 0


def raw_zip(path: Path, members: dict[str, tuple[bytes, int, int]]) -> Path:
    """A zip written by hand: each member is (deflate stream, inflated size to declare, CRC-32)."""
    out = bytearray()
    central = bytearray()
    for name, (stream, size, crc) in members.items():
        encoded = name.encode()
        offset = len(out)
        out += struct.pack("<4s5H3I2H", b"PK\x03\x04", 20, 0, 8, 0, 0, crc, len(stream), size, len(encoded), 0)
        out += encoded + stream
        central += struct.pack("<4s6H3I5H2I", b"PK\x01\x02", 20, 20, 0, 8, 0, 0, crc, len(stream), size,
                               len(encoded), 0, 0, 0, 0, 0, offset)
        central += encoded
    end = struct.pack("<4s4H2IH", b"PK\x05\x06", 0, 0, len(members), len(members), len(central), len(out), 0)
    path.write_bytes(bytes(out + central + end))
    return path


def deflated(data: bytes) -> tuple[bytes, int, int]:
    c = zlib.compressobj(6, zlib.DEFLATED, -zlib.MAX_WBITS)
    return c.compress(data) + c.flush(), len(data), zlib.crc32(data)
