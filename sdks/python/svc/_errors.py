from __future__ import annotations

import json
from typing import Any, Dict, Optional, cast


class SvcError(Exception):
    """Every failure of a call: an error answer of the API, or no usable answer at all (`status` 0).

    Attributes:
        status: the HTTP status, or 0 when no response arrived (`connection_error`, `timeout`).
        code: the API's stable machine code (`not_found`, `unknown_column`, ...), `connection_error`,
            `timeout`, `invalid_response`, or `http_<status>` for an answer without an API error body.
        message: what went wrong, in words a person can act on.
        request_id: the request id to quote when reporting a problem, when the API gave one.
        details: structured details (for example `issues` of a `validation_failed`), or None.
    """

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        request_id: Optional[str] = None,
        details: Optional[Dict[str, Any]] = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.request_id = request_id
        self.details = details

    def __str__(self) -> str:
        where = f", request {self.request_id}" if self.request_id else ""
        return f"{self.message} ({self.status} {self.code}{where})"

    def __repr__(self) -> str:
        return (
            f"SvcError(status={self.status!r}, code={self.code!r}, message={self.message!r}, "
            f"request_id={self.request_id!r}, details={self.details!r})"
        )

    @classmethod
    def from_response(
        cls, status: int, reason: str, text: str, header_request_id: Optional[str] = None
    ) -> SvcError:
        """The error an HTTP answer stands for, from the API's error body when it has one."""
        try:
            parsed: object = json.loads(text) if text else None
        except ValueError:
            parsed = None
        body = cast(Dict[str, object], parsed) if isinstance(parsed, dict) else {}
        body_request_id = body.get("requestId")
        request_id = body_request_id if isinstance(body_request_id, str) else header_request_id
        code, error, details = body.get("code"), body.get("error"), body.get("details")
        if isinstance(code, str) and isinstance(error, str):
            return cls(status, code, error, request_id, cast(Dict[str, Any], details) if isinstance(details, dict) else None)
        excerpt = text.strip()[:200]
        message = f"HTTP {status}{' ' + reason if reason else ''}{': ' + excerpt if excerpt else ''}"
        return cls(status, f"http_{status}", message, request_id)
