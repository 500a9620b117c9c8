"""Errors of the transport, grouped by what the caller can do:

- ``TransportError``
  - ``ConfigurationError``: the settings cannot work (no base URL, not HTTPS, CA file missing);
    fix the settings, nothing was sent.

Per-request problems are not raised: they come back in a :class:`~workbench.transport.result.Result`
whose ``outcome`` says whether to fix the data (``rejected``) or send again later (``failed``).
"""

from __future__ import annotations

from workbench.errors import SettingsError, WorkbenchError


class TransportError(WorkbenchError):
    """Base of the transport's exceptions."""


class ConfigurationError(TransportError, SettingsError):
    """The client cannot be set up from these settings; the message says which one to fix."""
