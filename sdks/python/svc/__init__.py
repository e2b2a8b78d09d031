"""The Python client of the svc API (standard library only).

>>> from svc import Client
>>> client = Client()  # SVC_API_KEY and SVC_BASE_URL from the environment
>>> for row in client.datasets.iterate_rows("my-project", "qa-set"):
...     print(row.row_id, row.expected_output)
"""

from . import _generated
from ._client import DEFAULT_BASE_URL, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT, Client
from ._errors import SvcError
from ._experiments import CodeEvaluator, ExperimentsWithRunner, RunOutcome, RunProgress, TaskAnswer
from ._files import DatasetsWithFiles
from ._generated import *  # noqa: F403
from ._generated import OPERATIONS, Resources
from ._live_changes import DatasetVersionEvent
from ._models import UNSET, Model, Unset
from ._transport import CallOptions
from ._version import __version__

__all__ = [  # noqa: F405
    "DEFAULT_BASE_URL",
    "DEFAULT_MAX_RETRIES",
    "DEFAULT_TIMEOUT",
    "OPERATIONS",
    "UNSET",
    "CallOptions",
    "Client",
    "CodeEvaluator",
    "DatasetVersionEvent",
    "DatasetsWithFiles",
    "ExperimentsWithRunner",
    "Model",
    "Resources",
    "RunOutcome",
    "RunProgress",
    "SvcError",
    "TaskAnswer",
    "Unset",
    "__version__",
]
# Extended rather than unpacked inside the list: type checkers follow this form.
__all__ += _generated.__all__  # noqa: F405
