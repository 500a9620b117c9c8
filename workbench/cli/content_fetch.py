"""``workbench fetch content``: read properties back into the content workbook's layout through the modular APIs'
``GET`` calls (``--api modular``, the only read the platform offers for content)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from workbench.cli.common import EnvFileOpt, fetch_app
from workbench.cli.console import console, fail, written


@fetch_app.command("content")
def fetch_content_cmd(
    hotel: Annotated[list[int], typer.Option("--hotel", help="Property id (HotelCode); may repeat.")],
    out: Annotated[Path, typer.Option("--out", help="Write the content workbook (one sheet per part) to this new "
                                                    ".xlsx.")],
    api: Annotated[str, typer.Option("--api", help="Read through the modular APIs (`modular`, the only content "
                                                   "read the platform has).")] = "modular",
    env_file: EnvFileOpt = None,
) -> None:
    """Read properties' content (details, settings, contacts, facilities, charges) into the content workbook.

    Exit code 0: written; 2: the command line, settings or a read cannot be used.
    """
    from workbench.cli.common import load_settings
    from workbench.errors import PlatformReadError, SettingsError
    from workbench.flows import fetch_content_modular, write_content_workbook
    from workbench.transport import ConfigurationError

    if api != "modular":
        fail(f"--api `{api}`: content is read back only through the modular APIs; give --api modular")
    if out.suffix.lower() != ".xlsx":
        fail(f"--out `{out}`: content is written as an Excel workbook; give a name ending in .xlsx")
    if out.exists():
        fail(f"--out `{out}` exists: give a new file name (a fetch never overwrites a workbook)")
    try:
        settings = load_settings(env_file)
    except SettingsError as exc:
        fail(str(exc))
    if not settings.base_url:
        fail("no platform is configured: give --env-file (e.g. a sandbox's connection.env) or set WORKBENCH_BASE_URL")
    try:
        with console.status("Reading content…"):
            frames = fetch_content_modular(settings, hotel)
    except (PlatformReadError, ConfigurationError) as exc:
        fail(str(exc))
    for part, frame in frames.items():
        if len(frame):
            console.print(f"  [bold]{escape(part)}[/]: {len(frame)} row(s)")
    try:
        written(write_content_workbook(frames, out), "Written")
    except (ValueError, OSError) as exc:
        fail(f"cannot write `{out}`: {exc}")
