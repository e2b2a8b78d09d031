"""Sends one logical call: builds the request, retries what is safe to retry, and maps errors."""

from __future__ import annotations

import email.utils
import http.client
import json
import platform
import random
import secrets
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Callable, Dict, List, Mapping, NamedTuple, Optional, Sequence, Tuple, Type, Union, cast

from ._errors import SvcError
from ._models import Model, build
from ._version import __version__

RETRYABLE_STATUSES = frozenset({408, 429, 502, 503, 504})
WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
INITIAL_BACKOFF = 0.5
MAX_BACKOFF = 8.0
MAX_RETRY_AFTER = 60.0
"""A Retry-After longer than this (seconds) is not waited for: the error goes back to the caller."""

USER_AGENT = f"svc-python/{__version__} Python/{platform.python_version()}"


class CallOptions(NamedTuple):
    """Per-call settings, given as keywords to every method."""

    timeout: Optional[float] = None
    max_retries: Optional[int] = None
    idempotency_key: Optional[str] = None
    request_id: Optional[str] = None
    headers: Optional[Mapping[str, str]] = None


Opener = Callable[[urllib.request.Request, float], Any]


def path_segment(value: Union[str, int]) -> str:
    """Encodes one path parameter so that a `/` or `?` in it stays inside its segment."""
    return urllib.parse.quote(str(value), safe="")


def new_idempotency_key() -> str:
    return f"svc_idem_{secrets.token_hex(16)}"


class Transport:
    def __init__(
        self,
        api_key: Optional[str],
        base_url: str,
        timeout: float,
        max_retries: int,
        opener: Optional[Opener] = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.api_key = api_key
        self.base_url = base_url
        self.timeout = timeout
        self.max_retries = max_retries
        self._open: Opener = opener or _default_opener()
        self._sleep = sleep

    def request(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Mapping[str, Any]] = None,
        body: Any = None,
        headers: Optional[Mapping[str, Any]] = None,
        options: CallOptions = CallOptions(),
        model: Union[str, Type[Model], None] = None,
        many: bool = False,
        file: Optional[FileBody] = None,
    ) -> Any:
        send_body = body is not None or file is not None
        timeout = options.timeout if options.timeout is not None else self.timeout
        max_retries = options.max_retries if options.max_retries is not None else self.max_retries
        url = self._url(path, query)
        request_headers = self._headers(method, send_body, headers, options)
        data: Any = _encode_json(body) if body is not None else None
        if file is not None:
            request_headers["Content-Type"] = file.content_type
            if file.length is not None:
                request_headers["Content-Length"] = str(file.length)
            data = file.data
            # A file object is read as it is sent: a second attempt could not send it again.
            if not isinstance(file.data, bytes):
                max_retries = 0

        attempt = 0
        while True:
            outcome = self._attempt(method, url, request_headers, data, timeout)
            if isinstance(outcome, _Success):
                return build(model, outcome.value, many)
            delay = _retry_delay(outcome, attempt) if attempt < max_retries else None
            if delay is None:
                raise outcome.error
            self._sleep(delay)
            attempt += 1

    def _url(self, path: str, query: Optional[Mapping[str, Any]]) -> str:
        pairs: List[Tuple[str, str]] = []
        for key, value in (query or {}).items():
            items = cast(Sequence[object], value) if isinstance(value, (list, tuple)) else [value]
            for item in items:
                if item is None:
                    continue
                pairs.append((key, _query_value(item)))
        search = urllib.parse.urlencode(pairs)
        return f"{self.base_url}{path}{'?' + search if search else ''}"

    def _headers(
        self, method: str, send_body: bool, extra: Optional[Mapping[str, Any]], options: CallOptions
    ) -> Dict[str, str]:
        headers: Dict[str, str] = {"Accept": "application/json", "User-Agent": USER_AGENT}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        if send_body:
            headers["Content-Type"] = "application/json"
        if method in WRITE_METHODS:
            headers["Idempotency-Key"] = options.idempotency_key or new_idempotency_key()
        if options.request_id:
            headers["X-Request-Id"] = options.request_id
        for name, value in (extra or {}).items():
            if value is not None:
                headers[name] = _query_value(value)
        for name, value in (options.headers or {}).items():
            for existing in [key for key in headers if key.lower() == name.lower()]:
                del headers[existing]
            headers[name] = value
        return headers

    def download(
        self, path: str, *, query: Optional[Mapping[str, Any]] = None, options: CallOptions = CallOptions()
    ) -> Any:
        """A GET whose answer is a file: the open response, its status checked, its body not yet read."""
        timeout = options.timeout if options.timeout is not None else self.timeout
        url = self._url(path, query)
        headers = self._headers("GET", False, None, options)
        headers["Accept"] = "*/*"
        request = urllib.request.Request(url, headers=headers, method="GET")
        try:
            return self._open(request, timeout)
        except urllib.error.HTTPError as error:
            try:
                text = error.read().decode("utf-8", errors="replace")
            except (OSError, http.client.HTTPException):
                text = ""
            raise SvcError.from_response(
                error.code, str(error.reason or ""), text, error.headers.get("X-Request-Id")
            ) from None
        except (socket.timeout, TimeoutError):
            raise SvcError(0, "timeout", f"No answer from {url} within {timeout:g} s") from None
        except (urllib.error.URLError, OSError, http.client.HTTPException) as error:
            raise SvcError(0, "connection_error", f"Could not reach {url}: {error!r}") from None

    def _attempt(
        self, method: str, url: str, headers: Dict[str, str], data: Any, timeout: float
    ) -> Union[_Success, _Failure]:
        request = urllib.request.Request(url, data=data, headers=headers, method=method)
        try:
            with self._open(request, timeout) as response:
                status = response.status
                text = response.read().decode("utf-8", errors="replace")
                request_id = response.headers.get("X-Request-Id")
        except urllib.error.HTTPError as error:
            try:
                text = error.read().decode("utf-8", errors="replace")
            except (OSError, http.client.HTTPException):
                text = ""
            failure = SvcError.from_response(error.code, str(error.reason or ""), text, error.headers.get("X-Request-Id"))
            return _Failure(failure, error.code in RETRYABLE_STATUSES, error.headers.get("Retry-After"))
        except (socket.timeout, TimeoutError) as error:
            return _Failure(SvcError(0, "timeout", f"No answer from {url} within {timeout:g} s ({error})"), True)
        except urllib.error.URLError as error:
            if isinstance(error.reason, (socket.timeout, TimeoutError)):
                return _Failure(SvcError(0, "timeout", f"No answer from {url} within {timeout:g} s"), True)
            return _Failure(SvcError(0, "connection_error", f"Could not reach {url}: {error.reason}"), True)
        except (OSError, http.client.HTTPException) as error:
            return _Failure(SvcError(0, "connection_error", f"Could not reach {url}: {error!r}"), True)
        return _Success(_parse_body(status, text, request_id))


class FileBody(NamedTuple):
    """A file sent as a request's body: bytes (retried like any call) or a binary file object (sent once)."""

    data: Any
    content_type: str
    length: Optional[int]


class _Success(NamedTuple):
    value: Any


class _Failure(NamedTuple):
    error: SvcError
    retryable: bool
    retry_after: Optional[str] = None


def _default_opener() -> Opener:
    opener = urllib.request.build_opener()
    return lambda request, timeout: opener.open(request, timeout=timeout)


def _parse_body(status: int, text: str, request_id: Optional[str]) -> Any:
    if status == 204 or not text.strip():
        return None
    try:
        return json.loads(text)
    except ValueError:
        raise SvcError(
            status, "invalid_response", f"The API answered {status} with a body that is not JSON", request_id
        ) from None


def _retry_delay(failure: _Failure, attempt: int) -> Optional[float]:
    """Seconds to wait before the next attempt, or None when this failure is not retried."""
    if not failure.retryable:
        return None
    retry_after = parse_retry_after(failure.retry_after)
    if retry_after is not None:
        return retry_after if retry_after <= MAX_RETRY_AFTER else None
    ceiling = min(MAX_BACKOFF, INITIAL_BACKOFF * 2**attempt)
    return ceiling / 2 + random.random() * ceiling / 2


def parse_retry_after(value: Optional[str]) -> Optional[float]:
    """Retry-After as seconds or an HTTP date, in seconds from now."""
    if value is None or not value.strip():
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _query_value(value: Any) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    return str(value)


def _encode_json(value: Any) -> bytes:
    return json.dumps(value, default=_json_default, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _json_default(value: Any) -> Any:
    if isinstance(value, Model):
        return value.to_dict()
    raise TypeError(f"{type(value).__name__} is not JSON serializable")
