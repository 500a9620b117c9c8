"""Every notebook as JupyterLab shows it, in headless Chromium: its light and dark theme, trusted and
untrusted (an untrusted notebook loses every ``<style>`` and ``<script>`` of its outputs, as
JupyterLab's sanitizer drops them). No output shows a raw missing-value marker (``<NA>``, ``NaN``,
``None``, ``NaT``), no table cell is cut off or runs over the next one. A screenshot of each is
left in ``out/notebook-screens/`` for people to look at.

The pages are JupyterLab's own rendering of the run notebooks (nbconvert's ``lab`` template, which
carries JupyterLab's stylesheet and theme variables); slow: every notebook runs once.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat
import pytest

from tests.notebooks.test_notebooks import ROOT, browser_check, chromium, every_view, run

pytestmark = pytest.mark.slow

RAW_MARKERS = ("<NA>", "NaN", "nan", "None", "NaT")
SCREENS = ROOT / "out" / "notebook-screens"
CHECK_SCRIPT = """
<script>
window.addEventListener('load', () => {
  const out = {cells: 0, raw: [], cut: [], overflow: []};
  const markers = MARKERS;
  for (const el of document.querySelectorAll('.jp-OutputArea-output td, .jp-OutputArea-output th, '
                                            + '.jp-OutputArea-output li, .jp-OutputArea-output b')) {
    out.cells += 1;
    const text = el.textContent.trim();
    if (markers.includes(text)) out.raw.push(text);
    if (/(\\.\\.\\.|\u2026)$/.test(text) && el.tagName === 'TD') out.cut.push(text.slice(-60));
    if (el.scrollWidth > el.clientWidth + 1 && el.tagName !== 'B') out.overflow.push(text.slice(0, 60));
  }
  const pre = document.createElement('pre');
  pre.id = 'notebook-check';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>
""".replace("MARKERS", json.dumps(list(RAW_MARKERS)))


def untrusted(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The notebook as JupyterLab renders it untrusted: its HTML outputs without ``<style>``/``<script>``."""
    out = nbformat.from_dict(json.loads(json.dumps(nb)))
    for cell in out.cells:
        for o in cell.get("outputs", []):
            data = o.get("data", {})
            if "text/html" in data:
                text = "".join(data["text/html"])
                data["text/html"] = re.sub(r"<(style|script)\b.*?</\1>", "", text, flags=re.S | re.I)
    return out


@every_view
def test_notebook_reads_well_in_a_browser(path: Path, theme: str, trust: str, tmp_path: Path) -> None:
    browser = chromium()
    assert browser, "Chromium is needed (apt-get install chromium; .ci/run installs it)"
    from nbconvert import HTMLExporter

    nb = run(path).nb
    body, _ = HTMLExporter(template_name="lab", theme=theme).from_notebook_node(
        nb if trust == "trusted" else untrusted(nb))
    SCREENS.mkdir(parents=True, exist_ok=True)
    result = browser_check(browser, tmp_path / f"{path.stem}.html", body, CHECK_SCRIPT, "notebook-check", "1200,3000",
                           screenshot=SCREENS / f"{path.stem}-{theme}-{trust}.png")
    assert not result["raw"], f"{path.name}: raw missing-value markers shown: {result['raw'][:10]}"
    assert not result["cut"], f"{path.name}: cells cut off: {result['cut'][:10]}"
    assert not result["overflow"], f"{path.name}: cells running over the next: {result['overflow'][:10]}"
