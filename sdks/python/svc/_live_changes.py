"""A dataset's live changes: its new versions as they are made, read as Server-Sent Events."""

from __future__ import annotations

import json
import random
import time
from typing import Any, Dict, Iterator, List, Literal, Mapping, Optional

from ._errors import SvcError
from ._generated import Actor
from ._models import Model
from ._transport import CallOptions, Transport, path_segment

_INITIAL_BACKOFF = 0.25
_MAX_BACKOFF = 8.0


class DatasetVersionEvent(Model):
    """One new dataset version, as `client.datasets.watch` yields it."""

    version: int
    version_id: str
    created_at: str
    """ISO-8601 timestamp in UTC"""
    operation: Literal["insert", "update", "delete", "import", "restore"]
    actor: Actor
    rows_inserted: int
    rows_updated: int
    rows_deleted: int
    row_ids: List[str]
    """The rows the version changed, at most 100"""
    row_ids_truncated: bool
    """True when the version changed more than 100 rows and `row_ids` names only some of them"""

    _svc_fields = {
        "version": ("version", None, False),
        "version_id": ("versionId", None, False),
        "created_at": ("createdAt", None, False),
        "operation": ("operation", None, False),
        "actor": ("actor", "Actor", False),
        "rows_inserted": ("rowsInserted", None, False),
        "rows_updated": ("rowsUpdated", None, False),
        "rows_deleted": ("rowsDeleted", None, False),
        "row_ids": ("rowIds", None, False),
        "row_ids_truncated": ("rowIdsTruncated", None, False),
    }


def watch_dataset(
    transport: Transport,
    project_slug: str,
    dataset_slug: str,
    *,
    since: Optional[int] = None,
    max_reconnects: int = 10,
    timeout: Optional[float] = None,
    request_id: Optional[str] = None,
    headers: Optional[Mapping[str, str]] = None,
) -> Iterator[DatasetVersionEvent]:
    """Yields the dataset's new versions in order, resuming a dropped connection with Last-Event-ID.

    The platform's refusal of the request (404, 401, 400) is raised; a connection that fails or drops
    (or a platform answering 5xx or 429 for a moment) is reopened after a backoff, at most
    `max_reconnects` times in a row. `timeout` bounds each read: the stream sends a comment line
    every 15 seconds, so a silent connection is a dead one.
    """
    path = f"/v1/projects/{path_segment(project_slug)}/datasets/{path_segment(dataset_slug)}/events"
    last = since
    failures = 0
    while True:
        sent: Dict[str, str] = dict(headers or {})
        sent["Accept"] = "text/event-stream"
        if last is not None:
            sent["Last-Event-ID"] = str(last)
        connected = False
        try:
            response = transport.download(path, options=CallOptions(timeout, 0, None, request_id, sent))
            connected = True
            failures = 0
            with response:
                for event, data in _server_sent_events(response):
                    if event != "version" or data == "":
                        continue
                    parsed = DatasetVersionEvent(json.loads(data))
                    # At or before the last one yielded: a repeat across a reconnection.
                    if last is not None and parsed.version <= last:
                        continue
                    last = parsed.version
                    yield parsed
        except SvcError as error:
            if not (error.status == 0 or error.status == 429 or error.status >= 500):
                raise
            failures += 1
            if failures > max_reconnects:
                raise
        except OSError:
            # The connection dropped (or went silent past `timeout`) mid-stream: reconnect below.
            if not connected:
                raise
        time.sleep(_backoff(failures))


def _backoff(failures: int) -> float:
    ceiling = min(_MAX_BACKOFF, _INITIAL_BACKOFF * 2 ** max(0, failures - 1))
    return ceiling / 2 + random.random() * ceiling / 2


def _server_sent_events(response: Any) -> Iterator[tuple[str, str]]:
    """(event, data) of each event of a text/event-stream body, as the WHATWG specification reads them.

    Lines end with LF or CRLF; `field: value` with one optional space; a blank line dispatches; `:`
    comments and other fields are ignored. Written here because the SDK uses the standard library only.
    """
    event = "message"
    data: List[str] = []
    while True:
        raw: bytes = response.readline()
        if not raw:
            return
        line = raw.decode("utf-8").rstrip("\r\n")
        if line == "":
            if data:
                yield event, "\n".join(data)
            event, data = "message", []
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        if value.startswith(" "):
            value = value[1:]
        if field == "data":
            data.append(value)
        elif field == "event":
            event = value
