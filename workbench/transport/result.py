"""What one request came to: :class:`Result` (outcome, HTTP status, parsed answer, ruid,
attempts) with the caller's ``context`` attached, so a journal can record it as it arrives."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from workbench.ota import Notice, OTAResponse


def _json_notices(items: Any, kind: str) -> tuple[Notice, ...]:
    from workbench.transport.json_answer import notices  # the JSON reading, only for JSON answers

    return notices(items, kind)


class Outcome(StrEnum):
    SUCCESS = "success"  # applied; warnings may accompany it
    REJECTED = "rejected"  # the platform refused it (OTA Errors, 4xx): fix the data or settings; nothing changed
    FAILED = "failed"  # no usable answer after every attempt (429/5xx/connection/unreadable): send again later
    UNRECOGNISED = "unrecognised"  # a 2xx answer that is neither success nor error: never read as success


@dataclass(frozen=True)
class Attempt:
    """One try: HTTP status (None when no answer came), its ruid, or the error instead."""

    number: int
    status: int | None
    ruid: str | None
    error: str | None
    seconds: float
    waited: float  # limiter and backoff wait before this try


@dataclass(frozen=True)
class Result:
    operation: str
    outcome: Outcome
    status: int | None
    response: OTAResponse | None
    ruid: str | None
    attempts: int
    history: tuple[Attempt, ...]
    context: Any = None
    body: bytes = b""
    error: str | None = None
    maybe_applied: bool = False  # an ambiguous failure on a non-idempotent call: check before resending
    fatal: bool = False  # a settings problem (auth, host, content type, TLS): every request would fail
    seconds: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)
    situation: str = ""  # the row of the classification table (workbench.transport.verdicts.RULES) it came to
    #: a JSON API's answer envelope (``workbench.modular.envelope.Envelope``: data, warnings, errors, ruid)
    envelope: Any = None
    deprecations: tuple[Notice, ...] = ()  # what the answer's headers announce (code DEPRECATED)
    refusals: tuple[Notice, ...] = ()  # what the client read in the refusal (code SUNSET: what to use instead)

    @property
    def ok(self) -> bool:
        return self.outcome is Outcome.SUCCESS

    @property
    def errors(self) -> tuple[Notice, ...]:
        """What the client read in a refusal (a sunset: what to use instead), then the answer's errors."""
        own = _json_notices(self.envelope.errors, "error") if self.envelope is not None else (
            self.response.errors if self.response else ())
        return (*self.refusals, *own)

    @property
    def warnings(self) -> tuple[Notice, ...]:
        """The answer's warnings, then the deprecation its headers announce."""
        own = _json_notices(self.envelope.warnings, "warning") if self.envelope is not None else (
            self.response.warnings if self.response else ())
        return (*own, *self.deprecations)

    @property
    def data(self) -> Any:
        """A JSON API's answer ``data`` (decoded; None when absent or not a JSON answer)."""
        return self.envelope.data if self.envelope is not None else None

    @property
    def ruids(self) -> tuple[str, ...]:
        """Request ids of every attempt that got an answer (quote them to support)."""
        return tuple(a.ruid for a in self.history if a.ruid)

    def summary(self) -> str:
        """One line for people; what is not known (no answer, so no HTTP status or ruid) is said so."""
        codes = ", ".join(n.code or "?" for n in (*self.errors, *self.warnings))
        answer = f"HTTP {self.status}" if self.status is not None else "no answer"
        ruid = f"; ruid {self.ruid}" if self.ruid else ""
        return (f"{self.operation}: {self.outcome.value} ({answer}, {self.attempts} attempt(s)"
                f"{', ' + codes if codes else ''}{', ' + self.error if self.error else ''}{ruid})")
