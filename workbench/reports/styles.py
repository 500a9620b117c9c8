"""The look of every HTML report: the one page template's stylesheet (:mod:`workbench.page`),
scoped to the report's own container."""

from __future__ import annotations

from workbench.page import PAGE_CLASS, PAGE_CSS

REPORT_CLASS = PAGE_CLASS
REPORT_CSS = PAGE_CSS

