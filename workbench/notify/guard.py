"""Deadlines and connection caps for ``notify serve``: what uvicorn leaves to a reverse proxy.

uvicorn closes idle keep-alive connections (``timeout_keep_alive``) and caps the size of a request
head (h11), but it waits as long as a client likes for the rest of a request sent a byte at a time
(slow-loris), has no cap per client address, and its ``limit_concurrency`` answers 503 to every
request once the open connections reach it - so slow connections would lock valid senders out.
:class:`GuardedH11Protocol` (uvicorn's own h11 protocol, subclassed) adds:

* a deadline for the request line and headers - from the connection, or from the first byte of the
  next request on a keep-alive connection - then ``408`` and close;
* a deadline for the body once the headers are in, then ``408`` and close;
* caps on open connections per client address (IPv6: per /64) and in all: a connection over a cap
  is answered ``429`` (its address) or ``503`` (the server) with ``Retry-After: 1`` and closed
  without reading its request (the platform's sender retries both);
* a bounded close: asyncio waits up to 30 s for the peer's TLS ``close_notify``, so a connection this
  server closes (deadline, cap, keep-alive timer, shutdown) is aborted if still open
  :data:`CLOSE_GRACE_SECONDS` later - an idle client cannot hold a SIGTERM for 30 s. (A TLS transport
  closed twice forgets its connection and can no longer be aborted: nothing here closes one twice.)

The TLS handshake happens before the protocol sees a connection; asyncio bounds it (60 s).
Everything here runs on the event loop's thread, so the counts need no lock.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
from collections import Counter
from http import HTTPStatus
from typing import Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from workbench.notify.app import new_ruid
from workbench.notify.config import ServerConfig
from workbench.notify.monitor import Metrics

CLOSE_GRACE_SECONDS = 1.0
HEADER, BODY = "header", "body"


def address_key(host: str) -> str:
    """What the per-address cap counts: the IPv4 address, or the /64 network of an IPv6 one."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def raw_response(status: int, description: str, retry_after: bool = False) -> bytes:
    """A complete ``Connection: close`` answer written before (or instead of) reading a request."""
    error = "request_timeout" if status == 408 else "temporarily_unavailable"
    body = json.dumps({"error": error, "error_description": description, "ruid": new_ruid()}).encode()
    head = [f"HTTP/1.1 {status} {HTTPStatus(status).phrase}", "content-type: application/json",
            f"content-length: {len(body)}", "connection: close", *(["retry-after: 1"] if retry_after else [])]
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


class ConnectionLimits:
    """Open connections in all and per client address, with the caps (0: no cap)."""

    def __init__(self, total: int, per_address: int, metrics: Metrics | None = None) -> None:
        self.total = total
        self.per_address = per_address
        self.metrics = metrics or Metrics()
        self.open = 0
        self.by_address: Counter[str] = Counter()

    def admit(self, address: str) -> int | None:
        """None when a new connection from ``address`` may proceed (it is then counted), else the
        status to refuse it with: 503 when the server is full, 429 when the address is."""
        if self.total and self.open >= self.total:
            self.count("total_cap")
            return 503
        if self.per_address and self.by_address[address] >= self.per_address:
            self.count("address_cap")
            return 429
        self.open += 1
        self.by_address[address] += 1
        self.metrics.open_connections = self.open
        return None

    def release(self, address: str) -> None:
        self.open -= 1
        self.by_address[address] -= 1
        if self.by_address[address] <= 0:
            del self.by_address[address]
        self.metrics.open_connections = self.open

    def count(self, reason: str) -> None:
        self.metrics.inc("notify_connections_closed_total", "reason", reason)


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with request deadlines, connection caps and a bounded close."""

    limits: ClassVar[ConnectionLimits]
    header_timeout: ClassVar[float]
    body_timeout: ClassVar[float]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._address = ""
        self._admitted = False
        self._refused = False
        self._phase: str | None = None
        self._deadline: asyncio.TimerHandle | None = None
        self._abort: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._address = address_key(self.client[0]) if self.client else "?"
        status = self.limits.admit(self._address)
        if status is not None:
            self._refused = True
            self.transport.write(raw_response(status, "too many connections from this address" if status == 429
                                              else "the server is at its connection limit; retry", retry_after=True))
            self._close()
            return
        self._admitted = True
        self._follow(data_arrived=False)

    def data_received(self, data: bytes) -> None:
        if self._refused or self.transport.is_closing():
            return  # answered already (cap, deadline): the rest is not read
        super().data_received(data)
        self._follow(data_arrived=True)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._follow(data_arrived=False)

    def timeout_keep_alive_handler(self) -> None:
        super().timeout_keep_alive_handler()
        self._follow(data_arrived=False)

    def shutdown(self) -> None:
        if self.transport.is_closing():
            return  # closing already, its abort armed: closing the TLS transport twice would disarm it
        try:
            super().shutdown()
        except h11.LocalProtocolError:  # h11 is mid-answer after a deadline: just close
            self.transport.close()
        self._follow(data_arrived=False)

    def connection_lost(self, exc: Exception | None) -> None:
        for handle in (self._deadline, self._abort):
            if handle is not None:
                handle.cancel()
        self._deadline = self._abort = None
        if self._admitted:
            self._admitted = False
            self.limits.release(self._address)
        super().connection_lost(exc)

    # deadlines

    def _follow(self, data_arrived: bool) -> None:
        """Arm the deadline of the phase the connection is in; bound the close once it is closing."""
        if self.transport.is_closing():
            self._set_phase(None)
            if self._abort is None:
                self._abort = self.loop.call_later(CLOSE_GRACE_SECONDS, self.transport.abort)
            return
        cycle = self.cycle
        if cycle is None or cycle.response_complete:  # before a request: idle (keep-alive timer) until a byte comes
            phase = HEADER if cycle is None or data_arrived or self._phase == HEADER else None
        elif cycle.more_body and not cycle.disconnected:
            phase = BODY
        else:
            phase = None  # the app has the whole request; the store's write timeout bounds the answer
        self._set_phase(phase)

    def _set_phase(self, phase: str | None) -> None:
        if phase == self._phase:
            return
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        self._phase = phase
        if phase is not None:
            timeout = self.header_timeout if phase == HEADER else self.body_timeout
            self._deadline = self.loop.call_later(timeout, self._expired, phase)

    def _expired(self, phase: str) -> None:
        self._deadline = None
        if self.transport.is_closing():
            return
        self.limits.count(f"{phase}_timeout")
        answer = raw_response(408, f"the request {'headers' if phase == HEADER else 'body'} did not arrive within "
                                   f"{self.header_timeout if phase == HEADER else self.body_timeout:g} s")
        if phase == HEADER and self.conn.their_state is not h11.IDLE:
            answer = b""  # the rest of a body already answered (413, 401...): just stop reading it
        elif phase == BODY and self.cycle is not None:
            self.cycle.disconnected = True  # the app's receive() says http.disconnect; its answer is dropped
            self.cycle.message_event.set()
            try:
                answer = b"".join(self.conn.send(event) or b"" for event in (
                    h11.Response(status_code=408, reason=b"Request Timeout",
                                 headers=[(b"content-length", b"0"), (b"connection", b"close")]),
                    h11.EndOfMessage()))
            except h11.LocalProtocolError:  # an answer had started: nothing more can be said
                answer = b""
        self.transport.write(answer)
        self._close()

    def _close(self) -> None:
        self.transport.close()
        self._follow(data_arrived=False)


def guarded_protocol(config: ServerConfig, metrics: Metrics) -> type[GuardedH11Protocol]:
    """A protocol class for one server (uvicorn's ``http=``), its caps counting into ``metrics``."""
    limits = ConnectionLimits(config.max_connections, config.max_connections_per_address, metrics)
    return type("NotifyH11Protocol", (GuardedH11Protocol,), {
        "limits": limits, "header_timeout": config.header_timeout_seconds,
        "body_timeout": config.body_timeout_seconds})


def raise_open_file_limit(connections: int, reserve: int = 256) -> str | None:
    """Raise this process's open-file limit to fit ``connections`` (+ ``reserve``); a note when it cannot."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = connections + reserve
    if connections <= 0 or soft == resource.RLIM_INFINITY or soft >= want:
        return None
    new = want if hard == resource.RLIM_INFINITY else min(want, hard)
    resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))
    if new < want:
        return (f"open files are limited to {new} (the hard limit): about {new - reserve} connections can be open, "
                f"not [server] max_connections = {connections}; raise `ulimit -Hn` or lower the setting")
    return None
