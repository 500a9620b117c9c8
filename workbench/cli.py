"""The ``workbench`` command line.

Heavy imports (pandas, Great Expectations, lxml, servers) happen inside the commands, so
``workbench --help`` is instant. Each capability registers its own sub-app here.
"""

from __future__ import annotations

import typer

app = typer.Typer(
    name="workbench",
    help="Connectivity workbench: load, validate and push hotel data; run the local sandbox.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

from workbench.cli_rates import push_app, validate_app  # noqa: E402
from workbench.cli_demo import register as _register_demo  # noqa: E402
from workbench.notify.cli import notify_app  # noqa: E402

app.add_typer(notify_app, name="notify")

app.add_typer(validate_app, name="validate")
app.add_typer(push_app, name="push")
from workbench.cli_rooms import fetch_app  # noqa: E402  (also registers `validate rooms` and `push rooms`)

app.add_typer(fetch_app, name="fetch")
from workbench.cars.cli import app as cars_app  # noqa: E402

app.add_typer(cars_app, name="cars")
from workbench.cli_sandbox import sandbox_app  # noqa: E402

app.add_typer(sandbox_app, name="sandbox")
_register_demo(app)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
