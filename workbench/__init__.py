"""The connectivity workbench: everything that talks to the outside world, and the apps.

Pure parts live in the sibling packages ``loaders`` (files -> canonical frames) and
``expectations`` (frames -> issues frame). This package holds settings, the OTA message
builders, writers, transport, reports, the sandbox and the CLI.
"""

from workbench.config import Secret, Settings

__all__ = ["Secret", "Settings"]
