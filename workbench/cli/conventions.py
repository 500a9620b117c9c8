"""What every ``workbench`` command does the same way, applied once to the whole app (:func:`apply`):

* the long commands (``validate``, ``push`` and ``fetch`` of every kind, ``health``) take ``--quiet``,
  ``--json`` and ``--verbose`` (:mod:`workbench.cli.summary`);
* the commands that send (``push ...``) take SIGTERM as a Ctrl-C, and a Ctrl-C before anything was
  sent says so in one line, exit 130 (:mod:`workbench.cli.signals`);
* help: option values named for what they are (``FILE``, ``DIR``, ``DATE``, ``N``), not typer's
  ``<list[Path]>`` / ``<bool>``; a docstring's paragraphs flow to the terminal's width (not cut where the
  source line ends), while an indented paragraph (the ``Examples:``) keeps its lines;
* ``workbench --version``;
* each command's module imported when the command is first used (:mod:`workbench.cli.loading`), so a command
  imports only what it needs.

A command added later to one of these groups gets all of it with one line: its name and module in
``workbench.cli.COMMANDS``.
"""

from __future__ import annotations

import copy
import functools
import inspect
from collections.abc import Callable, Iterable, Mapping
from contextlib import nullcontext
from dataclasses import dataclass
from importlib import import_module
from pathlib import PurePath
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperArgument, TyperCommand, TyperGroup
from typer.main import get_command_from_info, get_group_from_info
from typer.models import CommandInfo

if TYPE_CHECKING:
    from typer._click import Command  # typer's own click (importing ``click`` would load a second one)

from workbench.cli import summary
from workbench.cli.loading import lazy_group
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


#: where a command of the root lives: ``"module:attribute"`` of ``workbench.cli`` (a command's function, or a
#: typer of commands of its own), or, for a group whose commands live in several modules, ``("module:attribute"``
#: of the group's typer, ``{command: module}``)
Where = str | tuple[str, Mapping[str, str]]


def apply(app: typer.Typer, commands: Mapping[str, Where], long: Iterable[str], sending: Iterable[str],
          root_long: Iterable[str] = ()) -> None:
    """Give ``app`` the root's ``commands`` (name -> :data:`Where`), each module imported when the command is
    first used (:mod:`workbench.cli.loading`). The commands of the groups ``long`` and the root's ``root_long``
    commands take --quiet/--json/--verbose; ``sending``: the groups whose commands send. Every command and group
    gets the tidy help."""
    build = _Build(app, long=set(long), sends=set(sending), root_long=set(root_long))
    loaders = {name: functools.partial(build.root, name, where) for name, where in commands.items()}
    app.info.cls = lazy_group(TidyGroup, loaders, "WorkbenchGroup")
    app.callback()(_root)


@dataclass(frozen=True)
class _Build:
    """Builds one command or group of the root when it is first used (the loaders of :func:`apply`)."""

    app: typer.Typer
    long: set[str]
    sends: set[str]
    root_long: set[str]

    def root(self, name: str, where: Where) -> Command:
        """The root's command or group ``name``, from ``where``."""
        if not isinstance(where, str):
            shared, members = _attribute(where[0]), where[1]  # e.g. common.push_app: each module adds its commands
            loaders = {command: functools.partial(self.member, shared, name, command, module)
                       for command, module in members.items()}
            return self.group(shared, name, lazy_group(TidyGroup, loaders, f"{name.title()}Group"))
        found = _attribute(where)
        if isinstance(found, typer.Typer):
            _tidy(found)
            return self.group(found, name, TidyGroup)
        holder = typer.Typer()  # registered as ``app.command(name)(found)`` would
        holder.command(name)(found)
        return self.command(holder.registered_commands[0], name, long=name in self.root_long, sends=False)

    def member(self, group: typer.Typer, group_name: str, command: str, module: str) -> Command:
        """Command ``command`` of ``group``, registered by importing ``workbench.cli.<module>``."""
        import_module(f"workbench.cli.{module}")
        info = next((i for i in group.registered_commands if i.name == command), None)
        if info is None:
            raise LookupError(f"workbench.cli.{module} does not register `{group_name} {command}`")
        return self.command(copy.copy(info), f"{group_name} {command}", long=group_name in self.long,
                            sends=group_name in self.sends)

    def command(self, info: CommandInfo, name: str, long: bool, sends: bool) -> Command:
        """``info`` (a copy: the registered one is left as it is) as a click command, with the options of a long
        command when ``long``."""
        if long:
            info.callback = _wrapped(info.callback, name, sends=sends)
        if not info.cls or info.cls is TyperCommand:
            info.cls = TidyCommand
        return get_command_from_info(info, pretty_exceptions_short=self.app.pretty_exceptions_short,
                                     rich_markup_mode=self.app.rich_markup_mode)

    def group(self, sub: typer.Typer, name: str, cls: type[TyperGroup]) -> Command:
        """The typer ``sub`` as the click group ``name`` of class ``cls`` (as ``app.add_typer(sub, name=name)``)."""
        holder = typer.Typer()
        holder.add_typer(sub, name=name, cls=cls)
        return get_group_from_info(holder.registered_groups[0], pretty_exceptions_short=self.app.pretty_exceptions_short,
                                   suggest_commands=self.app.suggest_commands,
                                   rich_markup_mode=self.app.rich_markup_mode)


def _attribute(where: str) -> Any:
    """``"module:attribute"`` of ``workbench.cli``, its module imported."""
    module, _, attribute = where.partition(":")
    return getattr(import_module(f"workbench.cli.{module}"), attribute)


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
