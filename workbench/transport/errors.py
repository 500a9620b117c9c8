"""Errors of the transport, grouped by what the caller can do:

- ``TransportError``
  - ``ConfigurationError``: the settings cannot work (no base URL, not HTTPS, CA file missing, no
    credentials, a sunset ``Accept-Version``); fix the settings, nothing was sent.
    - ``TokenRefused``: the token exchange refused the client id and secret.
  - ``TokenUnavailable``: no token could be had now (the exchange failed or did not answer); try later.
    - ``TokenBudgetExhausted``: the account's 30 exchanges of the last hour are spent; ``next_allowed``
      says when the next one is allowed. The exchange was not attempted.

A token problem stops a run: :meth:`~workbench.transport.client.PlatformClient.send_many` lets the calls
in flight finish (each reported to ``on_result``) and then raises it, so a journal says what went.
Per-request problems are not raised: they come back in a :class:`~workbench.transport.result.Result`
whose ``outcome`` says whether to fix the data (``rejected``) or send again later (``failed``).
"""

from __future__ import annotations

import datetime as dt

from workbench.errors import SettingsError, TransientError, WorkbenchError


class TransportError(WorkbenchError):
    """Base of the transport's exceptions."""


class ConfigurationError(TransportError, SettingsError):
    """The client cannot be set up from these settings; the message says which one to fix."""


class TokenRefused(ConfigurationError):
    """The token exchange refused this machine account (HTTP 400/401/403): fix the client id or secret."""


class TokenUnavailable(TransportError, TransientError):
    """No token could be had now; the same exchange may succeed later."""


class TokenBudgetExhausted(TokenUnavailable):
    """The account made its 30 token exchanges of the last hour; the next is allowed at ``next_allowed``."""

    def __init__(self, message: str, next_allowed: dt.datetime) -> None:
        super().__init__(message)
        self.next_allowed = next_allowed
