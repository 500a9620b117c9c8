"""The partner's notification endpoints (spec E6, Authentication §2-4, Events).

The workbench is the OAuth2 authorization server (``POST /oauth/token``, RS256 JWTs) and the
resource server (``POST /notifications``) that the platform's notification service calls.
Notifications are stored durably and once per ``metadata.uuid``; request-to-book requests are
tracked against their 24-hour windows.

    from workbench.notify import NotifyService, create_app, read_notifications
"""

from workbench.notify.app import create_app
from workbench.notify.config import (
    AlertConfig,
    NotifyConfig,
    ReceiverConfig,
    RequestToBookConfig,
    TokenConfig,
)
from workbench.notify.credentials import IssuedSecret
from workbench.notify.errors import (
    CredentialError,
    DecisionError,
    InvalidToken,
    InvalidTransition,
    LateDecision,
    NotifyConfigError,
    NotifyError,
    StoreError,
)
from workbench.notify.frames import (
    alerts_frame,
    dead_letters_frame,
    expand_payload,
    notifications_frame,
    parse_since,
    read_notifications,
)
from workbench.notify.monitor import Alert, command_hook
from workbench.notify.rtb import OPEN_STATES, STATES, RequestToBook
from workbench.notify.server import Endpoints, endpoints, write_env
from workbench.notify.service import NotifyService

__all__ = [
    "OPEN_STATES",
    "STATES",
    "Alert",
    "AlertConfig",
    "CredentialError",
    "DecisionError",
    "Endpoints",
    "InvalidToken",
    "InvalidTransition",
    "IssuedSecret",
    "LateDecision",
    "NotifyConfig",
    "NotifyConfigError",
    "NotifyError",
    "NotifyService",
    "ReceiverConfig",
    "RequestToBook",
    "RequestToBookConfig",
    "StoreError",
    "TokenConfig",
    "alerts_frame",
    "command_hook",
    "create_app",
    "dead_letters_frame",
    "endpoints",
    "expand_payload",
    "notifications_frame",
    "parse_since",
    "read_notifications",
    "write_env",
]
