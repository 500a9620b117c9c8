"""Hostile connections to `workbench notify serve` (its own process, HTTPS on loopback): half-sent
requests get a deadline, connections are capped per client address and in all, and SIGTERM stops the
server at once even while clients hold idle keep-alive connections.

Each test talks from its own 127.x source addresses (Linux routes all of 127/8 to loopback), so the
per-address caps of one test do not touch another's."""

from __future__ import annotations

import json
import select
import signal
import socket
import ssl
import time
from collections.abc import Callable, Iterator

import pytest

from workbench.notify import NotifyService

QUIET = "[request_to_book]\ncheck_interval_seconds = 0\n"
DEADLINES = QUIET + "[server]\nheader_timeout_seconds = 2\nbody_timeout_seconds = 2\n"
CAPS = QUIET + ("[server]\nheader_timeout_seconds = 120\nmax_connections = 12\nmax_connections_per_address = 4\n")


def read_all(sock: ssl.SSLSocket, within: float = 20.0) -> bytes:
    """Everything the server sends until it closes the connection; fails if it is still open after ``within`` s."""
    sock.settimeout(within)
    data = b""
    try:
        while chunk := sock.recv(65536):
            data += chunk
    except (ConnectionResetError, ssl.SSLError):  # closed: a reset after the answer is a close too
        return data
    except TimeoutError:
        raise AssertionError(f"the server kept the connection open for {within} s; got {data[:200]!r}") from None
    return data


def trickle(sock: ssl.SSLSocket, data: bytes, pause: float = 0.4) -> None:
    """Send ``data`` a byte at a time, until the server answers (each byte arrives well within any deadline)."""
    for byte in data:
        if select.select([sock], [], [], pause)[0]:
            return
        sock.sendall(bytes([byte]))


def status(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.1 ") else 0


def get(sock: ssl.SSLSocket, path: str = "/health") -> bytes:
    """One GET on a kept-alive connection; the answer's bytes (headers and JSON body)."""
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(next(line.split(b":")[1] for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")))
    while len(body) < length:
        body += sock.recv(65536)
    return head + b"\r\n\r\n" + body


@pytest.fixture(scope="module")
def deadlines(serve_process: Callable, tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201
    state = tmp_path_factory.mktemp("deadlines") / "state"
    with NotifyService(state) as svc:
        creds = svc.credentials.create("cns-guard")
    served = serve_process(DEADLINES, state=state)
    served.creds = creds
    return served


@pytest.fixture(scope="module")
def caps(serve_process: Callable):  # noqa: ANN201
    return serve_process(CAPS)


@pytest.mark.parametrize(("name", "send"), [
    ("nothing at all", lambda s: None),
    ("half the headers", lambda s: s.sendall(b"POST /notifications HTTP/1.1\r\nHost: 127.0.0.1\r\n")),
    ("a byte at a time", lambda s: trickle(s, b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: */*\r\n")),
], ids=["nothing", "half-headers", "trickle"])
def test_headers_that_do_not_arrive_in_time_get_408_and_the_connection_closed(deadlines, name: str,  # noqa: ANN001
                                                                               send: Callable) -> None:
    with deadlines.tls("127.0.0.10") as sock:
        send(sock)
        answer = read_all(sock)
    assert status(answer) == 408 and b"connection: close" in answer.lower(), answer[:300]
    assert b"did not arrive within 2 s" in answer


def test_a_body_that_does_not_arrive_in_time_gets_408_and_nothing_is_stored(deadlines) -> None:  # noqa: ANN001
    with deadlines.client() as http:
        token = http.post("/oauth/token", data={"grant_type": "client_credentials", "client_id": "cns-guard",
                                                "client_secret": deadlines.creds.secret}).json()["access_token"]
    body = json.dumps({"metadata": {"uuid": "slow-body", "type": "X"}, "payload": {"x": "y" * 200}}).encode()
    with deadlines.tls("127.0.0.11") as sock:
        sock.sendall(f"POST /notifications HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
                     f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body[:40])
        answer = read_all(sock)
    assert status(answer) == 408, answer[:300]
    assert closed(deadlines, "body_timeout") >= 1
    with NotifyService(deadlines.state, create=False) as svc:
        assert svc.store.count() == 0


def test_the_next_request_on_a_kept_alive_connection_has_a_deadline_too(deadlines) -> None:  # noqa: ANN001
    with deadlines.tls("127.0.0.12") as sock:
        assert status(get(sock)) == 200
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # ... and the rest never comes
        answer = read_all(sock)
    assert status(answer) == 408


def test_a_sender_keeping_its_connection_gets_through_between_slow_ones(deadlines) -> None:  # noqa: ANN001
    with deadlines.tls("127.0.0.13") as slow, deadlines.client() as http:
        slow.sendall(b"POST /oauth/token HTTP/1.1\r\n")
        for _ in range(3):
            assert http.get("/health").status_code == 200
            time.sleep(0.5)
        assert status(read_all(slow)) == 408


def test_one_address_cannot_hold_more_than_its_share(caps) -> None:  # noqa: ANN001
    held = [caps.tls("127.0.0.20") for _ in range(4)]
    try:
        with caps.tls("127.0.0.20") as fifth:
            answer = read_all(fifth)
        assert status(answer) == 429 and b"retry-after: 1" in answer.lower(), answer[:300]
        with caps.tls("127.0.0.21") as other:  # another address is served
            assert status(get(other)) == 200
    finally:
        for sock in held:
            sock.close()
    assert admitted_again(caps, "127.0.0.20")


def test_the_server_refuses_connections_past_its_total_with_503(caps) -> None:  # noqa: ANN001
    held = [caps.tls(f"127.0.0.{30 + i // 4}") for i in range(12)]
    try:
        with caps.tls("127.0.0.40") as extra:
            answer = read_all(extra)
        assert status(answer) == 503 and b"retry-after: 1" in answer.lower(), answer[:300]
    finally:
        for sock in held:
            sock.close()
    assert admitted_again(caps, "127.0.0.40")
    assert closed(caps, "total_cap") >= 1  # (the per-address cap has its own test; this one may run without it)
    with caps.client() as http:
        assert http.get("/health").json()["connections"]["closed"]["total_cap"] >= 1


def closed(served, reason: str) -> int:  # noqa: ANN001
    """The server's count of connections it closed or refused for ``reason`` (from /metrics)."""
    with served.client() as http:
        lines = http.get("/metrics").text.splitlines()
    prefix = f'notify_connections_closed_total{{reason="{reason}"}} '
    return sum(int(line.removeprefix(prefix)) for line in lines if line.startswith(prefix))


def admitted_again(served, source: str, within: float = 20.0) -> bool:  # noqa: ANN001
    """Once the held connections are closed, their slots are free again."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        with served.tls(source) as sock:
            if status(get(sock)) == 200:
                return True
        time.sleep(0.2)
    return False


@pytest.fixture
def plain_server(serve_process: Callable) -> Iterator:
    served = serve_process(QUIET)
    yield served
    served.stop(signal.SIGKILL)


def test_sigterm_stops_at_once_while_a_client_holds_an_idle_keep_alive_connection(plain_server) -> None:  # noqa: ANN001
    """asyncio waits 30 s for the peer's TLS close_notify; an idle pooled client never sends it."""
    with plain_server.client() as http, plain_server.tls("127.0.0.50") as half:
        assert http.get("/health").status_code == 200  # the connection stays in httpx's pool
        half.sendall(b"GET /health HTTP/1.1\r\n")        # and one request is left half-sent
        took = plain_server.stop(signal.SIGTERM, timeout=60)
    assert plain_server.proc.returncode in (0, -signal.SIGTERM), plain_server.output()[-2000:]
    assert took < 10, f"took {took:.1f} s to stop"


@pytest.mark.filterwarnings("ignore:ssl.TLSVersion.TLSv1:DeprecationWarning")
def test_tls_below_1_2_is_refused_by_the_server(plain_server) -> None:  # noqa: ANN001
    def client(lowest: ssl.TLSVersion, highest: ssl.TLSVersion) -> ssl.SSLContext:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        ctx.load_verify_locations(str(plain_server.state / "tls" / "ca.pem"))
        ctx.minimum_version, ctx.maximum_version = lowest, highest
        ctx.set_ciphers("DEFAULT:@SECLEVEL=0")  # so this client really offers TLS 1.0/1.1
        return ctx

    with socket.create_connection(("127.0.0.1", plain_server.port), timeout=10) as raw, \
            pytest.raises(ssl.SSLError, match="(?i)EOF|protocol version|alert"):  # the server hangs up
        client(ssl.TLSVersion.TLSv1, ssl.TLSVersion.TLSv1_1).wrap_socket(raw, server_hostname="127.0.0.1")
    with socket.create_connection(("127.0.0.1", plain_server.port), timeout=10) as raw, \
            client(ssl.TLSVersion.TLSv1_2, ssl.TLSVersion.TLSv1_2).wrap_socket(raw, server_hostname="127.0.0.1") as tls:
        assert tls.version() == "TLSv1.2" and status(get(tls)) == 200


@pytest.mark.slow
def test_a_valid_sender_gets_through_while_1500_slow_connections_are_held(serve_process: Callable,
                                                                          tmp_path_factory: pytest.TempPathFactory
                                                                          ) -> None:
    """1,500 half-sent requests from 25 addresses (60 each, under the per-address cap) are all held open
    (the header deadline is raised for the test), 200 more from one address are mostly refused, and a
    sender from another address still gets its token and stores its notification."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < 4096 and (hard == resource.RLIM_INFINITY or hard >= 4096):
        resource.setrlimit(resource.RLIMIT_NOFILE, (4096, hard))
    state = tmp_path_factory.mktemp("loris") / "state"
    with NotifyService(state) as svc:
        creds = svc.credentials.create("cns-loris")
    served = serve_process(QUIET + "[server]\nheader_timeout_seconds = 600\n", state=state)
    slow: list[ssl.SSLSocket] = []
    try:
        for i in range(1500):
            sock = served.tls(f"127.0.1.{1 + i // 60}")
            sock.sendall(b"POST /notifications HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            slow.append(sock)
        greedy = [served.tls("127.0.2.1") for _ in range(200)]
        slow += greedy
        refused = sum(status(read_all(sock)) == 429 for sock in greedy[64:])
        with served.client() as http:
            token = http.post("/oauth/token", data={"grant_type": "client_credentials", "client_id": creds.client_id,
                                                    "client_secret": creds.secret})
            assert token.status_code == 200, token.text
            sent = http.post("/notifications", json={"metadata": {"uuid": "through", "type": "X"}, "payload": {}},
                             headers={"Authorization": f"Bearer {token.json()['access_token']}"})
            gauge = next(line for line in http.get("/metrics").text.splitlines()
                         if line.startswith("notify_open_connections "))
    finally:
        for sock in slow:
            sock.close()
    assert (sent.status_code, sent.json()["status"]) == (200, "accepted")
    assert refused == 136
    assert float(gauge.split()[1]) >= 1500 + 64  # every slow connection was still open


@pytest.mark.parametrize(("trusted", "limited"), [("", True), ('trusted_proxies = ["127.0.0.1"]\n', False)],
                         ids=["trusting-none", "trusting-the-proxy"])
def test_forwarded_headers_count_only_from_a_trusted_proxy(serve_process: Callable,
                                                           tmp_path_factory: pytest.TempPathFactory,
                                                           trusted: str, limited: bool) -> None:
    """The token endpoint limits requests per client id and address (burst 2 here): a client naming a new
    address in X-Forwarded-For each time is still limited, unless it is a trusted proxy."""
    state = tmp_path_factory.mktemp("forwarded") / "state"
    with NotifyService(state) as svc:
        creds = svc.credentials.create("cns-fwd")
    served = serve_process(QUIET + "[tokens]\nrequests_per_minute = 1\nburst = 2\n[server]\n" + trusted, state=state)
    form = {"grant_type": "client_credentials", "client_id": creds.client_id, "client_secret": creds.secret}
    with served.client() as http:
        codes = [http.post("/oauth/token", data=form, headers={"X-Forwarded-For": f"203.0.113.{i}"}).status_code
                 for i in range(4)]
    served.stop()
    assert codes == ([200, 200, 429, 429] if limited else [200, 200, 200, 200])


@pytest.mark.slow
def test_a_thousand_concurrent_deliveries_from_one_address_are_all_stored_once(serve_process: Callable,
                                                                                tmp_path_factory: pytest.TempPathFactory
                                                                                ) -> None:
    """Past the per-address cap (16 here, so it is surely reached) senders get 429 + Retry-After and retry:
    the cap delays deliveries, it loses none and stores none twice."""
    from collections import Counter

    from workbench.config import Secret
    from workbench.sandbox.cns import CnsClient, CnsConfig, notification
    from workbench.transport.backoff import RetryPolicy

    state = tmp_path_factory.mktemp("thousand") / "state"
    with NotifyService(state) as svc:
        creds = svc.credentials.create("cns-many")
    served = serve_process(QUIET + "[server]\nmax_connections_per_address = 16\n", state=state)
    config = CnsConfig(f"{served.base_url}/oauth/token", f"{served.base_url}/notifications", creds.client_id,
                       Secret(creds.secret), str(served.state / "tls" / "ca.pem"), timeout_seconds=30,
                       retry=RetryPolicy(max_attempts=40, base_seconds=0.1, cap_seconds=2.0))
    unique = [notification("PAYOUT_UPDATE", {"n": i}) for i in range(800)]
    results = CnsClient.deliver_all(config, unique + unique[:200], concurrency=1000)
    assert all(r.delivered for r in results), [r.error for r in results if not r.delivered][:3]
    assert Counter(r.response["status"] for r in results) == {"accepted": 800, "duplicate": 200}
    assert closed(served, "address_cap") > 0  # the cap was reached, and every refused delivery came back
    with NotifyService(state, create=False) as svc:
        uuids = [row[1] for row in svc.store.notification_rows()]
    assert len(uuids) == len(set(uuids)) == 800


def test_serve_raises_its_open_file_limit_for_its_connections_and_says_when_it_cannot(serve_process: Callable
                                                                                       ) -> None:
    import resource

    def few_files() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (300, 1500))

    served = serve_process(QUIET, preexec_fn=few_files)  # max_connections 2048 needs about 2,300
    soft, hard = resource.prlimit(served.proc.pid, resource.RLIMIT_NOFILE)
    served.stop()
    assert (soft, hard) == (1500, 1500)
    assert "warning: open files are limited to 1500 (the hard limit): about 1244 connections" in served.output()
