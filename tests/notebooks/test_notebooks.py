"""Every notebook under notebooks/ runs top to bottom on a fresh kernel, is saved without outputs, and
shows people what they need to see:

- no output brings page-wide styles (every ``<style>`` selector starts with its own container's class
  or id: no ``table {``, ``td {``, ``body {``);
- no message is cut off (pandas shortens long cells to ``...``);
- progress bars are widgets, not text on the error background;
- nothing is left in the temporary folder, and no private key or ``.env`` file under ``out/``.

Each notebook runs once (its kernel with a temporary folder of its own), and the checks read the result.
With Chromium installed, notebook 02 is also rendered as JupyterLab shows it and laid out in the
browser: no cell of its summaries or push report runs over the next, and the report leaves the other
tables of the page alone (that check is skipped without Chromium).
"""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import nbformat
import pytest
from lxml import html as lxml_html
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
IDS = [p.name for p in NOTEBOOKS]
TRUNCATED = re.compile(r"(\.\.\.|…)$")
TQDM_TEXT = re.compile(r"\d+%\|")


class Ran:
    """A notebook after it ran: its cells with outputs, and the temporary folder its kernel used."""

    def __init__(self, nb: nbformat.NotebookNode, tmp_left: list[str], secrets_left: list[str],
                 folder_left: list[str] | None = None) -> None:
        self.nb = nb
        self.tmp_left = tmp_left  # what it left in its temporary folder
        self.secrets_left = secrets_left  # private keys and .env files it added under out/
        self.folder_left = folder_left or []  # what it added to notebooks/ (a cache, a journal)

    def outputs(self) -> list[tuple[int, dict]]:
        return [(i, o) for i, c in enumerate(self.nb.cells) if c.cell_type == "code" for o in c.get("outputs", [])]

    def html_outputs(self) -> list[tuple[int, str]]:
        return [(i, "".join(o["data"]["text/html"])) for i, o in self.outputs() if "text/html" in o.get("data", {})]


@functools.cache
def run(path: Path) -> Ran:
    tmp = Path(tempfile.mkdtemp(prefix=f"kernel-tmp-{path.stem[:2]}-"))
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}})
    env = {**os.environ, "TMPDIR": str(tmp), "TEMP": str(tmp), "TMP": str(tmp)}
    before = secrets_under_out()
    in_folder = files_beside_notebooks()
    try:
        client.execute(env=env)  # the kernel's tempfile folder is `tmp`: what is left there, the notebook left
        left = sorted(p.name for p in tmp.iterdir())
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return Ran(nb, left, sorted(secrets_under_out() - before), sorted(files_beside_notebooks() - in_folder))


def files_beside_notebooks() -> set[str]:
    """Every file under notebooks/ but the notebooks (and Jupyter's own checkpoints)."""
    folder = ROOT / "notebooks"
    return {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file() and p.suffix != ".ipynb"
            and ".ipynb_checkpoints" not in p.parts}


def secrets_under_out() -> set[str]:
    out = ROOT / "out"
    return {str(p.relative_to(ROOT)) for pattern in ("*key*.pem", "*.key", "*.env")
            for p in (out.rglob(pattern) if out.exists() else [])}


def test_there_are_notebooks() -> None:
    assert NOTEBOOKS, "notebooks/ should hold the analysts' walkthroughs"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_notebook_is_saved_without_outputs(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert not cell.outputs, f"{path.name}: clear outputs before committing (they may hold data or secrets)"
            assert cell.execution_count is None, f"{path.name}: clear execution counts before committing"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_notebook_runs(path: Path) -> None:
    errors = [o for _, o in run(path).outputs() if o.output_type == "error"]
    assert not errors, f"{path.name}: {[(e.ename, e.evalue) for e in errors]}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_notebook_leaves_nothing_in_the_temporary_folder(path: Path) -> None:
    left = run(path).tmp_left
    assert not left, f"{path.name} left {left} in the temporary folder: remove what it creates (or use out/)"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_notebook_leaves_nothing_beside_the_notebooks(path: Path) -> None:
    left = run(path).folder_left
    assert not left, f"{path.name} left {left} in notebooks/ (e.g. .workbench/lookups.json): write under out/"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_notebook_leaves_no_keys_or_secrets_under_out(path: Path) -> None:
    left = run(path).secrets_left
    assert not left, f"{path.name} left private keys or credentials behind: {left}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_notebook_outputs_keep_their_styles_to_themselves(path: Path) -> None:
    leaks = [f"cell {i}: {s}" for i, text in run(path).html_outputs() for s in unscoped_selectors(text)]
    assert not leaks, f"{path.name}: styles that would restyle the whole page:\n" + "\n".join(leaks)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_notebook_shows_messages_whole(path: Path) -> None:
    cut = [f"cell {i}: {c!r}" for i, text in run(path).html_outputs() for c in cut_off_cells(text)]
    assert not cut, f"{path.name}: cells cut off in a table (pandas' max_colwidth?):\n" + "\n".join(cut)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_notebook_shows_no_warning_boxes(path: Path) -> None:
    """A warning printed on stderr is a red box in JupyterLab: the notebooks give none."""
    boxes = [o.text[:120] for _, o in run(path).outputs() if o.output_type == "stream" and o.name == "stderr"
             and "Warning" in o.text]
    assert not boxes, f"{path.name}: warnings shown as red boxes: {boxes}"


def test_notebook_01_shows_a_request_whole_lines_not_cut_mid_tag() -> None:
    ran = run(ROOT / "notebooks" / "01-load-and-validate-rates.ipynb")
    xml = next(o.text for _, o in ran.outputs() if o.output_type == "stream" and "<OTA_HotelRateAmountNotifRQ" in o.text)
    lines = xml.rstrip("\n").split("\n")
    assert len(lines) > 5 and max(map(len, lines)) < 200  # pretty-printed, not one 900-character line
    assert lines[-1].startswith("… ") and lines[-1].endswith("more lines")  # says what follows
    assert all(line.rstrip().endswith(">") for line in lines[:-1])  # every line shown ends a tag


def test_notebook_07_pushes_without_a_rejection() -> None:
    ran = run(ROOT / "notebooks" / "07-property-health.ipynb")
    said = " ".join(o.text for _, o in ran.outputs() if o.output_type == "stream" and o.name == "stdout")
    assert re.search(r"\d requests?:", said) and "rejected" not in said


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_finished_progress_bars_are_kept_as_text(path: Path) -> None:
    """A bar drawn as a widget is replaced by its last line once done: a saved notebook opened where
    widgets cannot be drawn shows that line, never "Loading widget..."."""
    widgets = [i for i, o in run(path).outputs() if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
    assert not widgets, f"{path.name}: cells {widgets} keep a widget a saved notebook cannot draw"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_progress_bars_are_widgets_not_text(path: Path) -> None:
    streams = [o for _, o in run(path).outputs() if o.output_type == "stream" and o.name == "stderr"]
    bars = [o.text[:80] for o in streams if TQDM_TEXT.search(o.text)]
    assert not bars, f"{path.name}: progress bars printed as text on stderr (is ipywidgets installed?): {bars}"


# --- what the checks read ------------------------------------------------------------------------------

def unscoped_selectors(html_text: str) -> list[str]:
    """Selectors of the ``<style>`` elements in ``html_text`` that do not start with a class or id that
    an element of the same output carries (so they would apply to the whole page)."""
    if "<style" not in html_text:
        return []
    doc = lxml_html.fromstring(html_text)
    classes = {c for el in doc.iter() if isinstance(el.tag, str) for c in (el.get("class") or "").split()}
    ids = {el.get("id") for el in doc.iter() if isinstance(el.tag, str) and el.get("id")}
    bad = []
    for style in doc.iter("style"):
        for selector in css_selectors(style.text_content()):
            first = re.split(r"[\s>+~]+", selector.strip(), maxsplit=1)[0]
            own_class = any(c in classes for c in re.findall(r"\.([-\w]+)", first))
            own_id = any(i in ids for i in re.findall(r"#([-\w]+)", first))
            if not (own_class or own_id):  # `table`, `body`, `td`, `*`, or a class of nothing here
                bad.append(selector.strip())
    return bad


def css_selectors(css: str) -> list[str]:
    """Every selector of every rule in ``css`` (inside ``@media`` blocks too)."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    out: list[str] = []
    pos = 0
    while True:
        brace = css.find("{", pos)
        if brace < 0:
            return out
        prelude = css[pos:brace].strip()
        depth, end = 1, brace + 1
        while depth and end < len(css):
            depth += {"{": 1, "}": -1}.get(css[end], 0)
            end += 1
        if prelude.startswith("@"):
            if prelude.startswith(("@media", "@supports", "@container", "@layer")):
                out += css_selectors(css[brace + 1:end - 1])
        elif prelude:
            out += [s for s in re.split(r",(?![^(]*\))", prelude) if s.strip()]
        pos = end


def cut_off_cells(html_text: str) -> list[str]:
    """Table cells whose text ends in ``...`` or ``…``: what pandas shows of a cell longer than max_colwidth."""
    if "<table" not in html_text:
        return []
    doc = lxml_html.fromstring(html_text)
    return [td.text_content().strip() for td in doc.iter("td") if TRUNCATED.search(td.text_content().strip())]


@pytest.mark.parametrize(("css", "expected"), [
    (".wb-summary table{x:1} .wb-summary td,.wb-summary th{y:2}", []),
    ("table{border:0}", ["table"]),
    ("body{margin:2rem} .wb-summary h1{x:1}", ["body"]),
    ("td,th{x:1}", ["td", "th"]),
    (".other td{x:1}", [".other td"]),                 # a class no element of the output carries
    ("@media (max-width:600px){td{x:1}}", ["td"]),
    ("#T_abc td{x:1}", []),
    ("/* td{x:1} */ .wb-summary td{x:1}", []),
])
def test_the_style_check_finds_page_wide_selectors(css: str, expected: list[str]) -> None:
    html_text = f"<div class='wb-summary'><style>{css}</style><table id='T_abc'><tr><td>1</td></tr></table></div>"
    assert unscoped_selectors(html_text) == expected


def test_the_cut_off_check_finds_what_pandas_shortens() -> None:
    import pandas as pd

    frame = pd.DataFrame({"message": ["x" * 80, "short"]})
    with pd.option_context("display.max_colwidth", 50):
        assert cut_off_cells(frame._repr_html_()) == ["x" * 46 + "..."]
    with pd.option_context("display.max_colwidth", None):
        assert cut_off_cells(frame._repr_html_()) == []


# --- in a browser ---------------------------------------------------------------------------------------

LAYOUT_SCRIPT = """
<script>
window.addEventListener('load', () => {
  const out = {checked: 0, overflow: [], restyled: []};
  // no cell of any output runs over the next one
  for (const td of document.querySelectorAll('.jp-OutputArea-output td, .jp-OutputArea-output th')) {
    out.checked += 1;
    if (td.scrollWidth > td.clientWidth + 1) out.overflow.push(td.textContent.trim().slice(0, 60));
  }
  // the report's styles change nothing outside the report's own output
  const h1 = [...document.querySelectorAll('h1')].find(h => h.textContent.trim() === 'Push results');
  const report = h1 ? h1.closest('.jp-OutputArea-output') : null;
  if (!report) { out.restyled.push('no push report on the page'); }
  else {
    const props = ['text-align', 'position', 'background-color', 'margin-top', 'margin-left', 'font-size',
                   'font-family', 'color', 'border-bottom-style', 'width', 'table-layout'];
    const others = [...document.body.querySelectorAll('*')].filter(el => !report.contains(el));
    const look = () => others.map(el => { const s = getComputedStyle(el); return props.map(p => s.getPropertyValue(p)).join('|'); });
    const before = look();
    for (const st of report.querySelectorAll('style')) st.disabled = true;
    const after = look();
    others.forEach((el, i) => { if (before[i] !== after[i] && out.restyled.length < 10)
      out.restyled.push(el.tagName + ' ' + (el.className || '') + ': ' + after[i] + ' -> ' + before[i]); });
    for (const st of report.querySelectorAll('style')) st.disabled = false;
  }
  const pre = document.createElement('pre');
  pre.id = 'layout-check';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>
"""


def browser_check(browser: str, page: Path, body: str, script: str, pre_id: str, window: str,
                  screenshot: Path | None = None) -> dict:
    """Open ``body`` with ``script`` added in headless Chromium; the JSON the script left in ``<pre id=pre_id>``."""
    page.write_text(body.replace("</body>", script + "</body>"), encoding="utf-8")
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", f"--window-size={window}",
             "--virtual-time-budget=5000"]
    dom = subprocess.run([browser, *flags, "--dump-dom", page.as_uri()], capture_output=True, text=True,
                         timeout=180, check=True).stdout
    if screenshot is not None:
        subprocess.run([browser, *flags, f"--screenshot={screenshot}", page.as_uri()], capture_output=True,
                       timeout=180, check=False)
    found = re.search(rf"<pre id=\"{pre_id}\">(.*?)</pre>", dom, re.S)
    assert found, "the check did not run in the browser"
    return json.loads(lxml_html.fromstring(found.group(0)).text_content())


def every_view(test):  # noqa: ANN001, ANN201 - a decorator of tests
    """Parametrize ``test`` over every notebook, in the light and the dark theme, trusted and not."""
    for mark in (pytest.mark.parametrize("trust", ["trusted", "untrusted"]),
                 pytest.mark.parametrize("theme", ["light", "dark"]),
                 pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)):
        test = mark(test)
    return test


def chromium() -> str | None:
    return next((b for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b)), None)


def test_the_push_report_in_notebook_02_lays_out_in_a_browser(tmp_path: Path) -> None:
    browser = chromium()
    if browser is None:
        pytest.skip("Chromium is not installed: the in-browser layout check of notebook 02 is skipped")
    from nbconvert import HTMLExporter

    ran = run(ROOT / "notebooks" / "02-push-rates-to-the-sandbox.ipynb")
    assert any("<h1>Push results</h1>" in text for _, text in ran.html_outputs()), "notebook 02 shows no push report"
    body, _ = HTMLExporter(template_name="lab").from_notebook_node(ran.nb)  # JupyterLab's own styles
    shot = tmp_path / "02.png"
    result = browser_check(browser, tmp_path / "02.html", body, LAYOUT_SCRIPT, "layout-check", "1000,4000",
                           screenshot=shot)
    assert result["checked"] > 50
    assert not result["overflow"], f"cells whose text runs over the next column: {result['overflow']}"
    assert not result["restyled"], f"the report restyled other tables of the page: {result['restyled'][:5]}"
    assert shot.stat().st_size > 50_000  # a page, not a blank


# --- what the notebooks use of the library (read from their source, without running them) -------------

def _source(name: str) -> str:
    nb = nbformat.read(ROOT / "notebooks" / name, as_version=4)
    return "\n".join(c.source for c in nb.cells if c.cell_type == "code")


def test_notebook_04_uses_the_librarys_formatting_not_its_own() -> None:
    source = _source("04-notifications-and-request-to-book.ipynb")
    assert "def for_people" not in source and "strftime" not in source and ".wb.show()" in source


def test_notebook_06_draws_the_countries_the_coordinates_rule_uses() -> None:
    from expectations import country_outlines

    assert "country_outlines(" in _source("06-property-content.ipynb")
    europe = dict(country_outlines(-12, 10, 36, 56))
    assert {"PT", "ES", "NL"} <= set(europe) and all(len(xs) == len(ys) > 3 for xs, ys in europe["PT"])
