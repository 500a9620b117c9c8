"""HTTPS transport to the platform: hosts, auth (tokens, shared per account; or Basic), headers, encodings, limits, retries, ruid.

    from workbench.transport import PlatformClient, SyncPlatformClient, SendItem
    async with PlatformClient(Settings.from_env()) as client:
        result = await client.send("OTA_HotelRateAmountNotif", body, context=...)

See docs/transport.md. Names load on first use (``loaders.lazy``): a dry run, which only needs
the operation catalogue and the send-time estimate, does not import httpx and ssl.
"""

from typing import TYPE_CHECKING

from loaders.lazy import lazy_exports

_EXPORTS = {
    "workbench.transport.backoff": ("RetryPolicy", "parse_retry_after"),
    "workbench.transport.client": ("PlatformClient", "SendItem", "auth_for", "basic_auth", "limiter_for",
                                   "ssl_context"),
    "workbench.transport.errors": ("ConfigurationError", "TokenBudgetExhausted", "TokenRefused", "TokenUnavailable",
                                   "TransportError"),
    "workbench.transport.limiter": ("SlidingWindowLimiter",),
    "workbench.transport.operations": ("OPERATIONS", "SPEC_LIMITS", "Operation", "operation", "parse_limits"),
    "workbench.transport.result": ("Attempt", "Outcome", "Result"),
    "workbench.transport.sync": ("SyncPlatformClient",),
    "workbench.transport.token_auth": ("TokenAuth", "TokenSource"),
    "workbench.transport.token_cache": ("TokenCache",),
}

__all__ = [
    "OPERATIONS", "SPEC_LIMITS", "Attempt", "ConfigurationError", "Operation", "Outcome", "PlatformClient",
    "Result", "RetryPolicy", "SendItem", "SlidingWindowLimiter", "SyncPlatformClient", "TokenAuth",
    "TokenBudgetExhausted", "TokenCache", "TokenRefused", "TokenSource", "TokenUnavailable",
    "TransportError", "auth_for", "basic_auth", "limiter_for", "operation", "parse_limits", "parse_retry_after",
    "ssl_context",
]

__getattr__, __dir__ = lazy_exports(__name__, {name: module for module, names in _EXPORTS.items() for name in names})

if TYPE_CHECKING:  # for type checkers and IDEs; at run time names load lazily
    from workbench.transport.backoff import RetryPolicy, parse_retry_after
    from workbench.transport.client import (
        PlatformClient,
        SendItem,
        auth_for,
        basic_auth,
        limiter_for,
        ssl_context,
    )
    from workbench.transport.errors import (
        ConfigurationError,
        TokenBudgetExhausted,
        TokenRefused,
        TokenUnavailable,
        TransportError,
    )
    from workbench.transport.limiter import SlidingWindowLimiter
    from workbench.transport.operations import OPERATIONS, SPEC_LIMITS, Operation, operation, parse_limits
    from workbench.transport.result import Attempt, Outcome, Result
    from workbench.transport.sync import SyncPlatformClient
    from workbench.transport.token_auth import TokenAuth, TokenSource
    from workbench.transport.token_cache import TokenCache
