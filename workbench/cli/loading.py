"""Commands imported when first used, not all of them at start.

``workbench push availability`` imports the module of the availability commands, not those of rates, rooms,
content, notify, cars, the sandbox...; ``workbench --help`` imports the root's own commands (``health``, ``runs``,
``notify``...) for their one-line help, none of the commands behind ``validate``, ``push``, ``fetch`` and
``reconcile``; ``workbench push --help`` imports the modules of the ``push`` commands. Usage errors ("No such
command", with its "Did you mean ...?") need only the names.

A group's ``commands`` is a :class:`Commands` mapping: every name is known at once, a command is built by its
loader on first look-up. :func:`lazy_group` makes the click group class that uses one;
:func:`workbench.cli.conventions.apply` gives it the loaders.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, MutableMapping
from typing import TYPE_CHECKING, Any, cast

from typer.core import TyperGroup

if TYPE_CHECKING:  # typer's own click (importing ``click`` would load a second one)
    from typer._click import Command, Context

#: builds one command (importing its module) when it is first asked for
Loader = Callable[[], "Command"]


class Commands(MutableMapping[str, "Command"]):
    """A group's commands by name, in the order given; each built by its loader on first look-up, then kept.
    Looking up a name that is not there raises ``KeyError`` (``get`` answers None) without importing anything."""

    def __init__(self, loaders: Mapping[str, Loader]) -> None:
        self._loaders = dict(loaders)
        self._built: dict[str, Command] = {}

    def __getitem__(self, name: str) -> Command:
        if name not in self._built:
            loader = self._loaders[name]  # KeyError: no such command
            self._built[name] = loader()
        return self._built[name]

    def __setitem__(self, name: str, command: Command) -> None:
        self._loaders[name] = lambda: command
        self._built[name] = command

    def __delitem__(self, name: str) -> None:
        del self._loaders[name]
        self._built.pop(name, None)

    def __contains__(self, name: object) -> bool:
        return name in self._loaders  # without building it

    def __iter__(self) -> Iterator[str]:
        return iter(self._loaders)

    def __len__(self) -> int:
        return len(self._loaders)


class LazyGroup(TyperGroup):
    """A typer group whose commands are :attr:`loaders`' (see :func:`lazy_group`), not the ones typer found
    registered when it built the group: a command is imported when it is first run or its help shown."""

    loaders: Mapping[str, Loader] = {}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.commands = Commands(self.loaders)

    def list_commands(self, ctx: Context) -> list[str]:
        return list(self.commands)  # the names only (typer's reads every command)


def lazy_group(base: type[TyperGroup], loaders: Mapping[str, Loader], name: str = "LazyGroup") -> type[TyperGroup]:
    """A group class like ``base`` (help, options) whose commands are built by ``loaders`` when first used."""
    return cast(type[TyperGroup], type(name, (LazyGroup, base), {"loaders": dict(loaders)}))
