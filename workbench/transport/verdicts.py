"""Every way the platform client classifies a call, as one table: the situation, the outcome, whether
it is retried, whether it stops the run (fatal), whether the call may have been applied, and what
the report says. The client takes each verdict from :data:`RULES`, and ``docs/transport.md`` shows
:func:`rules_table` (a test keeps the two equal), so code and docs cannot drift apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from workbench.ota import OTAResponse
from workbench.transport.answer import BAD_ENCODING, TOO_LARGE, TOO_SLOW
from workbench.transport.result import Attempt, Outcome, Result


class Retried(StrEnum):
    YES = "yes"  # the platform did not process it (or it was never sent): always safe to send again
    IF_IDEMPOTENT = "if idempotent"  # it may have been applied: only a call that can be repeated is resent
    NO = "no"  # resending gets the same answer


@dataclass(frozen=True)
class Rule:
    """One row of the table. ``maybe_applied`` holds for calls that are not idempotent."""

    situation: str
    outcome: Outcome
    retried: Retried
    fatal: bool
    maybe_applied: bool
    report: str

    def verdict(self, key: str, idempotent: bool, *, status: int | None = None, response: OTAResponse | None = None,
                ruid: str | None = None, body: bytes = b"", error: str | None = None) -> Verdict:
        retry = self.retried is Retried.YES or (self.retried is Retried.IF_IDEMPOTENT and idempotent)
        return Verdict(key, self.outcome, status, response, ruid, body, error, retry,
                       self.maybe_applied and not idempotent, self.fatal)


@dataclass(frozen=True)
class Verdict:
    """What one attempt came to, and whether to try again."""

    situation: str
    outcome: Outcome
    status: int | None
    response: OTAResponse | None
    ruid: str | None
    body: bytes
    error: str | None
    retry: bool = False
    maybe_applied: bool = False
    fatal: bool = False
    envelope: Any = None  # a JSON API's answer envelope (workbench.transport.json_answer)

    def result(self, operation: str, context: Any, history: tuple[Attempt, ...], seconds: float) -> Result:
        return Result(operation, self.outcome, self.status, self.response, self.ruid, len(history), history, context,
                      self.body, self.error, self.maybe_applied, self.fatal, seconds, situation=self.situation,
                      envelope=self.envelope)


SUCCESS = "success"
REJECTED = "rejected"
REJECTED_CREDENTIALS = "rejected_credentials"
UNRECOGNISED = "unrecognised"
NOT_PLATFORM = "not_platform"
UNREADABLE = "unreadable"
NOT_PROCESSED = "status_not_processed"
AMBIGUOUS_5XX = "status_ambiguous"
FATAL_5XX = "status_501"
OTHER_5XX = "status_other_5xx"
FATAL_STATUS = "status_settings"
REJECTED_STATUS = "status_rejected"
NOT_SENT = "not_sent"
NO_ANSWER = "no_answer"
TLS = "tls"
OTHER_FAILURE = "transport_other"
#: a modular JSON API's answer: judged by its envelope's codes (workbench.transport.json_answer), not by RULES
JSON_ANSWER = "json_answer"

_F, _S, _R, _U = Outcome.FAILED, Outcome.SUCCESS, Outcome.REJECTED, Outcome.UNRECOGNISED
_YES, _IDEM, _NO = Retried.YES, Retried.IF_IDEMPOTENT, Retried.NO

#: situation key -> rule, in the order of the docs' table.
RULES: dict[str, Rule] = {
    SUCCESS: Rule("2xx: OTA `Success` (a write), B.XML `<ok/>` (a write), content and no error (a read)",
                  _S, _NO, False, False, "success, with the answer's `Warnings`"),
    REJECTED: Rule("2xx with OTA `Errors/Error`, a B.XML `<error>` or a `<fault>`", _R, _NO, False, False,
                   "the code and text of every error"),
    REJECTED_CREDENTIALS: Rule("2xx with a `<fault>` 401/403 (credentials)", _R, _NO, True, False,
                               "the fault's code and text"),
    UNRECOGNISED: Rule("2xx, well-formed XML that is none of these (an `…RS` with neither `Success` nor `Errors`, "
                       "another root than the operation's, `<ok/>` to a read)", _U, _NO, False, True,
                       "`unrecognised answer (HTTP 200, …)` and the start of the body"),
    NOT_PLATFORM: Rule("2xx that is neither XML nor JSON (an HTML page from a proxy or portal, plain text, bytes)",
                       _U, _NO, False, True, "`not an answer of the platform (HTTP 200, an HTML page)` and the "
                       "start of the body"),
    UNREADABLE: Rule("2xx that is empty, or XML or JSON that cannot be read (cut off in transit)", _F, _IDEM, False,
                     True, "`unreadable answer (HTTP 200): …` and the start of the body"),
    TOO_LARGE: Rule("an answer larger than `MAX_ANSWER_BYTES` after decoding (a gzip bomb)", _F, _IDEM, False, True,
                    "`answer larger than 64 MiB after decoding`"),
    TOO_SLOW: Rule("a call not over within `REQUEST_DEADLINE_SECONDS` (an answer trickling a byte a second)",
                   _F, _IDEM, False, True, "`answer not finished within 120 s`"),
    BAD_ENCODING: Rule("an answer whose `Content-Encoding` is wrong (says gzip, is not), damaged, or not asked for",
                       _F, _IDEM, False, True, "`answer says gzip but is not gzip`"),
    NOT_PROCESSED: Rule("429, 503 (not processed)", _F, _YES, False, False,
                        "`HTTP 429`; `Retry-After` is waited, a 429 holds the endpoint meanwhile"),
    AMBIGUOUS_5XX: Rule("500, 502, 504", _F, _IDEM, False, True, "`HTTP 502`"),
    FATAL_5XX: Rule("501 (the platform does not offer it: wrong host or path)", _F, _NO, True, False, "`HTTP 501`"),
    OTHER_5XX: Rule("another 5xx (505, …)", _F, _NO, False, False, "`HTTP 505`"),
    FATAL_STATUS: Rule("401, 403, 407, 415, 421 (credentials, content type, host)", _R, _NO, True, False,
                       "`HTTP 401: ` and the first error's text"),
    REJECTED_STATUS: Rule("another status: 4xx, 3xx (redirects are not followed)", _R, _NO, False, False,
                          "`HTTP 400: ` and the first error's text"),
    NOT_SENT: Rule("no connection: connect error or timeout, no free connection in time (nothing was sent)",
                   _F, _YES, False, False, "`ConnectError: …`"),
    NO_ANSWER: Rule("sent, no answer: read or write error or timeout, dropped connection", _F, _IDEM, False, True,
                    "`ReadError: …`"),
    TLS: Rule("TLS refused: certificate not trusted or not for this host, server below TLS 1.2", _F, _NO, True,
              False, "`TLS failed: …` and the setting to check"),
    OTHER_FAILURE: Rule("any other failure of the HTTP layer (a proxy refused, an unsupported URL)", _F, _NO, True,
                        False, "the error's name and text"),
}


def verdict(key: str, idempotent: bool, **fields: Any) -> Verdict:
    """The verdict of situation ``key`` for a call that is (or is not) ``idempotent``."""
    return RULES[key].verdict(key, idempotent, **fields)


def rules_table() -> str:
    """:data:`RULES` as the Markdown table ``docs/transport.md`` shows."""
    def yes(flag: bool, when: str = "yes") -> str:
        return when if flag else "no"

    lines = ["| situation | outcome | retried? | fatal? | maybe_applied? | the report says |",
             "|---|---|---|---|---|---|"]
    lines += [f"| {r.situation} | {r.outcome.value} | {r.retried.value} | {yes(r.fatal)} | "
              f"{yes(r.maybe_applied, 'if not idempotent')} | {r.report} |" for r in RULES.values()]
    return "\n".join(lines)
