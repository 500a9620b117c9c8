"""Reading an answer's body without trusting it: decoded as its ``Content-Encoding`` says (gzip,
deflate or none, the encodings the clients ask for), never more than a cap after decoding, within
a deadline. A server that lies about its encoding, inflates to gigabytes or trickles one byte a
second ends that one call with an :class:`AnswerProblem`, never the run.

The cap holds while decoding: zlib is asked for at most what is left below the cap (a quarter
megabyte at a time), so an answer that inflates a thousandfold costs the cap and a little more, never
its inflated size. Shared by the platform client (async) and the car search client (sync);
:class:`AnswerReader` does no I/O.
"""

from __future__ import annotations

import io
import time
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import httpx

from workbench.config import PREFIX, Limits, Settings

#: What the clients ask for; an answer in any other encoding is refused (it was not asked for).
ACCEPT_ENCODING = "gzip, deflate"
_ZLIB_WBITS = {"gzip": zlib.MAX_WBITS | 16, "x-gzip": zlib.MAX_WBITS | 16, "deflate": zlib.MAX_WBITS}
#: Most bytes asked of zlib at once: it builds each output twice over (blocks, then the bytes).
_STEP = 256 << 10

#: Situations of :class:`AnswerProblem` (keys of ``workbench.transport.verdicts.RULES``).
TOO_LARGE = "answer_too_large"
TOO_SLOW = "answer_too_slow"
BAD_ENCODING = "answer_bad_encoding"


@dataclass(frozen=True)
class AnswerLimits:
    """The most an answer may be after decoding, and the time a whole call (connect, send, the whole
    answer) may take: ``WORKBENCH_MAX_ANSWER_BYTES`` and ``WORKBENCH_REQUEST_DEADLINE_SECONDS``
    (0: twice ``WORKBENCH_TIMEOUT_SECONDS``, the longest silence a call may have)."""

    max_bytes: int
    deadline_seconds: float

    @classmethod
    def from_settings(cls, settings: Settings) -> AnswerLimits:
        """The limits of ``settings``; ``ValueError`` naming the setting when one cannot work."""
        if settings.max_answer_bytes < 1:
            raise ValueError(f"{PREFIX}MAX_ANSWER_BYTES `{settings.max_answer_bytes}` must be a number of bytes "
                             f"above 0 (default {size_text(Limits.max_answer_bytes)})")
        if settings.request_deadline_seconds < 0 or settings.timeout_seconds <= 0:
            raise ValueError(f"{PREFIX}REQUEST_DEADLINE_SECONDS `{settings.request_deadline_seconds}` and "
                             f"{PREFIX}TIMEOUT_SECONDS `{settings.timeout_seconds}` must be above 0 "
                             "(a deadline of 0 means twice the timeout)")
        return cls(settings.max_answer_bytes, settings.request_deadline_seconds or 2 * settings.timeout_seconds)


class AnswerProblem(Exception):
    """The answer could not be read: ``situation`` says which way, ``text`` says it for people."""

    def __init__(self, situation: str, text: str) -> None:
        super().__init__(text)
        self.situation = situation
        self.text = text


def size_text(n: int) -> str:
    """``64 MiB``, ``512 KiB`` or ``1,000 bytes``: a size as people set it."""
    for unit, name in ((1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")):
        if n >= unit and n % unit == 0:
            return f"{n // unit} {name}"
    return f"{n:,} bytes"


def too_large(limit: int) -> AnswerProblem:
    return AnswerProblem(TOO_LARGE, f"answer larger than {size_text(limit)} after decoding")


def too_slow(seconds: float) -> AnswerProblem:
    return AnswerProblem(TOO_SLOW, f"answer not finished within {seconds:g} s")


class AnswerReader:
    """Collects one answer's body chunk by chunk (raw bytes as they arrived), decoding as it goes.

    Raises :class:`AnswerProblem` from the constructor (an encoding not asked for, a declared length
    over the cap), from :meth:`feed` (over the cap, not the encoding it says) or :meth:`finish`.
    """

    def __init__(self, headers: Mapping[str, str], limit: int) -> None:
        self.limit = limit
        self._body = io.BytesIO()  # grows in place; getvalue() hands its buffer over without a copy
        self._size = 0
        self._magic: bytes | None = None  # the first two bytes as sent (gzip starts 1f 8b)
        codings = [c.strip().lower() for c in headers.get("content-encoding", "").split(",")]
        codings = [c for c in codings if c and c != "identity"]
        self.encoding = codings[0] if len(codings) == 1 else ", ".join(codings)
        if codings and self.encoding not in _ZLIB_WBITS:
            raise AnswerProblem(BAD_ENCODING, f"answer says {self.encoding}, which was not asked for "
                                              f"(Accept-Encoding: {ACCEPT_ENCODING})")
        self._zlib = zlib.decompressobj(_ZLIB_WBITS[self.encoding]) if codings else None
        self._held = b""  # deflate: the first bytes, until two tell a zlib header from raw deflate
        declared = headers.get("content-length", "")
        if self._zlib is None and declared.isdigit() and int(declared) > limit:
            raise self._too_large()

    def _too_large(self) -> AnswerProblem:
        return too_large(self.limit)

    def _keep(self, data: bytes) -> None:
        self._size += len(data)
        if self._size > self.limit:
            raise self._too_large()
        self._body.write(data)

    def feed(self, chunk: bytes) -> None:
        if self._zlib is None:
            self._keep(chunk)
            return
        if self._magic is None:
            self._held += chunk
            if len(self._held) < 2:
                return
            chunk, self._held = self._held, b""
            self._magic = chunk[:2]
            if self.encoding == "deflate" and not _zlib_header(self._magic):  # raw deflate, as some servers send
                self._zlib = zlib.decompressobj(-zlib.MAX_WBITS)
        data = chunk
        try:
            while data:  # ask for at most one byte past the cap (a full answer is then too large); input
                # zlib has not used yet (unconsumed_tail) remains only when it gave all it was asked for
                self._keep(self._zlib.decompress(data, min(self.limit - self._size + 1, _STEP)))
                data = self._zlib.unconsumed_tail
        except zlib.error as exc:
            raise self._not_encoded(exc) from None

    def _not_encoded(self, exc: zlib.error) -> AnswerProblem:
        name = self.encoding
        if "gzip" in name and self._magic == b"\x1f\x8b":
            return AnswerProblem(BAD_ENCODING, f"answer's {name} data is damaged ({exc})")
        return AnswerProblem(BAD_ENCODING, f"answer says {name} but is not {name}")

    def finish(self) -> bytes:
        """The whole decoded body."""
        if self._zlib is not None:
            if self._held:  # one byte in all: no zlib stream is that short
                raise AnswerProblem(BAD_ENCODING, f"answer says {self.encoding} but is not {self.encoding}")
            try:  # nothing is left unconsumed here (that would be over the cap): only what zlib still holds,
                # so no length (flush allocates its length up front)
                self._keep(self._zlib.flush())
            except zlib.error as exc:
                raise self._not_encoded(exc) from None
        return self._body.getvalue()


def _zlib_header(first: bytes) -> bool:
    """Whether two bytes open a zlib stream (RFC 1950: method 8, window up to 32 KiB, a multiple of 31);
    a real encoder's raw deflate never starts so (a stored block's padding is zero, other blocks' type
    bits are not 00)."""
    return first[0] & 0x0F == 8 and first[0] >> 4 <= 7 and int.from_bytes(first, "big") % 31 == 0


async def read_answer(response: httpx.Response, limit: int) -> bytes:
    """The decoded body of a streamed ``response`` (``client.stream(...)``), at most ``limit`` bytes;
    the caller bounds the time (``asyncio.timeout``)."""
    if (ready := _already_read(response, limit)) is not None:
        return ready
    reader = AnswerReader(response.headers, limit)
    async for chunk in response.aiter_raw():
        reader.feed(chunk)
    return reader.finish()


def read_answer_sync(response: httpx.Response, limit: int, *, started: float, seconds: float,
                     clock: Callable[[], float] = time.monotonic) -> bytes:
    """As :func:`read_answer`, blocking; the call that began at ``clock()`` time ``started`` must be
    over within ``seconds``, checked as each chunk arrives (a silent server is ended by the read
    timeout, a trickling one by this)."""
    if (ready := _already_read(response, limit)) is not None:
        return ready
    reader = AnswerReader(response.headers, limit)
    for chunk in response.iter_raw():
        reader.feed(chunk)
        if clock() - started > seconds:
            raise too_slow(seconds)
    return reader.finish()


def _already_read(response: httpx.Response, limit: int) -> bytes | None:
    """The body of a response built in memory (``httpx.MockTransport`` hands one over read and decoded)."""
    if not response.is_stream_consumed:
        return None
    body = response.content
    if len(body) > limit:
        raise too_large(limit)
    return body


def decoded_response(response: httpx.Response, body: bytes) -> httpx.Response:
    """A read ``response`` carrying ``body`` as its content (the encoding headers dropped: it is decoded)."""
    headers = [(k, v) for k, v in response.headers.multi_items() if k.lower() not in ("content-encoding",
                                                                                        "content-length")]
    return httpx.Response(response.status_code, headers=headers, content=body, request=response.request)
