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
``loading``            each command's module imported when the command is first used
=====================  =================================================================================

Exit codes of every command: 0 done; 1 errors found; 2 the input, settings or command line
cannot be used; 3 an unexpected failure (one line on the terminal, the trace in a log file;
see ``workbench.cli.exits``); 130 stopped by Ctrl-C or SIGTERM.

This package is the only one that starts the local stand-ins (``workbench.sandbox``). A command's module is
imported only when that command is used (``COMMANDS``, :mod:`workbench.cli.loading`), and heavy imports
(pandas, Great Expectations, lxml, servers) happen inside the commands, so ``workbench --help`` is instant.
"""

from __future__ import annotations

from workbench.memory import collect_less_while_starting

collect_less_while_starting()  # before typer, pydantic and rich are imported: no collections while starting

import typer  # noqa: E402

from workbench.cli import conventions  # noqa: E402
from workbench.cli.conventions import Where  # noqa: E402

#: Every command of the root, in the order ``workbench --help`` lists them, and where it lives (module of
#: ``workbench.cli``): a command (``"module:function"``), a group of its own (``"module:typer"``), or a group whose
#: commands live in several modules (``("module:typer", {command: module})``). Each module is imported when its
#: command is first used (:mod:`workbench.cli.loading`): ``workbench push availability`` imports
#: ``workbench.cli.availability`` and no other command's module.
COMMANDS: dict[str, Where] = {
    "health": "health:health",
    "demo": "demo:demo",
    "runs": "runs:runs",
    "notify": "notify:notify_app",
    "validate": ("common:validate_app", {"availability": "availability", "content": "content", "rates": "rates",
                                         "rooms": "rooms"}),
    "push": ("common:push_app", {"availability": "availability", "content": "content_push", "rates": "rates",
                                 "requests": "rates", "rooms": "rooms"}),
    "fetch": ("common:fetch_app", {"availability": "availability_read", "content": "content_fetch",
                                   "rooms": "rooms"}),
    "reconcile": ("common:reconcile_app", {"availability": "availability_read"}),
    "cars": "cars:app",
    "sandbox": "sandbox:sandbox_app",
}

app = typer.Typer(
    name="workbench",
    help="Connectivity workbench: load, validate and push hotel data; run the local sandbox.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
conventions.apply(app, COMMANDS, long=["validate", "push", "fetch", "reconcile"], sending=["push", "reconcile"],
                  root_long=["health"])


def main() -> None:
    """The ``workbench`` console script: every command's exit code is decided here, once. numpy's OpenBLAS is
    asked for no helper threads first (:func:`workbench.config.one_blas_thread`), before anything imports numpy."""
    from workbench.config import one_blas_thread

    one_blas_thread()
    from workbench.cli.exits import run

    run(app)


if __name__ == "__main__":
    main()
