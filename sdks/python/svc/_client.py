from __future__ import annotations

import os
from typing import Optional

from ._experiments import ExperimentsWithRunner
from ._files import DatasetsWithFiles
from ._generated import Resources
from ._transport import Opener, Transport

DEFAULT_BASE_URL = "http://127.0.0.1:8080"
DEFAULT_TIMEOUT = 60.0
DEFAULT_MAX_RETRIES = 2


class Client(Resources):
    """The svc API, with operations grouped by resource.

    >>> client = Client(api_key="svc_...", base_url="http://127.0.0.1:8080")
    >>> client.datasets.update_row("my-project", "qa-set", "row-1", expected_output={"answer": "4"})

    Args:
        api_key: an API key of the organisation; defaults to the SVC_API_KEY environment variable.
        base_url: where the API is; defaults to SVC_BASE_URL, then http://127.0.0.1:8080.
        timeout: seconds allowed for connecting and for each read of an attempt (default 60);
            every method also takes `timeout=`.
        max_retries: retries after a connection error, a timeout, 408, 429 or 502-504 (default 2);
            every method also takes `max_retries=`.
        opener: sends one request, `opener(urllib.request.Request, timeout)`; replace it to add a proxy
            or logging. Defaults to urllib's own opener.
    """

    datasets: DatasetsWithFiles  # pyright: ignore[reportIncompatibleVariableOverride]
    experiments: ExperimentsWithRunner  # pyright: ignore[reportIncompatibleVariableOverride]

    def __init__(
        self,
        api_key: Optional[str] = None,
        base_url: Optional[str] = None,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        opener: Optional[Opener] = None,
    ) -> None:
        if not timeout > 0:
            raise ValueError("timeout must be a positive number of seconds")
        if not _is_count(max_retries):
            raise ValueError("max_retries must be a whole number, 0 or more")
        resolved_key = api_key if api_key is not None else (os.environ.get("SVC_API_KEY") or None)
        resolved_url = (base_url or os.environ.get("SVC_BASE_URL") or DEFAULT_BASE_URL).rstrip("/")
        self.base_url = resolved_url
        self._transport = Transport(resolved_key, resolved_url, float(timeout), max_retries, opener)
        super().__init__(self._transport)
        # Datasets with the file helpers import_file, wait_for_import and export_file.
        self.datasets = DatasetsWithFiles(self._transport)  # pyright: ignore[reportIncompatibleVariableOverride]
        # Experiments with run: a task over a dataset version, scored and recorded.
        self.experiments = ExperimentsWithRunner(self._transport)  # pyright: ignore[reportIncompatibleVariableOverride]

    def __repr__(self) -> str:
        return f"Client(base_url={self.base_url!r})"


def _is_count(value: object) -> bool:
    """A whole number, 0 or more; checked at run time too, for callers without a type checker."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0
