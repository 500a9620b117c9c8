"""The one send driver: every kind of data reaches the platform through :func:`send`.

For a kind (:class:`~workbench.writers.kind.Kind`) and its :class:`~workbench.writers.planned.Planned`
requests, under the journal's send lock (:mod:`workbench.writers.send_lock`):

1. a run is opened; requests an earlier run left unfinished are marked ``interrupted``;
2. a create already made for its reference (custom ID, RoomID) is not sent again; one whose answer
   was never seen (the sender died, or the answer was ambiguous) is settled by reading the platform
   (:meth:`Kind.resolve`) or held back as unclear, never blindly sent twice;
3. every request is journalled with the state it would establish before anything is sent, and
   marked ``sending`` just before it goes;
4. the requests go through the rate-limited, retrying client, many in flight; each answer is read
   by the kind (:meth:`Kind.answer`) and journalled as it arrives, its state accepted on success;
5. answers the kind resends (``BuildHotel``) go again after the kind's wait, in rounds;
6. creates left unclear are read back (:meth:`Kind.resolve`).

A Ctrl-C or SIGTERM during the send journals the requests in flight as ``interrupted`` (unclear) and
raises :class:`PushInterrupted` carrying what was sent, so the caller still writes its reports.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from workbench.config import Settings
from workbench.errors import WorkbenchError
from workbench.transport.errors import ConfigurationError
from workbench.wording import agree, count
from workbench.writers.journal import PARTIAL, Journal
from workbench.writers.kind import Answer, Kind
from workbench.writers.outcome import notice_text
from workbench.writers.planned import Planned
from workbench.writers.send_lock import send_lock

if TYPE_CHECKING:
    from workbench.transport.client import PlatformClient, SendItem
    from workbench.transport.result import Result

NOT_SENT = "not sent"
ACCEPTING = ("success", PARTIAL)  # answers whose (applied) state the journal accepts
STATUS_OUTCOME = {"sending": "unknown", "pending": "not sent", "not made": "failed"}


@dataclass
class Held:
    """A request the driver did not send, and why (a create already made, or unclear)."""

    planned: Planned
    outcome: str
    message: str
    made: str | None = None


@dataclass
class Sent:
    """What :func:`send` did: the run, the journal's view of its requests (``frame``), the planned
    request of each id, the last answer of each, and what was held back."""

    run_id: int
    target: str
    journal: Path
    frame: pd.DataFrame
    planned: dict[int, Planned]
    results: dict[int, Result] = field(default_factory=dict)
    held: list[Held] = field(default_factory=list)
    interrupted: bool = False

    @property
    def sent(self) -> int:
        return int(self.frame["status"].isin(["success", PARTIAL, "rejected", "failed", "unrecognised",
                                                  "interrupted"]).sum()) \
            if len(self.frame) else 0


class PushInterrupted(WorkbenchError):
    """Ctrl-C or SIGTERM during a push: ``sent`` says what the journal holds (requests in flight are
    ``interrupted``: they may have been applied). Run the same command again to resume."""

    def __init__(self, message: str, sent: Sent) -> None:
        super().__init__(message)
        self.sent = sent
        self.result: Any = None  # the kind's push result of what was sent, when its flow made one


@contextmanager
def result_when_stopped(make: Callable[[Sent], Any]) -> Iterator[None]:
    """Around a kind's :func:`send`: the :class:`PushInterrupted` of a Ctrl-C / SIGTERM carries
    ``make(sent)``, the kind's result of what was sent, so the caller still writes its reports."""
    try:
        yield
    except PushInterrupted as stopped:
        if stopped.result is None:
            stopped.result = make(stopped.sent)
        raise


def target_of(settings: Settings) -> str:
    """The platform a push goes to (its base URL); :class:`ConfigurationError` when none is set."""
    if not settings.base_url:
        raise ConfigurationError("no target: set WORKBENCH_BASE_URL (or give the sandbox's connection.env with "
                                 "--env-file)")
    return settings.base_url.rstrip("/")


def send(kind: Kind, planned: Sequence[Planned] | Callable[[Journal], Sequence[Planned]], settings: Settings, *, journal: str | Path, command: str = "",
         progress: bool = True, client: Any | None = None, client_options: dict | None = None,
         lock_wait: float = 0.0, sleep: Callable[[float], object] = time.sleep,
         counts: dict[str, int] | None = None) -> Sent:
    """Send ``planned`` (requests of ``kind``) to the platform of ``settings`` (see the module docstring).

    ``planned`` may be a function of the journal, called once its send lock is held (a delta against
    what it accepted). ``client``: a :class:`~workbench.transport.sync.SyncPlatformClient` to send through (default: one
    made from ``settings`` and ``client_options``); ``counts``: figures the run records (``cells_total``,
    ``cells_changed``)."""
    target = target_of(settings)
    with send_lock(journal, wait=lock_wait, command=command), Journal(journal) as j:
        run_id = j.start_run(target, command, kind=kind.info.name)
        lazy = _Client(client, settings, client_options)
        try:
            wanted = planned(j) if callable(planned) else planned
            go, held = _guard(kind, j, target, wanted, lazy)
            ids = kind.record(j, run_id, target, go) if go else []
            state = _Run(kind, j, target, dict(zip(ids, go, strict=True)))
            try:
                if ids:
                    state.send_rounds(lazy.get(), ids, progress, sleep)
                if state.unclear:
                    state.settle(lazy.get())
            except (KeyboardInterrupt, SystemExit) as exc:
                sent = _interrupt(j, run_id, target, state, held)
                raise PushInterrupted(_stopped_line(sent), sent) from exc
        finally:
            lazy.close()
        frame = j.requests(run_id)
        failed = int((frame["status"] != "success").sum()) if len(frame) else 0
        j.finish_run(run_id, "done" if failed == 0 else "done_with_failures", requests=len(go), **(counts or {}))
    return Sent(run_id, target, Path(journal), frame, state.planned, state.results, held)


class _Client:
    """The client to send through: the caller's, or one made on first use (nothing to send: none)."""

    def __init__(self, given: Any | None, settings: Settings, options: dict | None) -> None:
        self.given, self.settings, self.options = given, settings, options
        self.made: Any = None

    def get(self) -> Any:
        if self.given is not None:
            return self.given
        if self.made is None:
            from workbench.transport.sync import SyncPlatformClient  # httpx: only when something is sent

            self.made = SyncPlatformClient(self.settings, **(self.options or {}))
        return self.made

    def close(self) -> None:
        if self.made is not None:
            self.made.close()


def _guard(kind: Kind, j: Journal, target: str, planned: Sequence[Planned], client: _Client
           ) -> tuple[list[Planned], list[Held]]:
    """The requests to send, and the creates held back: made already, or unclear and not settled."""
    go: list[Planned] = []
    held: list[Held] = []
    for p in planned:
        found = j.created_of(target, p.kind, p.creates) if p.creates else None
        if found is None:
            go.append(p)
            continue
        status, made, ruid = found
        if status == "created":  # already there: nothing left to do for it
            held.append(Held(p, "success", f"not sent: `{p.creates}` was created earlier as {made} (journal"
                                           f"{f', ruid {ruid}' if ruid else ''}); it is never created twice", made))
            continue
        settled = kind.resolve(client.get(), p)
        if settled.made is not None:
            j.record_created(target, p.kind, str(p.creates), settled.made, ruid)
            held.append(Held(p, "success", f"not sent: `{p.creates}` was created by an earlier push whose answer "
                                           f"was lost; found on the platform as {settled.made}{settled.note}",
                             settled.made))
        elif settled.known:
            j.forget_created(target, p.kind, str(p.creates))
            go.append(p)
        else:
            held.append(Held(p, "unclear", kind.unclear_text(p, ruid)))
    return go, held


class _Run:
    """The answers of one run as they arrive (journalled by :meth:`record`)."""

    def __init__(self, kind: Kind, j: Journal, target: str, planned: dict[int, Planned]) -> None:
        self.kind, self.j, self.target, self.planned = kind, j, target, planned
        self.results: dict[int, Result] = {}
        self.sends: dict[int, int] = defaultdict(int)
        self.attempts: dict[int, int] = defaultdict(int)
        self.ruids: dict[int, list[str]] = defaultdict(list)
        self.unclear: list[int] = []
        self.resend: dict[int, float] = {}
        self.fatal = False
        self.bar: Any = None

    def send_rounds(self, sync: Any, ids: list[int], progress: bool, sleep: Callable[[float], object]) -> None:
        if not ids:
            return
        from workbench.display import progress_bar as tqdm  # a notebook keeps the finished bar as text

        self.bar = tqdm(total=len(ids), unit="req", desc=f"Pushing {self.kind.info.name}", disable=not progress,
                        leave=True)
        try:
            todo = ids
            while todo:
                self.resend = {}
                sync.run(lambda client, batch=todo: self._round(client, batch))
                if self.fatal or not self.resend:
                    break
                sleep(max(self.resend.values()))
                todo = list(self.resend)
        finally:
            self.bar.close()

    async def _round(self, client: PlatformClient, ids: list[int]) -> None:
        from workbench.transport.client import SendItem

        def items() -> Iterator[SendItem]:
            for rid in ids:
                p = self.planned[rid]
                self.j.mark_sending(rid)  # journalled before it is sent
                yield SendItem(p.operation, p.body, context=rid, idempotent=p.idempotent, method=p.method, path=p.path)

        await client.send_many(items(), on_result=self.record)

    def record(self, result: Result) -> None:
        rid = int(result.context)
        p = self.planned[rid]
        self.sends[rid] += 1
        self.attempts[rid] += result.attempts
        self.ruids[rid] += [r for r in result.ruids if r not in self.ruids[rid]] or (
            [result.ruid] if result.ruid and result.ruid not in self.ruids[rid] else [])
        self.results[rid] = result
        self.fatal = self.fatal or result.fatal
        delay = None if result.fatal else self.kind.resend_after(p, result, self.sends[rid])
        if delay is not None:
            self.resend[rid] = delay
        answer = self.kind.answer(p, result, self.sends[rid], self.ruids[rid])
        if answer.unclear:
            self.unclear.append(rid)
        self._journal(rid, p, result, answer)
        if delay is None and self.bar is not None:
            self.bar.update(1)
            if not result.ok:
                self.bar.set_postfix_str(f"last problem: {result.summary()[:60]}")

    def _journal(self, rid: int, p: Planned, result: Result, answer: Answer) -> None:
        creates = p.creates if (answer.made is not None or answer.unclear) else None
        self.j.record_result(
            rid, self.target, status=answer.status, http_status=result.status, ruid=result.ruid,
            attempts=self.attempts[rid], errors=[_notice(n) for n in result.errors],
            warnings=[_notice(n) for n in result.warnings], error=answer.error, kind=p.kind,
            ruids=self.ruids[rid], made=answer.made, creates=creates, note=answer.note,
            accept=self.kind.accept(p, result, answer) if answer.status in ACCEPTING else None)

    def settle(self, sync: Any) -> None:
        """Read back the creates whose answer left it unclear whether they were made."""
        for rid in self.unclear:
            p = self.planned[rid]
            settled = self.kind.resolve(sync, p, sent_now=True)
            result = self.results[rid]
            if settled.made is not None:
                self.j.record_result(rid, self.target, status="success", http_status=result.status, ruid=result.ruid,
                                     attempts=self.attempts[rid], errors=[], warnings=[],
                                     error=None, kind=p.kind, ruids=self.ruids[rid], made=settled.made,
                                     creates=p.creates, note=f"created (confirmed by reading the property back after: "
                                                             f"{result.error or 'no id in the answer'}){settled.note}",
                                     accept=self.kind.accept(p, result, Answer("success", settled.made)))
            elif settled.known:
                self.j.forget_created(self.target, p.kind, str(p.creates))
                why = settled.note or (f"the platform was read back and `{p.creates}` is not there, so it was not "
                                       "made; push again to make it")
                self.j.db.execute("UPDATE requests SET status='failed', note=? WHERE request_id=?",
                                  (f"{result.error or result.outcome.value}: {why}", rid))


def _interrupt(j: Journal, run_id: int, target: str, state: _Run, held: list[Held]) -> Sent:
    """After Ctrl-C / SIGTERM: what was in flight is ``interrupted`` (it may have been applied)."""
    j.db.execute("UPDATE requests SET status='interrupted' WHERE run_id=? AND status='sending'", (run_id,))
    j.finish_run(run_id, "interrupted")
    return Sent(run_id, target, j.path, j.requests(run_id), state.planned, state.results, held, interrupted=True)


def _stopped_line(sent: Sent) -> str:
    done = int((sent.frame["status"] != "pending").sum()) if len(sent.frame) else 0
    if not done:
        return "stopped: nothing was sent"
    return (f"stopped: {count(done, 'request')} {agree(done, 'was', 'were')} sent and {agree(done, 'is', 'are')} in "
            f"the journal `{sent.journal}`; run the same command "
            "again to resume (nothing accepted is sent twice)")


def _notice(n: object) -> dict[str, str]:
    """What the journal keeps of a notice: code, texts, type and the ``RecordID`` it points at."""
    out = {k: getattr(n, k) or "" for k in ("code", "short_text", "details", "record_id") if hasattr(n, k)}
    text = getattr(n, "text", None)
    if not out.get("short_text") and text:  # a B.XML <error>text</error>
        out["short_text"] = str(text)
    return out | {"type": str(getattr(n, "type", "") or "")}


def requests_frame(sent: Sent) -> pd.DataFrame:
    """The run's requests in the shared columns (``request_id``, then the outcome columns), with the
    key, property and what of each, for a kind to add its own identity columns to."""
    f = sent.frame
    src = {rid: p.source_rows() for rid, p in sent.planned.items()}
    out = pd.DataFrame({
        "request_id": f["request_id"], "key": f["key"], "property": f["property"], "what": f["what"],
        "messages": f["messages"], "items": f["cells"],
        "outcome": f["status"].replace(STATUS_OUTCOME),
        "http_status": f["http_status"].astype("Int64"), "ruid": f["ruid"], "attempts": f["attempts"].astype("Int64"),
        "errors": f["errors"], "warnings": f["warnings"],
        "codes": [", ".join(n.get("code", "") for n in e + w) for e, w in zip(f["errors"], f["warnings"],
                                                                              strict=True)],
        "texts": [" | ".join(notice_text(n) for n in e + w) for e, w in zip(f["errors"], f["warnings"],
                                                                            strict=True)],
        "error": f["error"], "note": f["note"], "made": f["made"], "ruids": f["ruids"],
        "source_rows": f["request_id"].map(src),
    })
    return out
