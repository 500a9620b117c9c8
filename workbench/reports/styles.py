"""The look of every HTML report, scoped to the report's own container."""

from __future__ import annotations

#: Every selector starts with the report's own container class, so the report restyles nothing else
#: when shown inside another page (a notebook's output); long ids (``code``) wrap in their cell. The
#: alignment is ``!important`` because JupyterLab right-aligns output tables with a more specific rule.
REPORT_CLASS = "wb-report"
REPORT_CSS = """
.wb-report{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:1.5rem 1rem;color:#1f2328;background:#fff}
.wb-report h1{font-size:1.5rem;margin-bottom:.2rem} .wb-report .meta{color:#57606a;margin-bottom:1.5rem}
.wb-report .cards{display:flex;gap:1rem;margin:1rem 0 1.5rem}
.wb-report .card{padding:.8rem 1.2rem;border-radius:8px;min-width:8rem}
.wb-report .card b{display:block;font-size:1.6rem} .wb-report .err{background:#ffebe9}
.wb-report .warn{background:#fff8c5} .wb-report .okc{background:#dafbe1}
.wb-report table{border-collapse:collapse;table-layout:auto;width:100%;font-size:.9rem;margin-bottom:2rem}
.wb-report th,.wb-report td{border:0;border-bottom:1px solid #d0d7de;padding:.35rem .5rem;text-align:left!important;
  vertical-align:top;white-space:normal;overflow-wrap:break-word;max-width:none}
.wb-report th{background:#f6f8fa;position:sticky;top:0}
.wb-report tr.error td.sev{color:#cf222e;font-weight:600} .wb-report tr.warning td.sev{color:#9a6700;font-weight:600}
.wb-report td.num{text-align:right!important}
.wb-report code{background:#f6f8fa;padding:0 .2rem;word-break:break-all}
.wb-report td code{display:inline-block;min-width:12ch}
"""
