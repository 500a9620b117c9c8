"""Files and sheets that are not the analyst's data: Excel's lock files (``~$rates.xlsx``, there
while the workbook is open) and the sheets the workbench adds to its own reports (``Issues``,
``Waived``, ``Problems``, ``Requests``, ``Rows``), so a marked report can be fixed and checked again.

A report the workbench writes names the sheets it added in a custom document property
(:data:`ADDED_SHEETS_PROPERTY`); reports written before that are told by their ``Issues`` sheet's
header, which ends with ``go to cell``.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

#: the custom document property that lists the sheets the workbench added (comma-separated)
ADDED_SHEETS_PROPERTY = "workbench added sheets"
#: the sheets a workbench report may add beside the analyst's own
ADDED_SHEETS = ("Issues", "Waived", "Problems", "Requests", "Rows")
LINK_HEADER = "go to cell"
LOCK_PREFIX = "~$"


def is_lock_file(path: str | Path) -> bool:
    """Excel's (or LibreOffice's ``.~lock.``) file of a workbook someone has open: never data."""
    name = Path(path).name
    return name.startswith(LOCK_PREFIX) or name.startswith(".~lock.")


def own_sheets(path: str | Path) -> frozenset[str]:
    """The sheets of ``path`` the workbench added to a report it wrote (empty for anything else)."""
    path = Path(path)
    if path.suffix.lower() not in (".xlsx", ".xlsm"):
        return frozenset()
    try:
        with zipfile.ZipFile(path) as zf:
            names = set(zf.namelist())
            listed = _listed(zf.read("docProps/custom.xml")) if "docProps/custom.xml" in names else None
    except (OSError, zipfile.BadZipFile, KeyError):
        return frozenset()
    if listed is not None:
        return listed
    return _by_header(path)


def _listed(xml: bytes) -> frozenset[str] | None:
    from lxml import etree

    root = etree.fromstring(xml, etree.XMLParser(resolve_entities=False, no_network=True))
    for prop in root:
        if prop.get("name") == ADDED_SHEETS_PROPERTY:
            text = "".join(prop.itertext())
            return frozenset(s.strip() for s in text.split(",") if s.strip())
    return None


def _by_header(path: Path) -> frozenset[str]:
    """Reports written before the property: an added sheet's first row ends with ``go to cell``."""
    from loaders import xlsx_xml

    found = set()
    for name in ADDED_SHEETS:
        try:
            rows = xlsx_xml.first_rows(path, name, 1).rows
        except (KeyError, ValueError, OSError, zipfile.BadZipFile):
            continue
        if rows and [rows[0].cells[c] for c in sorted(rows[0].cells)][-1:] == [LINK_HEADER]:
            found.add(name)
    return frozenset(found)
