"""Every notebook opened in a real JupyterLab (a server started here, on loopback) in headless
Chromium, in the light and the dark theme, trusted (signed) and not: the outputs JupyterLab renders
show no raw missing-value marker (``<NA>``, ``NaN``, ``None``, ``NaT``), no cell cut off with ``...``,
and a summary's title and verdict read apart even when the notebook is untrusted (its ``<style>``
dropped). Screenshots of the dark theme go to ``out/notebook-screens/lab-*.png`` for people to look
at. Slow.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import nbformat
import pytest
from lxml import html as lxml_html

from tests.notebooks.test_notebooks import ROOT, chromium, every_view, run

pytestmark = pytest.mark.slow

RAW_MARKERS = {"<NA>", "NaN", "nan", "None", "NaT"}
SCREENS = ROOT / "out" / "notebook-screens"
THEMES = {"light": "JupyterLab Light", "dark": "JupyterLab Dark"}
TOKEN = "notebook-check"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Lab:
    """A JupyterLab server on loopback over ``root``, its settings and data folders its own."""

    def __init__(self, root: Path) -> None:
        self.root, self.port = root, _free_port()
        self.settings = root / ".settings"
        self.env = {**os.environ, "JUPYTERLAB_SETTINGS_DIR": str(self.settings),
                    "JUPYTER_DATA_DIR": str(root / ".data"), "JUPYTER_RUNTIME_DIR": str(root / ".runtime")}
        self.news_off()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root", f"--port={self.port}",
             "--ServerApp.ip=127.0.0.1", f"--ServerApp.token={TOKEN}", f"--ServerApp.root_dir={root}"],
            env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{self.url}/api/status?token={TOKEN}", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.5)
        self.stop()
        raise RuntimeError("JupyterLab did not start within 90 s")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def _setting(self, plugin: str, values: dict) -> None:
        path = self.settings / "@jupyterlab" / plugin
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values), encoding="utf-8")

    def news_off(self) -> None:
        self._setting("apputils-extension/notification.jupyterlab-settings", {"fetchNews": "false"})

    def theme(self, name: str) -> None:
        self._setting("apputils-extension/themes.jupyterlab-settings", {"theme": THEMES[name]})

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    assert chromium(), "Chromium is needed (apt-get install chromium; .ci/run installs it)"
    root = tmp_path_factory.mktemp("lab")
    server = Lab(root)
    try:
        yield server
    finally:
        server.stop()


def _open(lab: Lab, path: Path, trust: str) -> str:
    """The run notebook saved into the server's folder (signed when trusted); its name there."""
    nb = nbformat.from_dict(json.loads(json.dumps(run(path).nb)))
    name = f"{path.stem}-{trust}.ipynb"
    if trust == "trusted":
        old = os.environ.get("JUPYTER_DATA_DIR")
        os.environ["JUPYTER_DATA_DIR"] = lab.env["JUPYTER_DATA_DIR"]  # the server's notary, its secret
        try:
            from nbformat.sign import NotebookNotary

            NotebookNotary().sign(nb)
        finally:
            if old is None:
                os.environ.pop("JUPYTER_DATA_DIR", None)
            else:
                os.environ["JUPYTER_DATA_DIR"] = old
    nbformat.write(nb, lab.root / name)
    return name


@every_view
def test_notebook_reads_well_in_jupyterlab(lab: Lab, path: Path, theme: str, trust: str) -> None:
    browser = chromium()
    assert browser
    lab.theme(theme)
    name = _open(lab, path, trust)
    page = f"{lab.url}/lab/tree/{name}?token={TOKEN}"
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1600,2400",
             "--virtual-time-budget=25000"]
    dom = subprocess.run([browser, *flags, "--dump-dom", page], capture_output=True, text=True, timeout=240).stdout
    if theme == "dark":  # the theme most likely to hide something (a second page load: dark only, for time)
        SCREENS.mkdir(parents=True, exist_ok=True)
        subprocess.run([browser, *flags, f"--screenshot={SCREENS / f'lab-{path.stem}-{theme}-{trust}.png'}", page],
                       capture_output=True, timeout=240, check=False)
    doc = lxml_html.fromstring(dom)
    outputs = doc.find_class("jp-OutputArea-output")
    assert outputs, f"{path.name}: JupyterLab rendered no output (did the page load?)"
    cells = [el.text_content().strip() for out in outputs for el in out.iter("td", "th", "li", "b")]
    raw = [c for c in cells if c in RAW_MARKERS]
    assert not raw, f"{path.name} ({theme}, {trust}): raw missing-value markers: {raw[:10]}"
    cut = [c for out in outputs for td in out.iter("td") if (c := td.text_content().strip()).endswith(("...", "…"))]
    assert not cut, f"{path.name} ({theme}, {trust}): cells cut off: {cut[:5]}"
    for head in (h for out in outputs for h in out.find_class("wb-head")):
        text = " ".join(head.text_content().split())
        assert " — " in text or not head.find_class("wb-title")[0].text_content(), text  # "Rates check — blocked"
    assert f'data-jp-theme-name="{THEMES[theme]}"' in dom  # the page was in the theme asked for
