"""The datasets resource with its file helpers: import a file as one version, export a dataset as a file."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import time
from typing import IO, Any, Callable, Dict, Iterator, Mapping, Optional, Union, cast

from ._errors import SvcError
from ._generated import DatasetsResource, GetDatasetImportResponse
from ._live_changes import DatasetVersionEvent, watch_dataset
from ._transport import CallOptions, FileBody, path_segment

MEDIA_TYPES = {
    "csv": "text/csv",
    "jsonl": "application/x-ndjson",
    "json": "application/json",
    "parquet": "application/vnd.apache.parquet",
}
_EXTENSIONS = {".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "json", ".parquet": "parquet"}

PathOrFile = Union[str, "os.PathLike[str]", bytes, IO[bytes]]


class DatasetsWithFiles(DatasetsResource):
    """Datasets, with `import_file`, `wait_for_import`, `export_file` and `watch` beside the generated calls."""

    def watch(
        self,
        project_slug: str,
        dataset_slug: str,
        *,
        since: Optional[int] = None,
        max_reconnects: int = 10,
        timeout: Optional[float] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> Iterator[DatasetVersionEvent]:
        """The dataset's new versions as they are made, one event each, in order.

        `for event in client.datasets.watch("my-project", "qa-set", since=12): print(event.version)`.
        With `since`, every version after it comes first. A dropped connection is resumed with
        Last-Event-ID after a backoff, without a version missed or repeated; stop by leaving the loop.
        """
        return watch_dataset(
            self._transport,
            project_slug,
            dataset_slug,
            since=since,
            max_reconnects=max_reconnects,
            timeout=timeout,
            request_id=request_id,
            headers=headers,
        )

    def events(
        self, project_slug: str, dataset_slug: str, *, after: Optional[int] = None, **options: Any
    ) -> Iterator[DatasetVersionEvent]:
        """`watch`, with the version to start after named `after`."""
        return self.watch(project_slug, dataset_slug, since=after, **options)

    def import_file(
        self,
        project_slug: str,
        dataset_slug: str,
        file: PathOrFile,
        *,
        format: Optional[str] = None,
        mode: Optional[str] = None,
        map: Optional[Mapping[str, str]] = None,
        id_field: Optional[str] = None,
        wait: bool = True,
        poll_interval: float = 0.5,
        on_progress: Optional[Callable[[GetDatasetImportResponse], None]] = None,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> GetDatasetImportResponse:
        """Imports a file into a dataset as one version, all or nothing, streamed from disk.

        `file` is a path (its extension gives the format), the file's bytes, or a binary file object.
        `mode` is "insert" (default) or "update" (each line edits the row its id names); `map` sends file
        fields to cell identifiers or "new:<display name>". By default waits for the import to end and
        returns it; a bad file raises SvcError whose `details["line"]` names the line, and nothing is written.
        """
        resolved = format or _format_of(file)
        if resolved not in MEDIA_TYPES:
            raise ValueError('import_file needs format="csv", "jsonl", "json" or "parquet" for a file without such a name')
        options = CallOptions(timeout, max_retries, idempotency_key, request_id, headers)
        query: Dict[str, Any] = {
            "mode": mode,
            "map": None if map is None else json.dumps(dict(map)),
            "idField": id_field,
        }
        path = f"/v1/projects/{path_segment(project_slug)}/datasets/{path_segment(dataset_slug)}/imports"
        with contextlib.ExitStack() as stack:
            if isinstance(file, (str, os.PathLike)):
                handle = stack.enter_context(open(file, "rb"))
                body = FileBody(handle, MEDIA_TYPES[resolved], os.fstat(handle.fileno()).st_size)
            else:
                body = FileBody(file, MEDIA_TYPES[resolved], len(file) if isinstance(file, bytes) else None)
            started = self._transport.request(
                "POST", path, query=query, file=body, options=options, model=GetDatasetImportResponse
            )
        if not wait:
            return started
        return self.wait_for_import(
            project_slug, dataset_slug, started.import_id, poll_interval=poll_interval, on_progress=on_progress
        )

    def wait_for_import(
        self,
        project_slug: str,
        dataset_slug: str,
        import_id: str,
        *,
        poll_interval: float = 0.5,
        on_progress: Optional[Callable[[GetDatasetImportResponse], None]] = None,
    ) -> GetDatasetImportResponse:
        """Reads an import until it ends: returns it when it succeeded, raises its error when it failed."""
        while True:
            job = self.get_import(project_slug, dataset_slug, import_id)
            if on_progress is not None:
                on_progress(job)
            if job.state == "succeeded":
                return job
            if job.state == "failed":
                error = job.error
                details: Dict[str, Any] = dict((error.details or {}) if error else {})
                details["importId"] = import_id
                raise SvcError(
                    422,
                    error.code if error else "import_failed",
                    error.error if error else f"Import {import_id} failed",
                    None,
                    details,
                )
            time.sleep(poll_interval)

    def export_file(
        self,
        project_slug: str,
        dataset_slug: str,
        *,
        format: str,
        version: Optional[int] = None,
        to: Optional[PathOrFile] = None,
        timeout: Optional[float] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> Union[bytes, int]:
        """The dataset (at `version`, default the current one) as a "csv", "jsonl" or "parquet" file.

        With `to` (a path or a binary file object) the file is streamed there and the number of bytes
        written is returned; without, its bytes are returned.
        """
        if format not in ("csv", "jsonl", "parquet"):
            raise ValueError('export_file takes format="csv", "jsonl" or "parquet"')
        response = self._transport.download(
            f"/v1/projects/{path_segment(project_slug)}/datasets/{path_segment(dataset_slug)}/export",
            query={"format": format, "version": version},
            options=CallOptions(timeout, None, None, request_id, headers),
        )
        with response:
            if to is None:
                data: bytes = response.read()
                return data
            if isinstance(to, (str, os.PathLike)):
                with open(to, "wb") as handle:
                    shutil.copyfileobj(response, handle, 1024 * 1024)
                    return handle.tell()
            if isinstance(to, bytes):
                raise TypeError("export_file: `to` is a path or a binary file object, not bytes")
            written = 0
            while True:
                chunk = response.read(1024 * 1024)
                if not chunk:
                    return written
                to.write(chunk)
                written += len(chunk)


def _format_of(file: PathOrFile) -> Optional[str]:
    name: object = file if isinstance(file, (str, os.PathLike)) else getattr(file, "name", None)
    if isinstance(name, os.PathLike):
        name = os.fspath(cast("os.PathLike[str]", name))
    if not isinstance(name, str):
        return None
    return _EXTENSIONS.get(os.path.splitext(name)[1].lower())
