"""Every way a car search can fail, grouped by what the caller can do about it.

::

    CarsError
    ├── CarsConfigError            settings missing or unusable (fix the env / .env)
    │   └── LegacyCredentialsError legacy XML username/password offered instead of an API key
    ├── SearchParamsError          parameters refused before anything was sent (fix the input)
    ├── CarsAPIError               the service answered 4xx/5xx: status, request_id, errors[id, message]
    │   ├── CarsClientError        4xx other than 429: not retried, the request must change
    │   │   └── CarsAuthError      401/403: API key or affiliate id refused
    │   ├── CarsRateLimitError     429, still after every retry
    │   └── CarsServerError        5xx, still after every retry
    ├── CarsConnectionError        no usable HTTP answer, after every retry (or a refused TLS handshake)
    └── CarsResponseError          a 2xx answer that cannot be used (not JSON, no data list, page loop)

Messages name the thing in backticks and say how to fix it; none ever contains the API key.
"""

from __future__ import annotations

from dataclasses import dataclass

from workbench.errors import InputError, SettingsError, TerminalError, TransientError, WorkbenchError
from workbench.wording import count


class CarsError(WorkbenchError):
    """Base class of every car-search error."""


class CarsConfigError(CarsError, SettingsError):
    """The settings cannot be used to reach the car search service."""


class LegacyCredentialsError(CarsConfigError):
    """Legacy XML credentials were offered; the JSON search accepts only a Bearer API key."""


@dataclass(frozen=True)
class Problem:
    """One refused search parameter: which field, and what is wrong with it."""

    field: str
    message: str

    def __str__(self) -> str:
        return f"`{self.field}`: {self.message}"


class SearchParamsError(CarsError, InputError, ValueError):
    """Search parameters refused before sending; ``problems`` lists every one found."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = list(problems)
        lines = "\n".join(f"  - {p}" for p in self.problems)
        super().__init__(f"car search not sent: {count(len(self.problems), 'problem')} with the parameters\n{lines}")


@dataclass(frozen=True)
class ApiError:
    """One entry of the service's ``errors`` array."""

    id: str
    message: str

    def __str__(self) -> str:
        return f"{self.id}: {self.message}"


class CarsAPIError(CarsError):
    """The service answered with an error status; carries everything the body said."""

    def __init__(self, status: int, request_id: str | None, errors: list[ApiError], *,
                 path: str = "", attempts: int = 1, body: object = None) -> None:
        self.status = status
        self.request_id = request_id
        self.errors = list(errors)
        self.path = path
        self.attempts = attempts
        self.body = body  # the parsed JSON body (or raw text) as received, for support tickets
        where = f" from `{path}`" if path else ""
        rid = f" (request_id {request_id})" if request_id else " (no request_id in the answer)"
        tries = f" after {attempts} attempts" if attempts > 1 else ""
        detail = "; ".join(str(e) for e in self.errors) or "no error details in the answer"
        super().__init__(f"car search service answered HTTP {status}{where}{tries}{rid}: {detail}")

    @property
    def ids(self) -> list[str]:
        return [e.id for e in self.errors]

    @property
    def messages(self) -> list[str]:
        return [e.message for e in self.errors]


class CarsClientError(CarsAPIError, TerminalError):
    """A 4xx answer (not 429): the request itself was refused and is not retried."""


class CarsAuthError(CarsClientError):
    """401/403: the API key or the affiliate id was refused."""


class CarsRateLimitError(CarsAPIError, TransientError):
    """429 Too Many Requests, still after every retry the policy allows."""


class CarsServerError(CarsAPIError, TransientError):
    """5xx, still after every retry the policy allows."""


class CarsConnectionError(CarsError, TransientError):
    """The service could not be reached (connection refused, TLS failure, timeout), or its answer could
    not be read (larger than the cap after decoding, not over within the deadline, a broken encoding)."""


class CarsResponseError(CarsError, TerminalError):
    """A successful status whose body cannot be used as the spec describes."""


def error_class_for(status: int) -> type[CarsAPIError]:
    """The exception class for an HTTP error status."""
    if status == 429:
        return CarsRateLimitError
    if status >= 500:
        return CarsServerError
    if status in (401, 403):
        return CarsAuthError
    return CarsClientError
