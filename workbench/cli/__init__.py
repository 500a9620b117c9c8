"""The ``workbench`` command line: one module per command group.

=====================  =================================================================================
module                 commands
=====================  =================================================================================
``rates``              ``validate rates``, ``push rates``
``availability``       ``validate availability``, ``push availability``
``availability_read``  ``fetch availability``, ``reconcile availability``
``rooms``              ``validate rooms``, ``push rooms``, ``fetch rooms``
``content``            ``validate content``
``content_push``       ``push content`` (``--api ota|modular``)
``content_fetch``      ``fetch content`` (the modular APIs' reads)
``sandbox``            ``sandbox serve``
``notify``             ``notify serve|credentials|keys|list|...|send``
``cars``               ``cars search|languages|suppliers|depots|link|sandbox``
``health``             ``health`` (``--availability``)
``runs``               ``runs`` (the journal's last runs)
``demo``               ``demo``
``console``            printing for people (issue tables, clean failures)
``exits``              exit codes, and no traceback on the terminal (crash logs)
``conventions``        what every command does alike: --json/--quiet/--verbose, SIGTERM, help, --version
``paths``              output paths checked against the inputs before any work
``kinds``              the wrong kind of workbook recognised before it is read
=====================  =================================================================================

Exit codes of every command: 0 done; 1 errors found; 2 the input, settings or command line
cannot be used; 3 an unexpected failure (one line on the terminal, the trace in a log file;
see ``workbench.cli.exits``); 130 stopped by Ctrl-C or SIGTERM.

This package is the only one that starts the local stand-ins (``workbench.sandbox``). Heavy
imports (pandas, Great Expectations, lxml, servers) happen inside the commands, so
``workbench --help`` is instant.
"""

from __future__ import annotations

import typer

from workbench.cli import availability as _availability  # noqa: F401 - registers `validate|push availability`
from workbench.cli import availability_read as _availability_read  # noqa: F401 - `fetch|reconcile availability`
from workbench.cli import content as _content  # noqa: F401 - registers `validate content`
from workbench.cli import content_fetch as _content_fetch  # noqa: F401 - registers `fetch content`
from workbench.cli import content_push as _content_push  # noqa: F401 - registers `push content`
from workbench.cli import conventions
from workbench.cli import rates as _rates  # noqa: F401 - registers `validate rates`, `push rates|requests`
from workbench.cli import rooms as _rooms  # noqa: F401 - registers `validate|push|fetch rooms`
from workbench.cli.cars import app as cars_app
from workbench.cli.common import fetch_app, push_app, reconcile_app, validate_app
from workbench.cli.demo import demo
from workbench.cli.health import health
from workbench.cli.notify import notify_app
from workbench.cli.runs import runs
from workbench.cli.sandbox import sandbox_app

app = typer.Typer(
    name="workbench",
    help="Connectivity workbench: load, validate and push hotel data; run the local sandbox.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(notify_app, name="notify")
app.add_typer(validate_app, name="validate")
app.add_typer(push_app, name="push")
app.add_typer(fetch_app, name="fetch")
app.add_typer(reconcile_app, name="reconcile")
app.add_typer(cars_app, name="cars")
app.add_typer(sandbox_app, name="sandbox")
app.command("health")(health)
app.command("demo")(demo)
app.command("runs")(runs)
conventions.apply(app, long=[("validate", validate_app), ("push", push_app), ("fetch", fetch_app),
                             ("reconcile", reconcile_app)], sending=["push", "reconcile"], root_long=["health"])


def main() -> None:
    """The ``workbench`` console script: every command's exit code is decided here, once."""
    from workbench.cli.exits import run

    run(app)


if __name__ == "__main__":
    main()
