"""A deliberately bad HTTPS server on loopback, for the clients' tests.

Each answer is a function writing raw bytes (status line, headers, body as it likes), so it can lie
about its encoding, inflate to gigabytes, trickle one byte at a time or never answer; the TLS side
can present a certificate for another host, from another CA, or offer only TLS 1.1 (refusing a
modern client with a protocol-version alert, as an old server does). Plain blocking sockets, a
thread per connection; it counts the requests it read and the answer bytes it wrote.

    with HostileServer(gzip_bomb(2 << 30), certificates) as server:
        settings = server.settings(max_answer_bytes=1 << 20)
"""

from __future__ import annotations

import gzip
import socket
import ssl
import threading
import warnings
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import trustme

from workbench.config import Secret, Settings

Answer = Callable[["Exchange"], None]
NS = 'xmlns="http://www.opentravel.org/OTA/2003/05"'


def success_body(path: str) -> bytes:
    """The platform's success answer for the operation at ``path`` (an OTA ``…RS``, B.XML ``<ok/>``)."""
    name = path.rsplit("/", 1)[-1]
    if "/ota/" not in path:
        return b"<ok/>\n<!-- RUID: [hostile==] -->"
    return f'<{name}RS {NS} Version="3.000"><Success/></{name}RS>\n<!-- RUID: [hostile==] -->'.encode()


class Exchange:
    """One request read from the client (its path and headers), and the socket for its answer."""

    def __init__(self, server: HostileServer, path: str, headers: dict[str, str], conn: socket.socket) -> None:
        self.server, self.path, self.headers, self.conn = server, path, headers, conn

    def write(self, data: bytes) -> None:
        self.conn.sendall(data)
        self.server.sent += len(data)

    def head(self, status: int = 200, headers: dict[str, str] | None = None) -> None:
        lines = [f"HTTP/1.1 {status} X", *(f"{k}: {v}" for k, v in (headers or {}).items())]
        self.write(("\r\n".join(lines) + "\r\n\r\n").encode())

    def whole(self, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
        self.head(status, {"Content-Type": "application/xml", **(headers or {}), "Content-Length": str(len(body))})
        self.write(body)

    def wait(self, seconds: float) -> None:
        """Sleep, unless the server is stopping (then the answer ends)."""
        if self.server.stopping.wait(seconds):
            raise ConnectionAbortedError("server stopping")


def plain(status: int = 200, body: bytes | None = None, **headers: str) -> Answer:
    """``body`` (default: the operation's success answer) as it is, with ``headers`` (``_`` is ``-``)."""
    def answer(x: Exchange) -> None:
        x.whole(status, success_body(x.path) if body is None else body, {k.replace("_", "-"): v for k, v in headers.items()})
    return answer


def says_gzip_but_is_not() -> Answer:
    """A plain success answer under ``Content-Encoding: gzip``."""
    return plain(Content_Encoding="gzip")


def gzipped(body: bytes | None = None) -> Answer:
    """A well-formed gzip answer (what a real server sends when it compresses)."""
    def answer(x: Exchange) -> None:
        x.whole(200, gzip.compress(success_body(x.path) if body is None else body), {"Content-Encoding": "gzip"})
    return answer


def gzip_bomb(inflated: int) -> Answer:
    """A gzip answer of ``inflated`` zero bytes, compressed as it is sent (chunked), until the client hangs up."""
    block = bytes(1 << 20)

    def answer(x: Exchange) -> None:
        x.head(200, {"Content-Type": "application/xml", "Content-Encoding": "gzip", "Transfer-Encoding": "chunked"})
        z = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16)
        for i in range(0, inflated, len(block)):
            part = z.compress(block[: min(len(block), inflated - i)])
            if part:
                x.write(b"%x\r\n%s\r\n" % (len(part), part))
        tail = z.flush()
        x.write(b"%x\r\n%s\r\n0\r\n\r\n" % (len(tail), tail))
    return answer


def trickle(every: float, body: bytes | None = None) -> Answer:
    """The success answer (headers at once), its body one byte per ``every`` seconds."""
    def answer(x: Exchange) -> None:
        data = success_body(x.path) if body is None else body
        x.head(200, {"Content-Type": "application/xml", "Content-Length": str(len(data))})
        for i in range(len(data)):
            x.wait(every)
            x.write(data[i:i + 1])
    return answer


def silent() -> Answer:
    """Reads the request and never answers."""
    def answer(x: Exchange) -> None:
        x.wait(3600)
    return answer


def hang_up() -> Answer:
    """Reads the request and closes the connection without a word."""
    def answer(x: Exchange) -> None:
        raise ConnectionAbortedError("hung up on purpose")
    return answer


class Certificates:
    """A CA (``ca_pem``, what the client trusts) and contexts for servers signed by it."""

    def __init__(self, directory: Path) -> None:
        self.ca = trustme.CA()
        self.ca_pem = directory / "ca.pem"
        self.ca.cert_pem.write_to_path(str(self.ca_pem))

    def server_context(self, *names: str, maximum: ssl.TLSVersion | None = None) -> ssl.SSLContext:
        ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        self.ca.issue_cert(*(names or ("127.0.0.1", "localhost"))).configure_cert(ctx)
        if maximum is not None:  # an old server, on purpose: allow what modern defaults refuse
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                ctx.minimum_version = ssl.TLSVersion.MINIMUM_SUPPORTED
                ctx.maximum_version = maximum
            ctx.set_ciphers("DEFAULT:@SECLEVEL=0")
        return ctx


class HostileServer:
    """Serves ``answer`` to every request over HTTPS on 127.0.0.1 (a free port) while the block runs."""

    def __init__(self, answer: Answer, certificates: Certificates, context: ssl.SSLContext | None = None) -> None:
        self.answer = answer
        self.certificates = certificates
        self.context = context or certificates.server_context()
        self.requests = 0
        self.sent = 0
        self.last_headers: dict[str, str] = {}
        self.stopping = threading.Event()
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        self._open: set[socket.socket] = set()
        self._threads: list[threading.Thread] = []

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.port}"

    def settings(self, **changes: Any) -> Settings:
        """Client settings for this server (trusting its CA), with ``changes``."""
        return Settings(base_url=self.url, ca_bundle=str(self.certificates.ca_pem), username="machine",
                        password=Secret("pw")).with_(**changes)

    def __enter__(self) -> HostileServer:
        self._start(self._accept)
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopping.set()
        for conn in list(self._open):
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        for thread in self._threads:
            thread.join(10)
        self._listener.close()

    def _start(self, target: Callable[..., None], *args: Any) -> None:
        thread = threading.Thread(target=target, args=args, daemon=True)
        self._threads.append(thread)
        thread.start()

    def _accept(self) -> None:
        self._listener.settimeout(0.1)  # look at `stopping` ten times a second
        while not self.stopping.is_set():
            try:
                conn, _ = self._listener.accept()
            except TimeoutError:
                continue
            self._open.add(conn)
            self._start(self._serve, conn)

    def _serve(self, raw: socket.socket) -> None:
        raw.settimeout(30)
        conn = raw
        try:
            conn = self.context.wrap_socket(raw, server_side=True)
            self._open.add(conn)
            stream = conn.makefile("rb")
            while True:  # keep-alive: one request after another on this connection
                request = stream.readline().decode("latin-1").split(" ")
                if len(request) < 2:
                    return  # the client hung up
                headers: dict[str, str] = {}
                while (line := stream.readline().decode("latin-1").strip()):
                    name, _, value = line.partition(":")
                    headers[name.strip().lower()] = value.strip()
                stream.read(int(headers.get("content-length", "0") or 0))
                self.requests += 1
                self.last_headers = headers
                self.answer(Exchange(self, request[1], headers, conn))
        except (OSError, ssl.SSLError):
            pass  # a refused handshake, or the client hung up (as it should on a too large or too slow answer)
        finally:
            self._open.discard(conn)
            self._open.discard(raw)
            conn.close()
