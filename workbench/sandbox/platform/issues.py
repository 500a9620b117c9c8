"""What the platform stand-in tells a caller is wrong: an :class:`Issue` (an ``Error`` or ``Warning``
in the answer, the call was read) and a :class:`Misuse` (the call is refused before any handler
runs: wrong host, credentials, Content-Type, encoding...)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Issue:
    """An ``Error`` or ``Warning`` to answer with; ``record_id`` names the part of the request it is
    about: for rates the ``RateAmountMessage``, its ``LocatorID`` when the request gave one (OTA:
    "communicate back to the sender exactly which transaction may have had a problem"), else its
    1-based position; in a JSON answer, the field (``details.fields``)."""

    code: str
    short_text: str
    details: str = ""
    record_id: int | str | None = None


class Misuse(Exception):
    """A request the platform does not serve as intended (wrong host, content type, encoding...)."""

    def __init__(self, status: int, code: str, text: str, headers: Mapping[str, str] | None = None) -> None:
        super().__init__(text)
        self.status, self.code, self.text = status, code, text
        self.headers = dict(headers or {})
