"""How a count reads for people (``1 error``, ``1,183 requests``): the one helper of every console
line, summary, Jupyter display, page and message, from ``loaders.wording`` (the bottom layer, so
that ``expectations`` words its messages the same way)."""

from loaders.wording import NO_PLATFORM, agree, count, platform_text

__all__ = ["NO_PLATFORM", "agree", "count", "platform_text"]
