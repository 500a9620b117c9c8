"""What every ``workbench`` command does the same way, applied once to the whole app (:func:`apply`):

* the long commands (``validate``, ``push`` and ``fetch`` of every kind, ``health``) take ``--quiet``,
  ``--json`` and ``--verbose`` (:mod:`workbench.cli.summary`);
* the commands that send (``push ...``) take SIGTERM as a Ctrl-C, and a Ctrl-C before anything was
  sent says so in one line, exit 130 (:mod:`workbench.cli.signals`);
* help: option values named for what they are (``FILE``, ``DIR``, ``DATE``, ``N``), not typer's
  ``<list[Path]>`` / ``<bool>``; a docstring's paragraphs flow to the terminal's width (not cut where the
  source line ends), while an indented paragraph (the ``Examples:``) keeps its lines;
* ``workbench --version``.

A command added later to one of these groups gets all of it without a line of its own.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterable
from contextlib import nullcontext
from pathlib import PurePath
from typing import Annotated, Any

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup

from workbench.cli import summary
from workbench.cli.signals import NOTHING_SENT, sigterm_as_ctrl_c

QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="Print only errors.")]
JsonOpt = Annotated[bool, typer.Option(
    "--json", help="Print one JSON object on stdout when done (counts, outcome, reports, run id, exit code); "
                   "everything else goes to stderr.")]
VerboseOpt = Annotated[bool, typer.Option(
    "--verbose", "-v", help="Print each stage as it starts, with the seconds since the command started.")]
#: option -> what its value is, where the type alone does not say it
VALUES = {"--as-of": "DATE", "--today": "DATE", "--dry-run": "DIR", "--letters": "DIR", "--issues": "DIR",
          "--state-dir": "DIR", "--wait": "SECONDS", "--scheduler": "URL"}


def apply(app: typer.Typer, long: Iterable[tuple[str, typer.Typer]], sending: Iterable[str],
          root_long: Iterable[str] = ()) -> None:
    """Wrap the commands of ``long`` (group name -> its typer) and the root's ``root_long`` commands;
    ``sending``: the groups whose commands send. Every command and group of ``app`` gets the tidy help."""
    sends = set(sending)
    for group, sub in long:
        for info in sub.registered_commands:
            info.callback = _wrapped(info.callback, f"{group} {info.name}", sends=group in sends)
    for info in app.registered_commands:
        if info.name in set(root_long):
            info.callback = _wrapped(info.callback, str(info.name), sends=False)
    _tidy(app)
    app.callback()(_root)


def _print_version(value: bool) -> None:
    if value:
        from workbench.cli.exits import version

        typer.echo(f"workbench {version()}")
        raise typer.Exit(0)


def _root(version: Annotated[bool, typer.Option(
        "--version", is_eager=True, callback=_print_version, help="Print the workbench's version and exit.")]
        = False) -> None:
    return None


def _wrapped(command: Callable[..., Any] | None, name: str, sends: bool) -> Callable[..., Any]:
    """``command`` with ``--quiet``, ``--json``, ``--verbose``; SIGTERM as Ctrl-C when it ``sends``."""
    assert command is not None
    signature = inspect.signature(command, eval_str=True)

    @functools.wraps(command)
    def run(*args: Any, quiet: bool = False, json_: bool = False, verbose: bool = False, **kwargs: Any) -> Any:
        summary.start(quiet=quiet, as_json=json_, verbose=verbose)
        code = 0
        try:
            with sigterm_as_ctrl_c() if sends else nullcontext():
                try:
                    return command(*args, **kwargs)
                except KeyboardInterrupt:
                    from workbench.cli.console import stop

                    stop(NOTHING_SENT if sends else "stopped")
        except typer.Exit as exc:
            code = exc.exit_code
            raise
        except Exception as exc:
            from workbench.cli.exits import for_people

            code = 2 if for_people(exc) else 3
            summary.error(str(exc))
            raise
        finally:
            summary.emit(name, code)
            summary.end()

    extra = [inspect.Parameter(n, inspect.Parameter.KEYWORD_ONLY, default=False, annotation=a)
             for n, a in (("quiet", QuietOpt), ("json_", JsonOpt), ("verbose", VerboseOpt))]
    params = [p for p in signature.parameters.values()]
    run.__signature__ = signature.replace(parameters=params + extra)  # type: ignore[attr-defined]
    run.__annotations__ = {**{p.name: p.annotation for p in params}, "quiet": QuietOpt, "json_": JsonOpt,
                           "verbose": VerboseOpt}
    return run


def _tidy(app: typer.Typer) -> None:
    """Every command and group of ``app`` (and of its groups) renders its help with :class:`TidyCommand`."""
    app.info.cls = app.info.cls or TidyGroup
    for info in app.registered_commands:
        if not info.cls or info.cls is TyperCommand:
            info.cls = TidyCommand
    for group in app.registered_groups:
        group.cls = group.cls or TidyGroup
        if group.typer_instance is not None:
            _tidy(group.typer_instance)


def flowing(text: str | None) -> str | None:
    """A docstring's paragraphs as single lines (the terminal wraps them), an indented paragraph kept
    line by line (examples)."""
    if not text:
        return text
    paragraphs = inspect.cleandoc(text).split("\n\n")
    return "\n\n".join(p if all(line.startswith(" ") for line in p.splitlines()) else " ".join(p.split())
                       for p in paragraphs)


#: a value's Python type -> what it is for people
TYPES = {int: "N", float: "NUMBER", str: "TEXT"}


def _value_name(param: Any) -> str:
    """What a parameter's value is for people: ``FILE``, ``DIR``, ``N``... (``""`` for a flag), from
    typer's description of its type."""
    if getattr(param, "is_flag", False):
        return ""
    named = next((VALUES[o] for o in param.opts if o in VALUES), None)
    if named:
        return named
    desc = getattr(param, "type_descriptor", None)
    if desc is None:
        return "TEXT"
    if desc.is_choice and desc.choices:
        return "|".join(str(getattr(c, "value", c)) for c in desc.choices)
    inner = getattr(desc.annotation, "__args__", None)
    kind = inner[0] if desc.is_list and inner else desc.annotation
    if desc.is_path or (isinstance(kind, type) and issubclass(kind, PurePath)):
        return "FILE"
    return TYPES.get(kind, "TEXT")


def _tidy_params(params: Iterable[Any]) -> None:
    for param in params:
        if isinstance(param, TyperArgument):
            param.metavar = param.metavar or (param.name or "value").upper()
            param.display_type_rich = lambda ctx: None  # type: ignore[method-assign]  # the name says it
        elif param.metavar is None:
            param.metavar = _value_name(param)


class _Tidy:
    """Help that names values plainly and lets paragraphs flow (see the module doc)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["help"] = flowing(kwargs.get("help"))
        super().__init__(*args, **kwargs)

    def get_params(self, ctx: Any) -> list[Any]:
        params = super().get_params(ctx)  # type: ignore[misc]
        _tidy_params(params)
        return params


class TidyCommand(_Tidy, TyperCommand):
    """A typer command with :class:`_Tidy` help."""


class TidyGroup(_Tidy, TyperGroup):
    """A typer group with :class:`_Tidy` help."""
