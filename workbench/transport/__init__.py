"""HTTPS transport to the platform: hosts, auth, headers, encodings, limits, retries, ruid.

    from workbench.transport import PlatformClient, SyncPlatformClient, SendItem
    async with PlatformClient(Settings.from_env()) as client:
        result = await client.send("OTA_HotelRateAmountNotif", body, context=...)

See docs/transport.md.
"""

from workbench.transport.backoff import RetryPolicy, parse_retry_after
from workbench.transport.client import PlatformClient, SendItem, basic_auth, limiter_for, ssl_context
from workbench.transport.errors import ConfigurationError, TransportError
from workbench.transport.limiter import SlidingWindowLimiter
from workbench.transport.operations import OPERATIONS, SPEC_LIMITS, Operation, operation, parse_limits
from workbench.transport.result import Attempt, Outcome, Result
from workbench.transport.sync import SyncPlatformClient

__all__ = [
    "OPERATIONS", "SPEC_LIMITS", "Attempt", "ConfigurationError", "Operation", "Outcome", "PlatformClient",
    "Result", "RetryPolicy", "SendItem", "SlidingWindowLimiter", "SyncPlatformClient",
    "TransportError", "basic_auth", "limiter_for", "operation", "parse_limits", "parse_retry_after",
    "ssl_context",
]
