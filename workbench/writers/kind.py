"""A kind of data, as the one send driver sees it: how its requests are journalled, how an answer is
read (the id a create got, whether to resend), how an unclear create is settled by reading the
platform, and what becomes the accepted state.

:class:`Kind` gives the behaviour every kind shares; a kind overrides what differs (rates journal
their cells in tables of their own; content resends ``BuildHotel``; room types and content read a
create's id from the answer). See "How to add a kind of data" in ``docs/architecture.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from workbench.writers.outcome import KindInfo

if TYPE_CHECKING:
    from workbench.transport.result import Result
    from workbench.writers.journal import Journal
    from workbench.writers.planned import Planned


@dataclass
class Answer:
    """How one answer counts: ``status`` (success, rejected, failed, unrecognised), ``made`` (the id a
    create got), ``note`` (a line for people), ``unclear`` (a create that may have been made)."""

    status: str
    made: str | None = None
    note: str | None = None
    unclear: bool = False
    error: str | None = None


@dataclass
class Resolution:
    """What reading the platform says of a create whose answer was never seen: ``made`` (its id: it
    was made), or ``known`` without ``made`` (it was not made: it may be sent again), or neither
    (the platform cannot tell: held as unclear)."""

    made: str | None = None
    known: bool = False
    note: str = ""


class Kind:
    """The defaults of a kind of data (override what differs)."""

    info: KindInfo

    def record(self, journal: Journal, run_id: int, target: str, planned: Sequence[Planned]) -> list[int]:
        """Journal the requests (``pending``) with the state they would establish, before sending."""
        return journal.add_planned(run_id, target, planned)

    def answer(self, planned: Planned, result: Result, sends: int, ruids: Sequence[str]) -> Answer:
        """How an answer counts. A create that failed in a way that may have applied it is unclear."""
        status = result.outcome.value
        if planned.creates and not result.ok and (result.maybe_applied or (not result.response and not result.fatal
                                                                           and status == "failed")):
            return Answer(status, unclear=True, error=result.error)
        return Answer(status, error=result.error)

    def resend_after(self, planned: Planned, result: Result, sends: int) -> float | None:
        """Seconds to wait before sending the same request again (None: no resend)."""
        return None

    def accept(self, planned: Planned, result: Result, answer: Answer) -> list[tuple[str, str]] | None:
        """The items that become accepted on success (None: the request's own); on a ``partial`` answer
        (applied in part), the items it applied."""
        return None

    def resolve(self, client: Any, planned: Planned, *, sent_now: bool = False) -> Resolution:
        """Read the platform to settle a create whose answer was never seen (default: it cannot tell):
        ``sent_now`` after sending it in this run, else before (it was sent by an earlier run)."""
        return Resolution()

    def unclear_text(self, planned: Planned, ruid: str | None) -> str:
        """What to tell the analyst about a create held back because it may have been made."""
        return (f"unclear: an earlier {planned.what} for `{planned.creates}` of property {planned.property} got no "
                f"clear answer{f' (ruid {ruid})' if ruid else ''}, so it may have been made; it is not sent again. "
                f"Check property {planned.property} on the platform and put the id it has on the row")
