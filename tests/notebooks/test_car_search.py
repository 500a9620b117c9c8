"""notebooks/05-car-search.ipynb runs, draws its plot, labels its links, and never shows the API key."""

from __future__ import annotations

from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbformat.v4 import new_code_cell

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "05-car-search.ipynb"


def _text(output: dict) -> str:
    if output.get("output_type") == "stream":
        return str(output.get("text", ""))
    data = output.get("data", {})
    return "".join(str(v) for k, v in data.items() if k.startswith("text/"))


def test_car_search_notebook_runs_without_showing_the_key() -> None:
    nb = nbformat.read(NOTEBOOK, as_version=4)
    assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code"), "save the notebook without outputs"
    nb.cells.append(new_code_cell("print(settings.api_key.reveal())"))  # read back the key the sandbox made up
    client = NotebookClient(nb, timeout=180, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOK.parent)}})
    client.execute()
    outputs = [o for c in nb.cells[:-1] if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    key = _text(nb.cells[-1].outputs[0]).strip()
    assert len(key) >= 20
    text = "\n".join(_text(o) for o in outputs)
    assert key not in text
    assert "offers from" in text and "car search not sent" in text
    assert "label=newsletter%202026%2F07%20%26%20friends" in text
    assert any("image/png" in o.get("data", {}) for o in outputs)  # the price-by-supplier plot
