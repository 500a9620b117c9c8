"""notebooks/04-notifications-and-request-to-book.ipynb: shows the inbox and the open requests,
refuses a late decision, and never shows the client secret."""

from __future__ import annotations

from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbformat.v4 import new_code_cell

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "04-notifications-and-request-to-book.ipynb"


def _text(output: dict) -> str:
    if output.get("output_type") == "stream":
        return str(output.get("text", ""))
    return "".join(str(v) for k, v in output.get("data", {}).items() if k.startswith("text/"))


def test_notifications_notebook_runs_and_keeps_the_secret() -> None:
    nb = nbformat.read(NOTEBOOK, as_version=4)
    assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code"), "save the notebook without outputs"
    nb.cells.append(new_code_cell("print(creds.secret)"))  # read back the secret the notebook made
    client = NotebookClient(nb, timeout=180, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOK.parent)}})
    client.execute()
    outputs = [o for c in nb.cells[:-1] if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    secret = _text(nb.cells[-1].outputs[0]).strip()
    assert len(secret) == 36
    text = "\n".join(_text(o) for o in outputs)
    assert secret not in text
    assert "duplicate" in text and "RTB-1002 is now awaiting_guest_confirmation" in text
    assert "refused: request `RTB-1001`" in text and "ineligible" in text
    assert "forged token -> 401" in text
