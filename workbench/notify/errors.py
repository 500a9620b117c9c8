"""Errors of the notification endpoints, grouped by what the caller can do.

    NotifyError
    ├── NotifyConfigError      bad configuration (file, option); fix it and start again
    ├── CredentialError        unknown client, bad client id, nothing to rotate or retire
    ├── InvalidToken           a bearer token that must be answered with 401 (``reason`` says why)
    ├── StoreError             the database could not be reached or written; retriable
    └── DecisionError          a request-to-book decision that cannot be recorded
        ├── LateDecision       the 24 h decision window has passed
        └── InvalidTransition  the request is not awaiting the partner's decision (or unknown)
"""

from __future__ import annotations

from workbench.errors import SettingsError, TerminalError, TransientError, WorkbenchError


class NotifyError(WorkbenchError):
    """Base class of every error raised by ``workbench.notify``."""


class NotifyConfigError(NotifyError, SettingsError):
    """A configuration value or file is wrong; the message says which and how to fix it."""


class CredentialError(NotifyError, TerminalError):
    """A client-credential operation cannot be done (unknown client, invalid id, ...)."""


class InvalidToken(NotifyError, TerminalError):
    """A bearer token was refused; ``reason`` is safe to show to the caller."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class StoreError(NotifyError, TransientError):
    """The notification store failed; the request may be retried."""


class DecisionError(NotifyError, TerminalError):
    """A request-to-book decision cannot be recorded."""


class LateDecision(DecisionError):
    """The partner's decision came after the 24-hour decision window."""


class InvalidTransition(DecisionError):
    """The request is unknown or not in a state that accepts this decision."""
