"""The notification sender stand-in (CNS): the OAuth2 client that pushes notifications to the
partner's endpoints (:mod:`workbench.sandbox.cns.client`)."""

from __future__ import annotations

from workbench.sandbox.cns.client import CnsClient, CnsConfig, CnsError, Delivery, notification

__all__ = ["CnsClient", "CnsConfig", "CnsError", "Delivery", "notification"]
