"""How a count reads for people: ``1 error``, ``2 errors``, ``1,183 requests``.

Every count the workbench shows to a person (console lines, results' summaries, Jupyter displays,
HTML pages, messages for analysts) is worded here, once: thousands separators always, the noun
agreeing with the number, never ``error(s)`` nor ``1 errors``. A noun whose plural is not its
singular plus ``s`` (``property`` / ``properties``, ``match`` / ``matches``) must be given its plural:
guessing would print ``propertys``, so :func:`count` refuses to guess. It lives in ``loaders`` (the
bottom layer) so that ``expectations`` can word its messages with it too; ``workbench.wording``
re-exports it for the rest of the workbench.
"""

from __future__ import annotations

import operator
import re
from typing import SupportsIndex

#: The singulars whose plural is not ``+s`` by the usual English rules (``-y`` after a consonant,
#: ``-s``, ``-x``, ``-z``, ``-ch``, ``-sh``): their plural must be spelled out by the caller.
IRREGULAR = re.compile(r"(?:[^aeiou]y|s|x|z|ch|sh)$")

#: What a result says when it compares with no platform: no base URL set and nothing accepted in the
#: journal to compare with. One wording everywhere (console, summaries, pages).
NO_PLATFORM = "no platform set"


def agree(n: SupportsIndex, singular: str, plural: str | None = None) -> str:
    """The word agreeing with ``n``: ``singular`` for exactly one, else ``plural`` (``singular + "s"``
    when not given). Raises ``ValueError`` for a singular whose plural cannot be guessed safely
    (``property``, ``match``, ``was``) when ``plural`` is not given."""
    if plural is None:
        if IRREGULAR.search(singular):
            raise ValueError(f"give the plural of `{singular}` explicitly (it is not `{singular}s`)")
        plural = singular + "s"
    return singular if operator.index(n) == 1 else plural


def count(n: SupportsIndex, noun: str, plural: str | None = None) -> str:
    """``n`` with thousands separators and the noun agreeing: ``count(1183, "request")`` is
    ``1,183 requests``, ``count(1, "error")`` is ``1 error``, ``count(2, "property", "properties")``
    is ``2 properties``."""
    return f"{operator.index(n):,} {agree(n, noun, plural)}"


def platform_text(target: str | None) -> str:
    """The platform a result compares with (its base URL), or :data:`NO_PLATFORM`."""
    return target or NO_PLATFORM
