"""The workbench's exceptions: one tree, grouped by what the caller can do about them.

::

    WorkbenchError
    ├── InputError ............ fix the data: the message says what, where (file, sheet, row,
    │   │                       column) and how; nothing was sent
    │   ├── BlockedByErrors ... errors found in the checked input (``.issues`` holds them)
    │   ├── SearchParamsError . car search parameters (workbench.cars)
    │   └── BadEnvelope ....... an unusable notification body (workbench.notify)
    ├── SettingsError ......... fix the settings (URL, credentials, CA bundle, config file)
    │   ├── ConfigurationError  the platform client cannot be set up (workbench.transport)
    │   ├── CarsConfigError ... car search settings; LegacyCredentialsError
    │   └── NotifyConfigError . notification service settings
    ├── TransientError ........ retry later: the same call may succeed (429, 5xx, connection)
    │   ├── CarsRateLimitError, CarsServerError, CarsConnectionError
    │   └── StoreError ........ the notification store is unreachable (the sender retries)
    └── TerminalError ......... give up and report: retrying will not help
        ├── PlatformReadError . a read from the platform failed or could not be understood
        ├── OperationSunset ... the operation is past its sunset for this account
        ├── CarsClientError, CarsAuthError, CarsResponseError
        └── CredentialError, InvalidToken, DecisionError (workbench.notify)

``loaders.LoadError`` (a file cannot be used at all) belongs with :class:`InputError`: it lives in
the ``loaders`` package, which knows nothing of the workbench, so catch ``(LoadError, InputError)``
for "fix the data" (both are exported by ``workbench``). This module imports nothing heavy, so
any module may raise from it. Per-request problems of a push are not raised: they come back as results whose outcome
says whether to fix the data (``rejected``) or send again later (``failed``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd


class WorkbenchError(Exception):
    """Base of every exception the workbench raises on purpose."""


class InputError(WorkbenchError):
    """The input data cannot be sent as it is; fix it (the message says where)."""


class SettingsError(WorkbenchError, ValueError):
    """The settings cannot work; fix the named setting. Nothing was sent."""


class TransientError(WorkbenchError):
    """A passing failure (rate limit, server error, connection): the same call may succeed later."""


class TerminalError(WorkbenchError):
    """Retrying will not help: report it (with the ruid or request id the message carries)."""


class BlockedByErrors(InputError):
    """Errors were found in the checked input; nothing was written or sent.

    ``issues`` holds the issues behind it when they are not the caller's own check's (e.g. errors
    found by merging the sheet with the platform's state).
    """

    def __init__(self, message: str, issues: pd.DataFrame | None = None) -> None:
        super().__init__(message)
        self.issues = issues


class PlatformReadError(TerminalError, RuntimeError):
    """A read from the platform failed; the message says which properties and why (with ruids)."""


class OperationSunset(TerminalError):
    """The operation is past its sunset for this account (spec, Versioning)."""


__all__ = [
    "BlockedByErrors", "InputError", "OperationSunset", "PlatformReadError",
    "SettingsError", "TerminalError", "TransientError", "WorkbenchError",
]
