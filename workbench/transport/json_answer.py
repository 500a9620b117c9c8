"""How the client reads a modular JSON API's answer: the envelope ``{data, warnings, errors, meta{ruid}}``
parsed once (``workbench.modular.envelope``) and judged by the codes the platform publishes.

- a 2xx with no errors: success (its warnings kept);
- errors the data or the platform's refusal causes (``320/321/394`` fix the data, ``150`` refused, any other
  code): rejected, never resent;
- ``448`` (system error) and ``450`` (unable to process): failed, resent by the retry policy;
- 429 and 503 (not processed) and the ambiguous 5xx without such a code: as for every operation;
- a 2xx that is not an envelope: unrecognised, never read as success.

Every answer's ``meta.ruid`` is its ruid. Each error and warning becomes a :class:`~workbench.ota.response.Notice`
(code, ``short_text`` the message, ``details`` the description and the JSON paths, ``record_id`` the paths),
the shape the journal keeps for the XML operations' ``Errors`` too.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from workbench.modular.envelope import RETRY_LATER, ApiError, Envelope, EnvelopeParseError, parse_envelope
from workbench.ota import Notice, extract_ruid
from workbench.transport.result import Outcome

#: members of which at least one makes a JSON object an answer envelope
ENVELOPE_MEMBERS = frozenset({"data", "errors", "warnings", "meta"})
NOT_PROCESSED = frozenset({429, 503})
AMBIGUOUS_5XX = frozenset({500, 502, 504})
FATAL_STATUS = frozenset({401, 403, 407, 415, 421, 501})

__all__ = ["JsonVerdict", "judge_json", "notices"]


@dataclass(frozen=True)
class JsonVerdict:
    """What a JSON answer comes to (the client turns it into a :class:`~workbench.transport.result.Result`)."""

    outcome: Outcome
    envelope: Envelope | None
    ruid: str | None
    error: str | None = None
    retry: bool = False
    maybe_applied: bool = False
    fatal: bool = False


def notices(items: Iterable[ApiError], kind: str) -> tuple[Notice, ...]:
    """The envelope's errors or warnings as notices: code, message, description with the JSON paths."""
    out = []
    for item in items:
        paths = ", ".join(item.fields)
        details = "; ".join(p for p in (item.description, f"at {paths}" if paths else "") if p)
        out.append(Notice(kind=kind, code=None if item.code is None else str(item.code),
                          short_text=item.message or None, details=details or None, record_id=paths or None))
    return tuple(out)


def _envelope(body: bytes) -> tuple[Envelope | None, str | None]:
    """The envelope, or why the body is not one."""
    if not body.strip():
        return None, "empty body"
    try:
        env = parse_envelope(body)
    except EnvelopeParseError as exc:
        return None, str(exc)
    import json  # parse_envelope accepted it: it is a JSON object

    members = set(json.loads(body))
    if not members & ENVELOPE_MEMBERS:
        return None, f"a JSON object without {', '.join(sorted(ENVELOPE_MEMBERS))}"
    return env, None


def _start(body: bytes, limit: int = 200) -> str:
    text = " ".join(body[: limit * 2].decode("utf-8", "replace").split())
    return (text[:limit] + "…") if len(text) > limit else (text or "(empty body)")


def judge_json(status: int, body: bytes, idempotent: bool) -> JsonVerdict:
    """The verdict on one JSON answer (HTTP ``status``, raw ``body``) of an operation (``idempotent``)."""
    env, problem = _envelope(body)
    ruid = env.ruid if env is not None and env.ruid else extract_ruid(body)
    if status in NOT_PROCESSED:
        return JsonVerdict(Outcome.FAILED, env, ruid, f"HTTP {status}", retry=True)
    if env is not None and env.errors:
        text = "; ".join(e.text() for e in env.errors)
        if env.kind == RETRY_LATER:
            return JsonVerdict(Outcome.FAILED, env, ruid, f"HTTP {status}: {text} (retry later)", retry=True)
        return JsonVerdict(Outcome.REJECTED, env, ruid, None if 200 <= status < 300 else f"HTTP {status}: {text}",
                           fatal=status in FATAL_STATUS)
    if 200 <= status < 300:
        if env is None:
            return JsonVerdict(Outcome.UNRECOGNISED, None, ruid, f"unrecognised answer (HTTP {status}, not the JSON "
                               f"envelope: {problem}): {_start(body)}", maybe_applied=not idempotent)
        return JsonVerdict(Outcome.SUCCESS, env, ruid)
    if status in AMBIGUOUS_5XX:
        return JsonVerdict(Outcome.FAILED, env, ruid, f"HTTP {status}", retry=idempotent, maybe_applied=not idempotent)
    if status >= 500:
        return JsonVerdict(Outcome.FAILED, env, ruid, f"HTTP {status}", fatal=status in FATAL_STATUS)
    return JsonVerdict(Outcome.REJECTED, env, ruid, f"HTTP {status}: {problem or 'no error in the answer'}",
                       fatal=status in FATAL_STATUS)
