"""What a refused TLS handshake was, found in an HTTP error's chain of causes (httpx wraps httpcore's
error, which wraps the ``ssl`` one). A refusal is a settings problem every call would hit: not
trusted, not this host, or a server offering nothing from TLS 1.2 up. A handshake cut short (EOF,
reset) is not a refusal: it is an ordinary connection failure.
"""

from __future__ import annotations

import ssl

#: OpenSSL reasons that mean the two sides share no protocol version (ours starts at TLS 1.2).
_OLD_PROTOCOL = frozenset({"UNSUPPORTED_PROTOCOL", "TLSV1_ALERT_PROTOCOL_VERSION", "WRONG_VERSION_NUMBER",
                           "NO_PROTOCOLS_AVAILABLE", "VERSION_TOO_LOW", "TLSV1_ALERT_INTERNAL_ERROR"})
_CUT_SHORT = (ssl.SSLEOFError, ssl.SSLZeroReturnError, ssl.SSLSyscallError, ssl.SSLWantReadError,
              ssl.SSLWantWriteError)


def tls_failure(exc: BaseException, ca_setting: str = "WORKBENCH_CA_BUNDLE",
                url_setting: str = "WORKBENCH_BASE_URL") -> str | None:
    """``TLS failed: …`` naming the setting to check when ``exc`` comes from a refused handshake, else None."""
    seen: BaseException | None = exc
    for _ in range(8):  # causes chain a few levels deep; never loop on a cycle
        if seen is None:
            return None
        if isinstance(seen, ssl.SSLCertVerificationError):
            why = seen.verify_message or str(seen)
            if "hostname" in why.lower() or "ip address mismatch" in why.lower():
                return f"TLS failed: the certificate is not for this host ({why}; check {url_setting})"
            return f"TLS failed: certificate not trusted ({why}; check {ca_setting})"
        if isinstance(seen, ssl.SSLError) and not isinstance(seen, _CUT_SHORT):
            reason = seen.reason or ""
            if reason in _OLD_PROTOCOL:
                return (f"TLS failed: the server offers no TLS 1.2 or newer ({reason}; check {url_setting} "
                        "and ask the server's owner)")
            return f"TLS failed: {reason or seen} (check {url_setting} and {ca_setting})"
        seen = seen.__cause__ or seen.__context__
    return None
