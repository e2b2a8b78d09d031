# Generated from shared/contracts/openapi.json by sdks/scripts/generate.mjs; do not edit.
# Regenerate with `node sdks/scripts/generate.mjs` after `npm run openapi`.
from __future__ import annotations

from typing import Any, Dict, Iterator, List, Literal, Mapping, Optional, TypedDict, Union

from ._models import UNSET, Model, Unset, drop_unset
from ._pagination import paginate
from ._transport import CallOptions, Transport, path_segment

Cell = Any
"""A cell: any JSON value (string, number, boolean, array, object or None)."""


class Actor(Model):
    """Who made a change: an API key, an OAuth grant (an agent's connection a person approved), a browser session opened with a key, or a person (a user signed in as themselves)"""
    kind: Literal["apiKey", "oauth", "session", "user"]
    id: str
    name: Optional[str]
    """For a user: their name as it is now (a rename shows on everything they changed)"""

    _svc_fields = {
        "kind": ("kind", None, False),
        "id": ("id", None, False),
        "name": ("name", None, False),
    }


class AddMemberResponse(Model):
    """The invited member, with the invitation's link when it was not mailed"""
    id: str
    user_id: str
    organization_id: str
    email: Optional[str]
    """Lower-case; null for the first owner of a fresh installation until they set one"""
    name: str
    """The person's name; the address until they set one"""
    role: Role
    status: Literal["invited", "active"]
    """invited until the person first signs in, then active"""
    created_at: str
    """ISO-8601 timestamp in UTC"""
    updated_at: str
    """ISO-8601 timestamp in UTC"""
    invite_url: Optional[str]
    """The one-time sign-in link (valid 7 days) to hand to the person, when no e-mail was sent (the platform has no SVC_SMTP_URL, or the mail could not be sent); null when it was mailed, and on a replay of this request: it is shown once"""

    _svc_fields = {
        "id": ("id", None, False),
        "user_id": ("userId", None, False),
        "organization_id": ("organizationId", None, False),
        "email": ("email", None, False),
        "name": ("name", None, False),
        "role": ("role", None, False),
        "status": ("status", None, False),
        "created_at": ("createdAt", None, False),
        "updated_at": ("updatedAt", None, False),
        "invite_url": ("inviteUrl", None, False),
    }


class ApiKey(Model):
    """The `ApiKey` object of the API."""
    id: str
    name: str
    role: Role
    masked_token: str
    """The token with all but its last four characters hidden"""
    created_at: str
    """ISO-8601 timestamp in UTC"""
    last_used_at: Optional[str]
    created_by: Optional[ApiKeyCreatedBy]
    """The person who made the key (their name as it is now); null for a key made by a key or at start-up"""

    _svc_fields = {
        "id": ("id", None, False),
        "name": ("name", None, False),
        "role": ("role", None, False),
        "masked_token": ("maskedToken", None, False),
        "created_at": ("createdAt", None, False),
        "last_used_at": ("lastUsedAt", None, False),
        "created_by": ("createdBy", "ApiKeyCreatedBy", False),
    }


class ApiKeyCreatedBy(Model):
    """The `ApiKeyCreatedBy` object of the API."""
    id: str
    name: str

    _svc_fields = {
        "id": ("id", None, False),
        "name": ("name", None, False),
    }


class CompareExperimentsResponse(Model):
    """The `CompareExperimentsResponse` object of the API."""
    items: List[CompareExperimentsResponseItem]
    next_cursor: Optional[str]
    has_more: bool
    summary: CompareExperimentsResponseSummary

    _svc_fields = {
        "items": ("items", "CompareExperimentsResponseItem", True),
        "next_cursor": ("nextCursor", None, False),
        "has_more": ("hasMore", None, False),
        "summary": ("summary", "CompareExperimentsResponseSummary", False),
    }


class CompareExperimentsResponseItem(Model):
    """The `CompareExperimentsResponseItem` object of the API."""
    row_id: str
    change: Literal["regressed", "improved", "added", "removed", "same"]
    row_changed: bool
    """The row's revision differs between the two experiments' versions"""
    a: Optional[ExperimentResult]
    b: Optional[ExperimentResult]

    _svc_fields = {
        "row_id": ("rowId", None, False),
        "change": ("change", None, False),
        "row_changed": ("rowChanged", None, False),
        "a": ("a", "ExperimentResult", False),
        "b": ("b", "ExperimentResult", False),
    }


class CompareExperimentsResponseSummary(Model):
    """The `CompareExperimentsResponseSummary` object of the API."""
    scores: Dict[str, CompareExperimentsResponseSummaryScoresValue]
    """Each shared score's mean in a and b, and b − a"""
    regressed: int
    improved: int
    same: int
    added: int
    removed: int
    rows_changed: int

    _svc_fields = {
        "scores": ("scores", "CompareExperimentsResponseSummaryScoresValue", "map"),
        "regressed": ("regressed", None, False),
        "improved": ("improved", None, False),
        "same": ("same", None, False),
        "added": ("added", None, False),
        "removed": ("removed", None, False),
        "rows_changed": ("rowsChanged", None, False),
    }


class CompareExperimentsResponseSummaryScoresValue(Model):
    """The `CompareExperimentsResponseSummaryScoresValue` object of the API."""
    a: Optional[float]
    b: Optional[float]
    delta: Optional[float]

    _svc_fields = {
        "a": ("a", None, False),
        "b": ("b", None, False),
        "delta": ("delta", None, False),
    }


class CopyDatasetRowsResponse(Model):
    """The `CopyDatasetRowsResponse` object of the API."""
    version_id: Optional[str]
    """The target's new version; null when nothing was selected"""
    version: int
    """The target's version"""
    rows_copied: int
    row_ids: List[str]
    """The copies' ids in the target, in the source's order; the first 10000 of a larger copy"""

    _svc_fields = {
        "version_id": ("versionId", None, False),
        "version": ("version", None, False),
        "rows_copied": ("rowsCopied", None, False),
        "row_ids": ("rowIds", None, False),
    }


class CountDatasetRowsResponse(Model):
    """The `CountDatasetRowsResponse` object of the API."""
    count: int
    """Rows that match, exact"""
    version: int
    """The dataset version counted: the one asked for, or the current one"""

    _svc_fields = {
        "count": ("count", None, False),
        "version": ("version", None, False),
    }


class CreatedApiKey(Model):
    """The `CreatedApiKey` object of the API."""
    id: str
    name: str
    role: Role
    masked_token: str
    """The token with all but its last four characters hidden"""
    created_at: str
    """ISO-8601 timestamp in UTC"""
    last_used_at: Optional[str]
    created_by: Optional[CreatedApiKeyCreatedBy]
    """The person who made the key (their name as it is now); null for a key made by a key or at start-up"""
    token: Optional[str]
    """The full token, shown in this answer only: store it now. null when tokenAlreadyShown is true: the token is not kept anywhere, so no later answer can give it"""
    token_already_shown: bool
    """true when this answer replays an earlier one (the same Idempotency-Key and body): the key was created by that request and its token shown in that answer only. If that answer was lost, revoke this key (by its id) and create another"""

    _svc_fields = {
        "id": ("id", None, False),
        "name": ("name", None, False),
        "role": ("role", None, False),
        "masked_token": ("maskedToken", None, False),
        "created_at": ("createdAt", None, False),
        "last_used_at": ("lastUsedAt", None, False),
        "created_by": ("createdBy", "CreatedApiKeyCreatedBy", False),
        "token": ("token", None, False),
        "token_already_shown": ("tokenAlreadyShown", None, False),
    }


class CreatedApiKeyCreatedBy(Model):
    """The `CreatedApiKeyCreatedBy` object of the API."""
    id: str
    name: str

    _svc_fields = {
        "id": ("id", None, False),
        "name": ("name", None, False),
    }


class CreateOrganizationResponse(Model):
    """The `CreateOrganizationResponse` object of the API."""
    organization: Organization
    api_key: CreatedApiKey
    owner: Optional[CreateOrganizationResponseOwner]
    """The invited first owner, when ownerEmail was given"""

    _svc_fields = {
        "organization": ("organization", "Organization", False),
        "api_key": ("apiKey", "CreatedApiKey", False),
        "owner": ("owner", "CreateOrganizationResponseOwner", False),
    }


class CreateOrganizationResponseOwner(Model):
    """The `CreateOrganizationResponseOwner` object of the API."""
    id: str
    user_id: str
    organization_id: str
    email: Optional[str]
    """Lower-case; null for the first owner of a fresh installation until they set one"""
    name: str
    """The person's name; the address until they set one"""
    role: Role
    status: Literal["invited", "active"]
    """invited until the person first signs in, then active"""
    created_at: str
    """ISO-8601 timestamp in UTC"""
    updated_at: str
    """ISO-8601 timestamp in UTC"""
    invite_url: Optional[str]
    """The one-time sign-in link (valid 7 days) to hand to the person, when no e-mail was sent (the platform has no SVC_SMTP_URL, or the mail could not be sent); null when it was mailed, and on a replay of this request: it is shown once"""

    _svc_fields = {
        "id": ("id", None, False),
        "user_id": ("userId", None, False),
        "organization_id": ("organizationId", None, False),
        "email": ("email", None, False),
        "name": ("name", None, False),
        "role": ("role", None, False),
        "status": ("status", None, False),
        "created_at": ("createdAt", None, False),
        "updated_at": ("updatedAt", None, False),
        "invite_url": ("inviteUrl", None, False),
    }


class Dataset(Model):
    """The `Dataset` object of the API."""
    id: str
    organization_id: str
    project_id: str
    slug: str
    name: str
    description: Optional[str]
    columns: List[DatasetColumn]
    version: int
    rows: int
    """Rows the dataset has at its current version (exact)"""
    created_at: str
    """ISO-8601 timestamp in UTC"""
    updated_at: str
    """ISO-8601 timestamp in UTC"""

    _svc_fields = {
        "id": ("id", None, False),
        "organization_id": ("organizationId", None, False),
        "project_id": ("projectId", None, False),
        "slug": ("slug", None, False),
        "name": ("name", None, False),
        "description": ("description", None, False),
        "columns": ("columns", "DatasetColumn", True),
        "version": ("version", None, False),
        "rows": ("rows", None, False),
        "created_at": ("createdAt", None, False),
        "updated_at": ("updatedAt", None, False),
    }


class DatasetColumn(Model):
    """The `DatasetColumn` object of the API."""
    identifier: str
    name: str
    source: Model
    removed: Optional[bool]

    _svc_fields = {
        "identifier": ("identifier", None, False),
        "name": ("name", None, False),
        "source": ("source", "Model", False),
        "removed": ("removed", None, False),
    }


class DatasetRow(Model):
    """The `DatasetRow` object of the API."""
    row_id: str
    dataset_id: str
    input: Cell
    output: Cell
    expected_output: Cell
    metadata: Cell
    custom: Dict[str, Cell]
    created_at: str
    """ISO-8601 timestamp in UTC"""
    version: int

    _svc_fields = {
        "row_id": ("rowId", None, False),
        "dataset_id": ("datasetId", None, False),
        "input": ("input", None, False),
        "output": ("output", None, False),
        "expected_output": ("expectedOutput", None, False),
        "metadata": ("metadata", None, False),
        "custom": ("custom", None, False),
        "created_at": ("createdAt", None, False),
        "version": ("version", None, False),
    }


class DatasetVersion(Model):
    """The `DatasetVersion` object of the API."""
    version_id: str
    version: int
    created_at: str
    """ISO-8601 timestamp in UTC"""
    operation: Literal["insert", "update", "delete", "import", "restore"]
    rows_inserted: int
    rows_updated: int
    rows_deleted: int
    rows: int
    """Rows the dataset has at this version (exact)"""
    actor: Actor

    _svc_fields = {
        "version_id": ("versionId", None, False),
        "version": ("version", None, False),
        "created_at": ("createdAt", None, False),
        "operation": ("operation", None, False),
        "rows_inserted": ("rowsInserted", None, False),
        "rows_updated": ("rowsUpdated", None, False),
        "rows_deleted": ("rowsDeleted", None, False),
        "rows": ("rows", None, False),
        "actor": ("actor", "Actor", False),
    }


class DeleteDatasetRowsResponse(Model):
    """The `DeleteDatasetRowsResponse` object of the API."""
    version_id: Optional[str]
    version: int
    deleted_count: int

    _svc_fields = {
        "version_id": ("versionId", None, False),
        "version": ("version", None, False),
        "deleted_count": ("deletedCount", None, False),
    }


class DiffDatasetVersionsResponse(Model):
    """The `DiffDatasetVersionsResponse` object of the API."""
    items: List[DiffDatasetVersionsResponseItem]
    next_cursor: Optional[str]
    has_more: bool

    _svc_fields = {
        "items": ("items", "DiffDatasetVersionsResponseItem", True),
        "next_cursor": ("nextCursor", None, False),
        "has_more": ("hasMore", None, False),
    }


class DiffDatasetVersionsResponseItem(Model):
    """The `DiffDatasetVersionsResponseItem` object of the API."""
    row_id: str
    change: Literal["added", "removed", "modified"]
    before: Optional[DiffDatasetVersionsResponseItemBefore]
    """The row's cells at `from`; null when it did not exist then"""
    after: Optional[DiffDatasetVersionsResponseItemAfter]
    """The row's cells at `to`; null when it did not exist then"""

    _svc_fields = {
        "row_id": ("rowId", None, False),
        "change": ("change", None, False),
        "before": ("before", "DiffDatasetVersionsResponseItemBefore", False),
        "after": ("after", "DiffDatasetVersionsResponseItemAfter", False),
    }


class DiffDatasetVersionsResponseItemAfter(Model):
    """The `DiffDatasetVersionsResponseItemAfter` object of the API."""
    input: Cell
    output: Cell
    expected_output: Cell
    metadata: Cell
    custom: Dict[str, Cell]

    _svc_fields = {
        "input": ("input", None, False),
        "output": ("output", None, False),
        "expected_output": ("expectedOutput", None, False),
        "metadata": ("metadata", None, False),
        "custom": ("custom", None, False),
    }


class DiffDatasetVersionsResponseItemBefore(Model):
    """The `DiffDatasetVersionsResponseItemBefore` object of the API."""
    input: Cell
    output: Cell
    expected_output: Cell
    metadata: Cell
    custom: Dict[str, Cell]

    _svc_fields = {
        "input": ("input", None, False),
        "output": ("output", None, False),
        "expected_output": ("expectedOutput", None, False),
        "metadata": ("metadata", None, False),
        "custom": ("custom", None, False),
    }


class Experiment(Model):
    """The `Experiment` object of the API."""
    id: str
    dataset_id: str
    name: str
    version: int
    """The dataset version the experiment runs on"""
    base_experiment_id: Optional[str]
    metadata: Cell
    status: Literal["running", "finished"]
    evaluators: List[Model]
    created_at: str
    """ISO-8601 timestamp in UTC"""
    finished_at: Optional[str]
    actor: Actor
    rows: int
    """Rows of the dataset at the pinned version"""
    results: int
    """Rows with a result (errors and carried ones included)"""
    errors: int
    """Results that record an error"""
    carried: int
    """Results carried over from the base experiment"""
    scores: Dict[str, ExperimentScoresValue]
    """Each score's summary, by name"""

    _svc_fields = {
        "id": ("id", None, False),
        "dataset_id": ("datasetId", None, False),
        "name": ("name", None, False),
        "version": ("version", None, False),
        "base_experiment_id": ("baseExperimentId", None, False),
        "metadata": ("metadata", None, False),
        "status": ("status", None, False),
        "evaluators": ("evaluators", "Model", True),
        "created_at": ("createdAt", None, False),
        "finished_at": ("finishedAt", None, False),
        "actor": ("actor", "Actor", False),
        "rows": ("rows", None, False),
        "results": ("results", None, False),
        "errors": ("errors", None, False),
        "carried": ("carried", None, False),
        "scores": ("scores", "ExperimentScoresValue", "map"),
    }


class ExperimentResult(Model):
    """The `ExperimentResult` object of the API."""
    row_id: str
    row_version: int
    """The dataset version that made the row as the experiment saw it"""
    input: Cell
    """The row's input at the experiment's version"""
    expected_output: Cell
    """The row's expected output at the experiment's version"""
    output: Cell
    trace_id: Optional[str]
    latency_ms: Optional[float]
    tokens: Optional[int]
    cost_microcents: Optional[int]
    error: Optional[str]
    carried_from: Optional[str]
    """The experiment this result was carried over from"""
    scores: Dict[str, ExperimentResultScoresValue]
    created_at: str
    """ISO-8601 timestamp in UTC"""

    _svc_fields = {
        "row_id": ("rowId", None, False),
        "row_version": ("rowVersion", None, False),
        "input": ("input", None, False),
        "expected_output": ("expectedOutput", None, False),
        "output": ("output", None, False),
        "trace_id": ("traceId", None, False),
        "latency_ms": ("latencyMs", None, False),
        "tokens": ("tokens", None, False),
        "cost_microcents": ("costMicrocents", None, False),
        "error": ("error", None, False),
        "carried_from": ("carriedFrom", None, False),
        "scores": ("scores", "ExperimentResultScoresValue", "map"),
        "created_at": ("createdAt", None, False),
    }


class ExperimentResultScoresValue(Model):
    """The `ExperimentResultScoresValue` object of the API."""
    value: ScoreValue
    source: Literal["rule", "code", "human", "llm"]
    comment: Optional[str]
    actor: Actor

    _svc_fields = {
        "value": ("value", None, False),
        "source": ("source", None, False),
        "comment": ("comment", None, False),
        "actor": ("actor", "Actor", False),
    }


class ExperimentScoresValue(Model):
    """The `ExperimentScoresValue` object of the API."""
    count: int
    mean: Optional[float]
    """Of numeric and boolean values; null when every value is a category"""
    min: Optional[float]
    max: Optional[float]

    _svc_fields = {
        "count": ("count", None, False),
        "mean": ("mean", None, False),
        "min": ("min", None, False),
        "max": ("max", None, False),
    }


class GetAccountResponse(Model):
    """The `GetAccountResponse` object of the API."""
    organization: GetAccountResponseOrganization
    role: Role
    user: Optional[GetAccountResponseUser]
    """The person behind the credential: a person's session, or the one who made the key; null for a key made by no person"""

    _svc_fields = {
        "organization": ("organization", "GetAccountResponseOrganization", False),
        "role": ("role", None, False),
        "user": ("user", "GetAccountResponseUser", False),
    }


class GetAccountResponseOrganization(Model):
    """The `GetAccountResponseOrganization` object of the API."""
    id: str
    name: str
    slug: str

    _svc_fields = {
        "id": ("id", None, False),
        "name": ("name", None, False),
        "slug": ("slug", None, False),
    }


class GetAccountResponseUser(Model):
    """The `GetAccountResponseUser` object of the API."""
    id: str
    email: Optional[str]
    """Lower-case; null for the first owner of a fresh installation until they set one"""
    name: str

    _svc_fields = {
        "id": ("id", None, False),
        "email": ("email", None, False),
        "name": ("name", None, False),
    }


class GetDatasetImportResponse(Model):
    """The `GetDatasetImportResponse` object of the API."""
    import_id: str
    state: Literal["receiving", "running", "succeeded", "failed"]
    format: Literal["csv", "jsonl", "json", "parquet"]
    mode: Literal["insert", "update"]
    bytes_read: int
    rows_read: int
    created_at: str
    finished_at: Optional[str]
    version_id: Optional[str]
    """The version the import made; null when it changed nothing"""
    version: Optional[int]
    """The dataset's version after the import: the one it made, or the current one when it changed nothing"""
    rows_inserted: Optional[int]
    rows_updated: Optional[int]
    error: Optional[GetDatasetImportResponseError]
    """Why a failed import failed; details.line names the file's line"""

    _svc_fields = {
        "import_id": ("importId", None, False),
        "state": ("state", None, False),
        "format": ("format", None, False),
        "mode": ("mode", None, False),
        "bytes_read": ("bytesRead", None, False),
        "rows_read": ("rowsRead", None, False),
        "created_at": ("createdAt", None, False),
        "finished_at": ("finishedAt", None, False),
        "version_id": ("versionId", None, False),
        "version": ("version", None, False),
        "rows_inserted": ("rowsInserted", None, False),
        "rows_updated": ("rowsUpdated", None, False),
        "error": ("error", "GetDatasetImportResponseError", False),
    }


class GetDatasetImportResponseError(Model):
    """Why a failed import failed; details.line names the file's line"""
    code: str
    error: str
    details: Optional[Dict[str, Any]]

    _svc_fields = {
        "code": ("code", None, False),
        "error": ("error", None, False),
        "details": ("details", None, False),
    }


class GetDatasetRowHistoryResponse(Model):
    """The `GetDatasetRowHistoryResponse` object of the API."""
    items: List[GetDatasetRowHistoryResponseItem]
    next_cursor: Optional[str]
    has_more: bool

    _svc_fields = {
        "items": ("items", "GetDatasetRowHistoryResponseItem", True),
        "next_cursor": ("nextCursor", None, False),
        "has_more": ("hasMore", None, False),
    }


class GetDatasetRowHistoryResponseItem(Model):
    """The `GetDatasetRowHistoryResponseItem` object of the API."""
    version: int
    version_id: str
    created_at: str
    """ISO-8601 timestamp in UTC"""
    operation: Literal["insert", "update", "delete", "import", "restore"]
    actor: Actor
    """Who made this version of the row"""
    cells: Optional[GetDatasetRowHistoryResponseItemCells]
    """The row's cells after this version; null when it was deleted"""

    _svc_fields = {
        "version": ("version", None, False),
        "version_id": ("versionId", None, False),
        "created_at": ("createdAt", None, False),
        "operation": ("operation", None, False),
        "actor": ("actor", "Actor", False),
        "cells": ("cells", "GetDatasetRowHistoryResponseItemCells", False),
    }


class GetDatasetRowHistoryResponseItemCells(Model):
    """The `GetDatasetRowHistoryResponseItemCells` object of the API."""
    input: Cell
    output: Cell
    expected_output: Cell
    metadata: Cell
    custom: Dict[str, Cell]

    _svc_fields = {
        "input": ("input", None, False),
        "output": ("output", None, False),
        "expected_output": ("expectedOutput", None, False),
        "metadata": ("metadata", None, False),
        "custom": ("custom", None, False),
    }


class GetTraceMetricsResponse(Model):
    """The `GetTraceMetricsResponse` object of the API."""
    series: List[GetTraceMetricsResponseSerie]
    """Every bucket of the range for each group, by time then group; a bucket without traces is zeros"""

    _svc_fields = {
        "series": ("series", "GetTraceMetricsResponseSerie", True),
    }


class GetTraceMetricsResponseSerie(Model):
    """The `GetTraceMetricsResponseSerie` object of the API."""
    time: str
    """Start of the bucket"""
    group: Optional[str]
    """The model, root span name or tag; null for traces without one (and for every point without groupBy, and for the sum of the other groups)"""
    other_groups: bool
    """True for the one series that sums every group past the 20 with the most traces"""
    traces: int
    """Traces that started in the bucket"""
    errors: int
    """Of those, traces with at least one span whose status is error"""
    latency_p50_ms: float
    """Median trace duration in milliseconds, within 5% (0 without traces)"""
    latency_p95_ms: float
    """95th percentile of trace duration in milliseconds, within 5%"""
    tokens_input: int
    tokens_output: int
    cost_microcents: int
    """Cost in millionths of a US cent (1 USD = 10^8)"""

    _svc_fields = {
        "time": ("time", None, False),
        "group": ("group", None, False),
        "other_groups": ("otherGroups", None, False),
        "traces": ("traces", None, False),
        "errors": ("errors", None, False),
        "latency_p50_ms": ("latencyP50Ms", None, False),
        "latency_p95_ms": ("latencyP95Ms", None, False),
        "tokens_input": ("tokensInput", None, False),
        "tokens_output": ("tokensOutput", None, False),
        "cost_microcents": ("costMicrocents", None, False),
    }


class GetTraceResponse(Model):
    """The `GetTraceResponse` object of the API."""
    trace_id: str
    project_id: str
    span_count: int
    error_count: int
    """Spans whose status code is 2 (error)"""
    start_time: str
    """Start of the earliest span, to the millisecond"""
    end_time: str
    """End of the latest span, to the millisecond"""
    duration_ns: str
    """endTime - startTime in nanoseconds, exact, as a string of digits (it may exceed 2^53)"""
    root_span_name: Optional[str]
    session_id: Optional[str]
    user_id: Optional[str]
    tags: List[str]
    models: List[str]
    tokens_input: int
    tokens_output: int
    tokens_total: int
    cost_total_microcents: int
    """Cost in millionths of a US cent (1 USD = 10^8)"""
    input: Cell
    """The root span's generative-AI input messages; null when it has none"""
    output: Cell
    """The root span's generative-AI output messages; null when it has none"""
    spans: List[Span]
    """Every span of the trace, by start time (then span id): a flat list a client builds the tree from with parentSpanId, however deep"""

    _svc_fields = {
        "trace_id": ("traceId", None, False),
        "project_id": ("projectId", None, False),
        "span_count": ("spanCount", None, False),
        "error_count": ("errorCount", None, False),
        "start_time": ("startTime", None, False),
        "end_time": ("endTime", None, False),
        "duration_ns": ("durationNs", None, False),
        "root_span_name": ("rootSpanName", None, False),
        "session_id": ("sessionId", None, False),
        "user_id": ("userId", None, False),
        "tags": ("tags", None, False),
        "models": ("models", None, False),
        "tokens_input": ("tokensInput", None, False),
        "tokens_output": ("tokensOutput", None, False),
        "tokens_total": ("tokensTotal", None, False),
        "cost_total_microcents": ("costTotalMicrocents", None, False),
        "input": ("input", None, False),
        "output": ("output", None, False),
        "spans": ("spans", "Span", True),
    }


class ImportDatasetRowsFromTracesResponse(Model):
    """The `ImportDatasetRowsFromTracesResponse` object of the API."""
    version_id: str
    version: int
    row_ids: List[str]

    _svc_fields = {
        "version_id": ("versionId", None, False),
        "version": ("version", None, False),
        "row_ids": ("rowIds", None, False),
    }


class IngestTracesResponse(Model):
    """The `IngestTracesResponse` object of the API."""
    partial_success: IngestTracesResponsePartialSuccess

    _svc_fields = {
        "partial_success": ("partialSuccess", "IngestTracesResponsePartialSuccess", False),
    }


class IngestTracesResponsePartialSuccess(Model):
    """The `IngestTracesResponsePartialSuccess` object of the API."""
    rejected_spans: Optional[int]
    error_message: Optional[str]

    _svc_fields = {
        "rejected_spans": ("rejectedSpans", None, False),
        "error_message": ("errorMessage", None, False),
    }


class InsertDatasetRowsResponse(Model):
    """The `InsertDatasetRowsResponse` object of the API."""
    version_id: str
    version: int
    row_ids: List[str]

    _svc_fields = {
        "version_id": ("versionId", None, False),
        "version": ("version", None, False),
        "row_ids": ("rowIds", None, False),
    }


class ListApiKeysResponse(Model):
    """The `ListApiKeysResponse` object of the API."""
    api_keys: List[ApiKey]

    _svc_fields = {
        "api_keys": ("apiKeys", "ApiKey", True),
    }


class ListDatasetColumnsResponse(Model):
    """The `ListDatasetColumnsResponse` object of the API."""
    columns: List[DatasetColumn]

    _svc_fields = {
        "columns": ("columns", "DatasetColumn", True),
    }


class ListDatasetRowsResponse(Model):
    """The `ListDatasetRowsResponse` object of the API."""
    items: List[DatasetRow]
    next_cursor: Optional[str]
    has_more: bool

    _svc_fields = {
        "items": ("items", "DatasetRow", True),
        "next_cursor": ("nextCursor", None, False),
        "has_more": ("hasMore", None, False),
    }


class ListDatasetsResponse(Model):
    """The `ListDatasetsResponse` object of the API."""
    items: List[Dataset]
    next_cursor: Optional[str]
    has_more: bool

    _svc_fields = {
        "items": ("items", "Dataset", True),
        "next_cursor": ("nextCursor", None, False),
        "has_more": ("hasMore", None, False),
    }


class ListDatasetVersionsResponse(Model):
    """The `ListDatasetVersionsResponse` object of the API."""
    items: List[DatasetVersion]
    next_cursor: Optional[str]
    has_more: bool

    _svc_fields = {
        "items": ("items", "DatasetVersion", True),
        "next_cursor": ("nextCursor", None, False),
        "has_more": ("hasMore", None, False),
    }


class ListExperimentPendingRowsResponse(Model):
    """The `ListExperimentPendingRowsResponse` object of the API."""
    items: List[DatasetRow]
    next_cursor: Optional[str]
    has_more: bool

    _svc_fields = {
        "items": ("items", "DatasetRow", True),
        "next_cursor": ("nextCursor", None, False),
        "has_more": ("hasMore", None, False),
    }


class ListExperimentResultsResponse(Model):
    """The `ListExperimentResultsResponse` object of the API."""
    items: List[ExperimentResult]
    next_cursor: Optional[str]
    has_more: bool

    _svc_fields = {
        "items": ("items", "ExperimentResult", True),
        "next_cursor": ("nextCursor", None, False),
        "has_more": ("hasMore", None, False),
    }


class ListExperimentsResponse(Model):
    """The `ListExperimentsResponse` object of the API."""
    items: List[Experiment]
    next_cursor: Optional[str]
    has_more: bool

    _svc_fields = {
        "items": ("items", "Experiment", True),
        "next_cursor": ("nextCursor", None, False),
        "has_more": ("hasMore", None, False),
    }


class ListMembersResponse(Model):
    """The `ListMembersResponse` object of the API."""
    items: List[Member]
    next_cursor: Optional[str]
    has_more: bool

    _svc_fields = {
        "items": ("items", "Member", True),
        "next_cursor": ("nextCursor", None, False),
        "has_more": ("hasMore", None, False),
    }


class ListModelPricesResponse(Model):
    """The `ListModelPricesResponse` object of the API."""
    model_prices: List[ModelPrice]

    _svc_fields = {
        "model_prices": ("modelPrices", "ModelPrice", True),
    }


class ListProjectsResponse(Model):
    """The `ListProjectsResponse` object of the API."""
    items: List[Project]
    next_cursor: Optional[str]
    has_more: bool

    _svc_fields = {
        "items": ("items", "Project", True),
        "next_cursor": ("nextCursor", None, False),
        "has_more": ("hasMore", None, False),
    }


class ListTraceSessionsResponse(Model):
    """The `ListTraceSessionsResponse` object of the API."""
    items: List[ListTraceSessionsResponseItem]
    next_cursor: Optional[str]
    has_more: bool

    _svc_fields = {
        "items": ("items", "ListTraceSessionsResponseItem", True),
        "next_cursor": ("nextCursor", None, False),
        "has_more": ("hasMore", None, False),
    }


class ListTraceSessionsResponseItem(Model):
    """The `ListTraceSessionsResponseItem` object of the API."""
    traces: int
    errors: int
    """Traces with at least one span whose status is error"""
    tokens_input: int
    tokens_output: int
    tokens_total: int
    cost_microcents: int
    first_time: str
    """Start of the earliest trace"""
    last_time: str
    """Start of the latest trace"""
    session_id: str

    _svc_fields = {
        "traces": ("traces", None, False),
        "errors": ("errors", None, False),
        "tokens_input": ("tokensInput", None, False),
        "tokens_output": ("tokensOutput", None, False),
        "tokens_total": ("tokensTotal", None, False),
        "cost_microcents": ("costMicrocents", None, False),
        "first_time": ("firstTime", None, False),
        "last_time": ("lastTime", None, False),
        "session_id": ("sessionId", None, False),
    }


class ListTracesResponse(Model):
    """The `ListTracesResponse` object of the API."""
    items: List[Trace]
    next_cursor: Optional[str]
    has_more: bool
    total: int
    """How many traces match the filters, exactly, over every page"""

    _svc_fields = {
        "items": ("items", "Trace", True),
        "next_cursor": ("nextCursor", None, False),
        "has_more": ("hasMore", None, False),
        "total": ("total", None, False),
    }


class ListTraceUsersResponse(Model):
    """The `ListTraceUsersResponse` object of the API."""
    items: List[ListTraceUsersResponseItem]
    next_cursor: Optional[str]
    has_more: bool

    _svc_fields = {
        "items": ("items", "ListTraceUsersResponseItem", True),
        "next_cursor": ("nextCursor", None, False),
        "has_more": ("hasMore", None, False),
    }


class ListTraceUsersResponseItem(Model):
    """The `ListTraceUsersResponseItem` object of the API."""
    traces: int
    errors: int
    """Traces with at least one span whose status is error"""
    tokens_input: int
    tokens_output: int
    tokens_total: int
    cost_microcents: int
    first_time: str
    """Start of the earliest trace"""
    last_time: str
    """Start of the latest trace"""
    user_id: str

    _svc_fields = {
        "traces": ("traces", None, False),
        "errors": ("errors", None, False),
        "tokens_input": ("tokensInput", None, False),
        "tokens_output": ("tokensOutput", None, False),
        "tokens_total": ("tokensTotal", None, False),
        "cost_microcents": ("costMicrocents", None, False),
        "first_time": ("firstTime", None, False),
        "last_time": ("lastTime", None, False),
        "user_id": ("userId", None, False),
    }


class Member(Model):
    """The `Member` object of the API."""
    id: str
    user_id: str
    organization_id: str
    email: Optional[str]
    """Lower-case; null for the first owner of a fresh installation until they set one"""
    name: str
    """The person's name; the address until they set one"""
    role: Role
    status: Literal["invited", "active"]
    """invited until the person first signs in, then active"""
    created_at: str
    """ISO-8601 timestamp in UTC"""
    updated_at: str
    """ISO-8601 timestamp in UTC"""

    _svc_fields = {
        "id": ("id", None, False),
        "user_id": ("userId", None, False),
        "organization_id": ("organizationId", None, False),
        "email": ("email", None, False),
        "name": ("name", None, False),
        "role": ("role", None, False),
        "status": ("status", None, False),
        "created_at": ("createdAt", None, False),
        "updated_at": ("updatedAt", None, False),
    }


class ModelPrice(Model):
    """The `ModelPrice` object of the API."""
    id: str
    """`default:` and the model and date for a shipped default"""
    model: str
    effective_from: str
    """The first UTC day (YYYY-MM-DD) whose spans take this price"""
    input_usd_per_million_tokens: float
    output_usd_per_million_tokens: float
    source: Literal["default", "organization"]
    """A shipped default, or the organisation's own price (which replaces a default of the same model and date)"""
    updated_at: Optional[str]
    """When the organisation set it; null for a default"""

    _svc_fields = {
        "id": ("id", None, False),
        "model": ("model", None, False),
        "effective_from": ("effectiveFrom", None, False),
        "input_usd_per_million_tokens": ("inputUsdPerMillionTokens", None, False),
        "output_usd_per_million_tokens": ("outputUsdPerMillionTokens", None, False),
        "source": ("source", None, False),
        "updated_at": ("updatedAt", None, False),
    }


class Organization(Model):
    """The `Organization` object of the API."""
    id: str
    name: str
    slug: str
    created_at: str
    """ISO-8601 timestamp in UTC"""

    _svc_fields = {
        "id": ("id", None, False),
        "name": ("name", None, False),
        "slug": ("slug", None, False),
        "created_at": ("createdAt", None, False),
    }


class Project(Model):
    """The `Project` object of the API."""
    id: str
    organization_id: str
    slug: str
    name: str
    created_at: str
    """ISO-8601 timestamp in UTC"""
    updated_at: str
    """ISO-8601 timestamp in UTC"""

    _svc_fields = {
        "id": ("id", None, False),
        "organization_id": ("organizationId", None, False),
        "slug": ("slug", None, False),
        "name": ("name", None, False),
        "created_at": ("createdAt", None, False),
        "updated_at": ("updatedAt", None, False),
    }


class RecordExperimentResultsResponse(Model):
    """The `RecordExperimentResultsResponse` object of the API."""
    recorded: int

    _svc_fields = {
        "recorded": ("recorded", None, False),
    }


class RecordExperimentScoresResponse(Model):
    """The `RecordExperimentScoresResponse` object of the API."""
    recorded: int

    _svc_fields = {
        "recorded": ("recorded", None, False),
    }


class ReorderDatasetColumnsResponse(Model):
    """The `ReorderDatasetColumnsResponse` object of the API."""
    columns: List[DatasetColumn]

    _svc_fields = {
        "columns": ("columns", "DatasetColumn", True),
    }


class RestoreDatasetVersionResponse(Model):
    """The `RestoreDatasetVersionResponse` object of the API."""
    version_id: str
    version: int

    _svc_fields = {
        "version_id": ("versionId", None, False),
        "version": ("version", None, False),
    }


class Span(Model):
    """The `Span` object of the API."""
    span_id: str
    parent_span_id: Optional[str]
    """The parent's span id; null for a root. It may name a span that is not in `spans` (its exporter never sent it, or not yet): draw such a span as a root of its own"""
    name: str
    kind: Literal["unspecified", "internal", "server", "client", "producer", "consumer"]
    start_time: str
    """ISO-8601 timestamp in UTC"""
    end_time: str
    """ISO-8601 timestamp in UTC"""
    start_time_unix_nano: str
    end_time_unix_nano: str
    duration_ns: str
    status: SpanStatus
    attributes: Dict[str, Cell]
    """The span's attributes as plain JSON values"""
    resource_attributes: Dict[str, Cell]
    scope: Optional[SpanScope]
    events: List[SpanEvent]
    links: List[SpanLink]
    model: Optional[str]
    """The model that answered (gen_ai.response.model), else the one asked for (gen_ai.request.model)"""
    input: Cell
    """The generative-AI input messages (gen_ai.input.messages, gen_ai.prompt and their older forms); null when none"""
    output: Cell
    """The generative-AI output messages (gen_ai.output.messages, gen_ai.completion…)"""
    tokens_input: int
    tokens_output: int
    cost_microcents: Optional[int]
    """What the exporter said it cost (gen_ai.usage.cost), else its tokens at the model's price when it was ingested; null when neither is known"""

    _svc_fields = {
        "span_id": ("spanId", None, False),
        "parent_span_id": ("parentSpanId", None, False),
        "name": ("name", None, False),
        "kind": ("kind", None, False),
        "start_time": ("startTime", None, False),
        "end_time": ("endTime", None, False),
        "start_time_unix_nano": ("startTimeUnixNano", None, False),
        "end_time_unix_nano": ("endTimeUnixNano", None, False),
        "duration_ns": ("durationNs", None, False),
        "status": ("status", "SpanStatus", False),
        "attributes": ("attributes", None, False),
        "resource_attributes": ("resourceAttributes", None, False),
        "scope": ("scope", "SpanScope", False),
        "events": ("events", "SpanEvent", True),
        "links": ("links", "SpanLink", True),
        "model": ("model", None, False),
        "input": ("input", None, False),
        "output": ("output", None, False),
        "tokens_input": ("tokensInput", None, False),
        "tokens_output": ("tokensOutput", None, False),
        "cost_microcents": ("costMicrocents", None, False),
    }


class SpanEvent(Model):
    """The `SpanEvent` object of the API."""
    name: str
    time: str
    """ISO-8601 timestamp in UTC"""
    time_unix_nano: str
    attributes: Dict[str, Cell]

    _svc_fields = {
        "name": ("name", None, False),
        "time": ("time", None, False),
        "time_unix_nano": ("timeUnixNano", None, False),
        "attributes": ("attributes", None, False),
    }


class SpanLink(Model):
    """The `SpanLink` object of the API."""
    trace_id: str
    span_id: str
    attributes: Dict[str, Cell]

    _svc_fields = {
        "trace_id": ("traceId", None, False),
        "span_id": ("spanId", None, False),
        "attributes": ("attributes", None, False),
    }


class SpanScope(Model):
    """The `SpanScope` object of the API."""
    name: str
    version: Optional[str]

    _svc_fields = {
        "name": ("name", None, False),
        "version": ("version", None, False),
    }


class SpanStatus(Model):
    """The `SpanStatus` object of the API."""
    code: Literal["unset", "ok", "error"]
    message: Optional[str]

    _svc_fields = {
        "code": ("code", None, False),
        "message": ("message", None, False),
    }


class Trace(Model):
    """The `Trace` object of the API."""
    trace_id: str
    project_id: str
    span_count: int
    error_count: int
    """Spans whose status code is 2 (error)"""
    start_time: str
    """Start of the earliest span, to the millisecond"""
    end_time: str
    """End of the latest span, to the millisecond"""
    duration_ns: str
    """endTime - startTime in nanoseconds, exact, as a string of digits (it may exceed 2^53)"""
    root_span_name: Optional[str]
    session_id: Optional[str]
    user_id: Optional[str]
    tags: List[str]
    models: List[str]
    tokens_input: int
    tokens_output: int
    tokens_total: int
    cost_total_microcents: int
    """Cost in millionths of a US cent (1 USD = 10^8)"""
    input: Cell
    """The root span's generative-AI input messages; null when it has none"""
    output: Cell
    """The root span's generative-AI output messages; null when it has none"""

    _svc_fields = {
        "trace_id": ("traceId", None, False),
        "project_id": ("projectId", None, False),
        "span_count": ("spanCount", None, False),
        "error_count": ("errorCount", None, False),
        "start_time": ("startTime", None, False),
        "end_time": ("endTime", None, False),
        "duration_ns": ("durationNs", None, False),
        "root_span_name": ("rootSpanName", None, False),
        "session_id": ("sessionId", None, False),
        "user_id": ("userId", None, False),
        "tags": ("tags", None, False),
        "models": ("models", None, False),
        "tokens_input": ("tokensInput", None, False),
        "tokens_output": ("tokensOutput", None, False),
        "tokens_total": ("tokensTotal", None, False),
        "cost_total_microcents": ("costTotalMicrocents", None, False),
        "input": ("input", None, False),
        "output": ("output", None, False),
    }


class UpdateAccountUserResponse(Model):
    """The person as they are now"""
    id: str
    email: Optional[str]
    """Lower-case; null for the first owner of a fresh installation until they set one"""
    name: str

    _svc_fields = {
        "id": ("id", None, False),
        "email": ("email", None, False),
        "name": ("name", None, False),
    }


class UpdateDatasetRowResponse(Model):
    """The `UpdateDatasetRowResponse` object of the API."""
    version_id: str
    version: int

    _svc_fields = {
        "version_id": ("versionId", None, False),
        "version": ("version", None, False),
    }


class UpdateDatasetRowsResponse(Model):
    """The `UpdateDatasetRowsResponse` object of the API."""
    version_id: Optional[str]
    """The new version; null when no cell changed and no version was made"""
    version: int
    rows_updated: int
    """Rows with at least one cell changed"""

    _svc_fields = {
        "version_id": ("versionId", None, False),
        "version": ("version", None, False),
        "rows_updated": ("rowsUpdated", None, False),
    }


class CopyDatasetRowsSelectionAllExceptParam(TypedDict):
    """The `CopyDatasetRowsSelectionAllExceptParam` request object, keyed as sent."""
    mode: Literal["allExcept"]
    rowIds: List[str]


class CopyDatasetRowsSelectionAllParam(TypedDict):
    """The `CopyDatasetRowsSelectionAllParam` request object, keyed as sent."""
    mode: Literal["all"]


class _CopyDatasetRowsSelectionFilterParamRequired(TypedDict):
    mode: Literal["filter"]


class CopyDatasetRowsSelectionFilterParam(_CopyDatasetRowsSelectionFilterParamRequired, total=False):
    """Every row the list filters select, as GET …/rows takes them; no filter selects every row"""
    search: str
    missing: List[str]
    present: List[str]
    where: Union[str, List[str]]
    """Value filters as GET …/rows takes them, such as ["metadata.source=\\"prod\\""]"""


class CopyDatasetRowsSelectionSelectedParam(TypedDict):
    """The `CopyDatasetRowsSelectionSelectedParam` request object, keyed as sent."""
    mode: Literal["selected"]
    rowIds: List[str]


class _CopyDatasetRowsToParamRequired(TypedDict):
    datasetSlug: str


class CopyDatasetRowsToParam(_CopyDatasetRowsToParamRequired, total=False):
    """The `CopyDatasetRowsToParam` request object, keyed as sent."""
    projectSlug: str
    """The target's project; default: the source's"""


class _EvaluatorContainsParamRequired(TypedDict):
    name: str
    """The name of the score this evaluator gives"""
    kind: Literal["contains"]


class EvaluatorContainsParam(_EvaluatorContainsParamRequired, total=False):
    """The `EvaluatorContainsParam` request object, keyed as sent."""
    expected: Cell
    """Compare with this value instead of the row's expectedOutput (at the experiment's version)"""
    value: str
    """The text the output must contain; the expected output's text when left out"""
    caseSensitive: bool
    """Compare letters' case too (default true)"""


class _EvaluatorExactMatchParamRequired(TypedDict):
    name: str
    """The name of the score this evaluator gives"""
    kind: Literal["exact_match"]


class EvaluatorExactMatchParam(_EvaluatorExactMatchParamRequired, total=False):
    """The `EvaluatorExactMatchParam` request object, keyed as sent."""
    expected: Cell
    """Compare with this value instead of the row's expectedOutput (at the experiment's version)"""
    caseSensitive: bool
    """Compare letters' case too (default true)"""
    trim: bool
    """Ignore white space at both ends (default false)"""


class _EvaluatorJsonEqualParamRequired(TypedDict):
    name: str
    """The name of the score this evaluator gives"""
    kind: Literal["json_equal"]


class EvaluatorJsonEqualParam(_EvaluatorJsonEqualParamRequired, total=False):
    """The `EvaluatorJsonEqualParam` request object, keyed as sent."""
    expected: Cell
    """Compare with this value instead of the row's expectedOutput (at the experiment's version)"""


class EvaluatorJsonSchemaParam(TypedDict):
    """The `EvaluatorJsonSchemaParam` request object, keyed as sent."""
    name: str
    """The name of the score this evaluator gives"""
    kind: Literal["json_schema"]
    schema: Dict[str, Any]
    """A JSON Schema (draft 2020-12 or 07) the output must satisfy"""


class _EvaluatorLevenshteinParamRequired(TypedDict):
    name: str
    """The name of the score this evaluator gives"""
    kind: Literal["levenshtein"]


class EvaluatorLevenshteinParam(_EvaluatorLevenshteinParamRequired, total=False):
    """The `EvaluatorLevenshteinParam` request object, keyed as sent."""
    expected: Cell
    """Compare with this value instead of the row's expectedOutput (at the experiment's version)"""
    caseSensitive: bool
    """Compare letters' case too (default true)"""


class _EvaluatorNumericCloseParamRequired(TypedDict):
    name: str
    """The name of the score this evaluator gives"""
    kind: Literal["numeric_close"]


class EvaluatorNumericCloseParam(_EvaluatorNumericCloseParamRequired, total=False):
    """The `EvaluatorNumericCloseParam` request object, keyed as sent."""
    expected: Cell
    """Compare with this value instead of the row's expectedOutput (at the experiment's version)"""
    tolerance: float
    """Largest absolute difference that passes"""
    relativeTolerance: float
    """Largest difference, as a share of the expected value, that passes"""


class _EvaluatorRegexParamRequired(TypedDict):
    name: str
    """The name of the score this evaluator gives"""
    kind: Literal["regex"]
    pattern: str
    """RE2 syntax: matching takes linear time"""


class EvaluatorRegexParam(_EvaluatorRegexParamRequired, total=False):
    """The `EvaluatorRegexParam` request object, keyed as sent."""
    flags: str
    """i (ignore case), m (multi-line), s (dot matches new lines)"""


class ImportDatasetRowsFromTracesTracesFiltersParam(TypedDict):
    """The `ImportDatasetRowsFromTracesTracesFiltersParam` request object, keyed as sent."""
    by: Literal["filters"]
    filters: List[TraceFilterParam]
    """Conditions that every listed trace meets (AND)"""


class ImportDatasetRowsFromTracesTracesIdsParam(TypedDict):
    """The `ImportDatasetRowsFromTracesTracesIdsParam` request object, keyed as sent."""
    by: Literal["ids"]
    ids: List[str]


class IngestTracesResourceSpanParam(TypedDict, total=False):
    """The `IngestTracesResourceSpanParam` request object, keyed as sent."""
    resource: IngestTracesResourceSpanResourceParam
    scopeSpans: List[IngestTracesResourceSpanScopeSpanParam]
    schemaUrl: str


class _IngestTracesResourceSpanResourceAttributeParamRequired(TypedDict):
    key: str


class IngestTracesResourceSpanResourceAttributeParam(_IngestTracesResourceSpanResourceAttributeParamRequired, total=False):
    """The `IngestTracesResourceSpanResourceAttributeParam` request object, keyed as sent."""
    value: OtlpAnyValueParam


class IngestTracesResourceSpanResourceParam(TypedDict, total=False):
    """The `IngestTracesResourceSpanResourceParam` request object, keyed as sent."""
    attributes: List[IngestTracesResourceSpanResourceAttributeParam]


class IngestTracesResourceSpanScopeSpanParam(TypedDict, total=False):
    """The `IngestTracesResourceSpanScopeSpanParam` request object, keyed as sent."""
    scope: IngestTracesResourceSpanScopeSpanScopeParam
    spans: List[IngestTracesResourceSpanScopeSpanSpanParam]
    schemaUrl: str


class _IngestTracesResourceSpanScopeSpanScopeAttributeParamRequired(TypedDict):
    key: str


class IngestTracesResourceSpanScopeSpanScopeAttributeParam(_IngestTracesResourceSpanScopeSpanScopeAttributeParamRequired, total=False):
    """The `IngestTracesResourceSpanScopeSpanScopeAttributeParam` request object, keyed as sent."""
    value: OtlpAnyValueParam


class IngestTracesResourceSpanScopeSpanScopeParam(TypedDict, total=False):
    """The `IngestTracesResourceSpanScopeSpanScopeParam` request object, keyed as sent."""
    name: str
    version: str
    attributes: List[IngestTracesResourceSpanScopeSpanScopeAttributeParam]


class _IngestTracesResourceSpanScopeSpanSpanAttributeParamRequired(TypedDict):
    key: str


class IngestTracesResourceSpanScopeSpanSpanAttributeParam(_IngestTracesResourceSpanScopeSpanSpanAttributeParamRequired, total=False):
    """The `IngestTracesResourceSpanScopeSpanSpanAttributeParam` request object, keyed as sent."""
    value: OtlpAnyValueParam


class _IngestTracesResourceSpanScopeSpanSpanEventAttributeParamRequired(TypedDict):
    key: str


class IngestTracesResourceSpanScopeSpanSpanEventAttributeParam(_IngestTracesResourceSpanScopeSpanSpanEventAttributeParamRequired, total=False):
    """The `IngestTracesResourceSpanScopeSpanSpanEventAttributeParam` request object, keyed as sent."""
    value: OtlpAnyValueParam


class _IngestTracesResourceSpanScopeSpanSpanEventParamRequired(TypedDict):
    timeUnixNano: Union[str, int]


class IngestTracesResourceSpanScopeSpanSpanEventParam(_IngestTracesResourceSpanScopeSpanSpanEventParamRequired, total=False):
    """The `IngestTracesResourceSpanScopeSpanSpanEventParam` request object, keyed as sent."""
    name: str
    attributes: List[IngestTracesResourceSpanScopeSpanSpanEventAttributeParam]


class _IngestTracesResourceSpanScopeSpanSpanLinkAttributeParamRequired(TypedDict):
    key: str


class IngestTracesResourceSpanScopeSpanSpanLinkAttributeParam(_IngestTracesResourceSpanScopeSpanSpanLinkAttributeParamRequired, total=False):
    """The `IngestTracesResourceSpanScopeSpanSpanLinkAttributeParam` request object, keyed as sent."""
    value: OtlpAnyValueParam


class _IngestTracesResourceSpanScopeSpanSpanLinkParamRequired(TypedDict):
    traceId: str
    """Trace id: 32 hex characters, as OpenTelemetry writes it"""
    spanId: str


class IngestTracesResourceSpanScopeSpanSpanLinkParam(_IngestTracesResourceSpanScopeSpanSpanLinkParamRequired, total=False):
    """The `IngestTracesResourceSpanScopeSpanSpanLinkParam` request object, keyed as sent."""
    attributes: List[IngestTracesResourceSpanScopeSpanSpanLinkAttributeParam]


class _IngestTracesResourceSpanScopeSpanSpanParamRequired(TypedDict):
    traceId: str
    """Trace id: 32 hex characters, as OpenTelemetry writes it"""
    spanId: str
    startTimeUnixNano: Union[str, int]
    endTimeUnixNano: Union[str, int]


class IngestTracesResourceSpanScopeSpanSpanParam(_IngestTracesResourceSpanScopeSpanSpanParamRequired, total=False):
    """The `IngestTracesResourceSpanScopeSpanSpanParam` request object, keyed as sent."""
    parentSpanId: Union[Literal[""], str]
    traceState: str
    name: str
    kind: Union[int, Literal["SPAN_KIND_UNSPECIFIED", "SPAN_KIND_INTERNAL", "SPAN_KIND_SERVER", "SPAN_KIND_CLIENT", "SPAN_KIND_PRODUCER", "SPAN_KIND_CONSUMER"]]
    attributes: List[IngestTracesResourceSpanScopeSpanSpanAttributeParam]
    events: List[IngestTracesResourceSpanScopeSpanSpanEventParam]
    links: List[IngestTracesResourceSpanScopeSpanSpanLinkParam]
    status: IngestTracesResourceSpanScopeSpanSpanStatusParam


class IngestTracesResourceSpanScopeSpanSpanStatusParam(TypedDict, total=False):
    """The `IngestTracesResourceSpanScopeSpanSpanStatusParam` request object, keyed as sent."""
    code: Union[int, Literal["STATUS_CODE_UNSET", "STATUS_CODE_OK", "STATUS_CODE_ERROR"]]
    message: str


class _NewRowParamRequired(TypedDict):
    input: Cell


class NewRowParam(_NewRowParamRequired, total=False):
    """The `NewRowParam` request object, keyed as sent."""
    id: str
    output: Cell
    expectedOutput: Cell
    metadata: Cell
    custom: Dict[str, Cell]


class OtlpAnyValueArrayValueParam(TypedDict, total=False):
    """The `OtlpAnyValueArrayValueParam` request object, keyed as sent."""
    values: List[OtlpAnyValueParam]


class OtlpAnyValueKvlistValueParam(TypedDict, total=False):
    """The `OtlpAnyValueKvlistValueParam` request object, keyed as sent."""
    values: List[OtlpAnyValueKvlistValueValueParam]


class _OtlpAnyValueKvlistValueValueParamRequired(TypedDict):
    key: str


class OtlpAnyValueKvlistValueValueParam(_OtlpAnyValueKvlistValueValueParamRequired, total=False):
    """The `OtlpAnyValueKvlistValueValueParam` request object, keyed as sent."""
    value: OtlpAnyValueParam


class OtlpAnyValueParam(TypedDict, total=False):
    """The `OtlpAnyValueParam` request object, keyed as sent."""
    stringValue: str
    boolValue: bool
    intValue: Union[str, int]
    doubleValue: Union[float, Literal["NaN", "Infinity", "-Infinity"]]
    bytesValue: str
    arrayValue: OtlpAnyValueArrayValueParam
    kvlistValue: OtlpAnyValueKvlistValueParam


class _RecordExperimentResultsResultParamRequired(TypedDict):
    rowId: str
    output: Cell
    """What the task answered for the row"""


class RecordExperimentResultsResultParam(_RecordExperimentResultsResultParamRequired, total=False):
    """The `RecordExperimentResultsResultParam` request object, keyed as sent."""
    traceId: str
    latencyMs: float
    tokens: int
    costMicrocents: int
    error: str
    """Why the task failed for this row"""
    scores: List[RecordExperimentResultsResultScoreParam]
    """Scores the runner's own evaluators gave (source `code`, or `llm` for a judge model)"""


class _RecordExperimentResultsResultScoreParamRequired(TypedDict):
    name: str
    """A score's name, 1-64 characters"""
    value: ScoreValue


class RecordExperimentResultsResultScoreParam(_RecordExperimentResultsResultScoreParamRequired, total=False):
    """The `RecordExperimentResultsResultScoreParam` request object, keyed as sent."""
    comment: str
    source: Literal["code", "llm"]


class _RecordExperimentScoresScoreParamRequired(TypedDict):
    name: str
    """A score's name, 1-64 characters"""
    value: ScoreValue


class RecordExperimentScoresScoreParam(_RecordExperimentScoresScoreParamRequired, total=False):
    """The `RecordExperimentScoresScoreParam` request object, keyed as sent."""
    comment: str
    rowId: str
    """The result scored; without it, the experiment as a whole"""
    source: Literal["code", "human", "llm"]
    """Who judged: `code` by default for a key, always `human` from a person's session"""


class RowSelectionAllExceptParam(TypedDict):
    """The `RowSelectionAllExceptParam` request object, keyed as sent."""
    mode: Literal["allExcept"]
    rowIds: List[str]


class RowSelectionAllParam(TypedDict):
    """The `RowSelectionAllParam` request object, keyed as sent."""
    mode: Literal["all"]


class RowSelectionSelectedParam(TypedDict):
    """The `RowSelectionSelectedParam` request object, keyed as sent."""
    mode: Literal["selected"]
    rowIds: List[str]


class TraceFilterCostTotalMicrocentsParam(TypedDict):
    """The `TraceFilterCostTotalMicrocentsParam` request object, keyed as sent."""
    field: Literal["costTotalMicrocents"]
    op: Literal["eq", "neq", "gt", "gte", "lt", "lte"]
    value: int


class TraceFilterDurationNsParam(TypedDict):
    """The `TraceFilterDurationNsParam` request object, keyed as sent."""
    field: Literal["durationNs"]
    op: Literal["eq", "gt", "gte", "lt", "lte"]
    value: Union[str, int]


class TraceFilterEndTimeParam(TypedDict):
    """The `TraceFilterEndTimeParam` request object, keyed as sent."""
    field: Literal["endTime"]
    op: Literal["gt", "gte", "lt", "lte"]
    value: str


class TraceFilterErrorCountParam(TypedDict):
    """The `TraceFilterErrorCountParam` request object, keyed as sent."""
    field: Literal["errorCount"]
    op: Literal["eq", "neq", "gt", "gte", "lt", "lte"]
    value: int


class TraceFilterModelsContainsAnyParam(TypedDict):
    """The `TraceFilterModelsContainsAnyParam` request object, keyed as sent."""
    field: Literal["models"]
    op: Literal["containsAny"]
    value: List[str]


class TraceFilterModelsContainsParam(TypedDict):
    """The `TraceFilterModelsContainsParam` request object, keyed as sent."""
    field: Literal["models"]
    op: Literal["contains"]
    value: str


class TraceFilterRootSpanNameInParam(TypedDict):
    """The `TraceFilterRootSpanNameInParam` request object, keyed as sent."""
    field: Literal["rootSpanName"]
    op: Literal["in"]
    value: List[str]


class TraceFilterRootSpanNameParam(TypedDict):
    """The `TraceFilterRootSpanNameParam` request object, keyed as sent."""
    field: Literal["rootSpanName"]
    op: Literal["eq", "neq", "contains"]
    value: str


class TraceFilterSessionIdInParam(TypedDict):
    """The `TraceFilterSessionIdInParam` request object, keyed as sent."""
    field: Literal["sessionId"]
    op: Literal["in"]
    value: List[str]


class TraceFilterSessionIdParam(TypedDict):
    """The `TraceFilterSessionIdParam` request object, keyed as sent."""
    field: Literal["sessionId"]
    op: Literal["eq", "neq", "contains"]
    value: str


class TraceFilterSpanCountParam(TypedDict):
    """The `TraceFilterSpanCountParam` request object, keyed as sent."""
    field: Literal["spanCount"]
    op: Literal["eq", "neq", "gt", "gte", "lt", "lte"]
    value: int


class TraceFilterStartTimeParam(TypedDict):
    """The `TraceFilterStartTimeParam` request object, keyed as sent."""
    field: Literal["startTime"]
    op: Literal["gt", "gte", "lt", "lte"]
    value: str


class TraceFilterTagsContainsAnyParam(TypedDict):
    """The `TraceFilterTagsContainsAnyParam` request object, keyed as sent."""
    field: Literal["tags"]
    op: Literal["containsAny"]
    value: List[str]


class TraceFilterTagsContainsParam(TypedDict):
    """The `TraceFilterTagsContainsParam` request object, keyed as sent."""
    field: Literal["tags"]
    op: Literal["contains"]
    value: str


class TraceFilterTextContainsParam(TypedDict):
    """The `TraceFilterTextContainsParam` request object, keyed as sent."""
    field: Literal["text"]
    op: Literal["contains"]
    value: str


class TraceFilterTokensInputParam(TypedDict):
    """The `TraceFilterTokensInputParam` request object, keyed as sent."""
    field: Literal["tokensInput"]
    op: Literal["eq", "neq", "gt", "gte", "lt", "lte"]
    value: int


class TraceFilterTokensOutputParam(TypedDict):
    """The `TraceFilterTokensOutputParam` request object, keyed as sent."""
    field: Literal["tokensOutput"]
    op: Literal["eq", "neq", "gt", "gte", "lt", "lte"]
    value: int


class TraceFilterTokensTotalParam(TypedDict):
    """The `TraceFilterTokensTotalParam` request object, keyed as sent."""
    field: Literal["tokensTotal"]
    op: Literal["eq", "neq", "gt", "gte", "lt", "lte"]
    value: int


class TraceFilterTraceIdEqParam(TypedDict):
    """The `TraceFilterTraceIdEqParam` request object, keyed as sent."""
    field: Literal["traceId"]
    op: Literal["eq"]
    value: str
    """Trace id: 32 hex characters, as OpenTelemetry writes it"""


class TraceFilterTraceIdInParam(TypedDict):
    """The `TraceFilterTraceIdInParam` request object, keyed as sent."""
    field: Literal["traceId"]
    op: Literal["in"]
    value: List[str]


class TraceFilterUserIdInParam(TypedDict):
    """The `TraceFilterUserIdInParam` request object, keyed as sent."""
    field: Literal["userId"]
    op: Literal["in"]
    value: List[str]


class TraceFilterUserIdParam(TypedDict):
    """The `TraceFilterUserIdParam` request object, keyed as sent."""
    field: Literal["userId"]
    op: Literal["eq", "neq", "contains"]
    value: str


class _UpdateDatasetRowsEditParamRequired(TypedDict):
    rowId: str


class UpdateDatasetRowsEditParam(_UpdateDatasetRowsEditParamRequired, total=False):
    """The `UpdateDatasetRowsEditParam` request object, keyed as sent."""
    output: Cell
    expectedOutput: Cell
    metadata: Cell
    custom: Dict[str, Cell]
    ifMatch: int
    """Apply this edit only if the row's current version equals this one"""
    input: Cell


RowSelectionParam = Union["RowSelectionSelectedParam", "RowSelectionAllExceptParam", "RowSelectionAllParam"]


TraceFilterParam = Union["TraceFilterTraceIdEqParam", "TraceFilterTraceIdInParam", "TraceFilterStartTimeParam", "TraceFilterEndTimeParam", "TraceFilterDurationNsParam", "TraceFilterSpanCountParam", "TraceFilterErrorCountParam", "TraceFilterTokensInputParam", "TraceFilterTokensOutputParam", "TraceFilterTokensTotalParam", "TraceFilterCostTotalMicrocentsParam", "TraceFilterRootSpanNameParam", "TraceFilterRootSpanNameInParam", "TraceFilterSessionIdParam", "TraceFilterSessionIdInParam", "TraceFilterUserIdParam", "TraceFilterUserIdInParam", "TraceFilterTagsContainsParam", "TraceFilterTagsContainsAnyParam", "TraceFilterModelsContainsParam", "TraceFilterModelsContainsAnyParam", "TraceFilterTextContainsParam"]


EvaluatorParam = Union["EvaluatorExactMatchParam", "EvaluatorJsonEqualParam", "EvaluatorContainsParam", "EvaluatorRegexParam", "EvaluatorJsonSchemaParam", "EvaluatorNumericCloseParam", "EvaluatorLevenshteinParam"]


Role = Literal["owner", "admin", "member", "viewer"]

ScoreValue = Union[float, bool, str]
"""A number, a boolean (counted as 1 or 0 in means and comparisons) or a category (a short string, left out of means)"""


class AccountResource:
    """The caller's organisation and role"""

    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    def get(
        self,
        *,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> GetAccountResponse:
        """The caller's organisation, role and person.

        `user` is the person behind the credential: the one signed in, or the one who made the API key; null for a key made by no person (the start-up key, or one made by such a key).

        Requires an API key with role `viewer` or higher.

        `GET /v1/account` (operation `getAccount`)
        """
        return self._transport.request(
            "GET",
            "/v1/account",
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=GetAccountResponse,
        )

    def update_user(
        self,
        *,
        name: Union[str, Unset] = UNSET,
        email: Union[str, Unset] = UNSET,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> UpdateAccountUserResponse:
        """Set your own name or e-mail address.

        Only a person signed in as themselves (a browser session opened with a sign-in link) may change their name or address: an API key is the organisation's, and an address signs its owner in to every organisation they belong to. The name shows wherever the person changed something. An address another person has is 409 conflict. Names and addresses with line breaks or other control characters are refused.

        Requires an API key with role `viewer` or higher.

        `PATCH /v1/account/user` (operation `updateAccountUser`)
        """
        return self._transport.request(
            "PATCH",
            "/v1/account/user",
            body=drop_unset({"name": name, "email": email}),
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=UpdateAccountUserResponse,
        )


class ApiKeysResource:
    """API keys of the organisation"""

    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    def create(
        self,
        *,
        name: str,
        role: Union[Role, Unset] = UNSET,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> CreatedApiKey:
        """Create an API key; the full token is in this response and never again.

        The token is in this answer only: the platform keeps its hash, never the token. A retry with the same Idempotency-Key and body answers 201 with the same key, `token: null` and `tokenAlreadyShown: true`, and creates nothing: a token is shown once, even to a caller who may replay the request. A client whose first answer was lost revokes that key and creates another.

        Requires an API key with role `admin` or higher.

        Args:
            role: At most the caller's own role

        `POST /v1/api-keys` (operation `createApiKey`)
        """
        return self._transport.request(
            "POST",
            "/v1/api-keys",
            body=drop_unset({"name": name, "role": role}),
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=CreatedApiKey,
        )

    def delete(
        self,
        id: str,
        *,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> None:
        """Revoke an API key; it stops working at every gateway within a second.

        Requires an API key with role `admin` or higher.

        `DELETE /v1/api-keys/{id}` (operation `deleteApiKey`)
        """
        self._transport.request(
            "DELETE",
            f"/v1/api-keys/{path_segment(id)}",
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
        )

    def get(
        self,
        id: str,
        *,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> ApiKey:
        """One API key, token masked.

        Requires an API key with role `admin` or higher.

        `GET /v1/api-keys/{id}` (operation `getApiKey`)
        """
        return self._transport.request(
            "GET",
            f"/v1/api-keys/{path_segment(id)}",
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=ApiKey,
        )

    def list(
        self,
        *,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> ListApiKeysResponse:
        """List the organisation's API keys, tokens masked.

        Requires an API key with role `admin` or higher.

        `GET /v1/api-keys` (operation `listApiKeys`)
        """
        return self._transport.request(
            "GET",
            "/v1/api-keys",
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=ListApiKeysResponse,
        )

    def update(
        self,
        id: str,
        *,
        name: str,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> ApiKey:
        """Rename an API key.

        Requires an API key with role `admin` or higher.

        `PATCH /v1/api-keys/{id}` (operation `updateApiKey`)
        """
        return self._transport.request(
            "PATCH",
            f"/v1/api-keys/{path_segment(id)}",
            body=drop_unset({"name": name}),
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=ApiKey,
        )


class DatasetsResource:
    """Datasets, their rows, columns and versions"""

    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    def copy_rows(
        self,
        project_slug: str,
        dataset_slug: str,
        *,
        to: CopyDatasetRowsToParam,
        selection: Union[CopyDatasetRowsSelectionSelectedParam, CopyDatasetRowsSelectionAllExceptParam, CopyDatasetRowsSelectionAllParam, CopyDatasetRowsSelectionFilterParam],
        column_map: Union[Dict[str, Optional[str]], Unset] = UNSET,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> CopyDatasetRowsResponse:
        """Copy rows into another dataset of the organisation, as one new version of the target.

        Selects rows of this dataset at its current version (selected ids, all except some, all, or a list filter) and inserts copies with new ids into the target, all or nothing. Custom cells go to the target's column of the same name unless `columnMap` says otherwise; each copy's `metadata` gets `copiedFrom: {projectSlug, datasetSlug, datasetId, rowId, version}` (a metadata cell that is not an object moves to `metadata.value`). A selection that matches nothing makes no version (200, `versionId: null`).

        Requires an API key with role `member` or higher.

        Args:
            column_map: From a source custom column's identifier to the target's: an identifier, "new:<display name>" to create one, or null to leave its cells out. A custom column not named here goes to the target's active custom column of the same name (case-insensitive), created if there is none

        `POST /v1/projects/{projectSlug}/datasets/{datasetSlug}/rows/copy` (operation `copyDatasetRows`)
        """
        return self._transport.request(
            "POST",
            f"/v1/projects/{path_segment(project_slug)}/datasets/{path_segment(dataset_slug)}/rows/copy",
            body=drop_unset({"to": to, "selection": selection, "columnMap": column_map}),
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=CopyDatasetRowsResponse,
        )

    def count_rows(
        self,
        project_slug: str,
        dataset_slug: str,
        *,
        search: Union[str, Unset] = UNSET,
        missing: Union[str, Unset] = UNSET,
        present: Union[str, Unset] = UNSET,
        where: Union[Union[str, List[str]], Unset] = UNSET,
        version: Union[int, Unset] = UNSET,
        svc_min_version: Union[int, Unset] = UNSET,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> CountDatasetRowsResponse:
        """Count the rows a list with these filters holds, exactly; `version` counts the dataset as it was.

        Takes the filters of the row list (`search`, `missing`, `present`, `where`) and `version`, and counts every row they let through, not a page. Without filters it is the version's row count. A version never changes, so a count is kept once made, and the count of a later version is worked out from what changed in between: asking again after an edit costs what the edit changed, not the dataset's size. A column named in a filter that is unknown or removed is 400 unknown_column.

        Requires an API key with role `viewer` or higher.

        Args:
            missing: Only rows whose cell in each of these columns is absent or null, such as missing=expectedOutput: the rows that still need an expected output. Column identifiers, comma-separated or the parameter repeated
            present: Only rows whose cell in each of these columns is set and not null; as `missing`
            where: Only rows whose cell, or the value at a JSON path inside it, equals a JSON value: `<column>[.<key or index>…]=<JSON>`, such as where=metadata.source="prod", where=expectedOutput=4 or where=metadata.tags.0="a". Repeat the parameter for several (all must hold)
            version: Read the dataset as it was at this version
            svc_min_version: Read your own writes: the dataset version a write of yours answered (its `version`). Reads of a dataset may run on a read standby that replays the primary a few milliseconds behind; with this header the read waits for the standby to have that version of the dataset (up to half a second by default) or runs on the primary, so it never misses the write. Without it, a read sees the latest version the standby has. The SDKs and the web application send it by themselves after each write to the dataset.

        `GET /v1/projects/{projectSlug}/datasets/{datasetSlug}/row-count` (operation `countDatasetRows`)
        """
        return self._transport.request(
            "GET",
            f"/v1/projects/{path_segment(project_slug)}/datasets/{path_segment(dataset_slug)}/row-count",
            query=drop_unset({"search": search, "missing": missing, "present": present, "where": where, "version": version}),
            headers=drop_unset({"X-Svc-Min-Version": svc_min_version}),
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=CountDatasetRowsResponse,
        )

    def create(
        self,
        project_slug: str,
        *,
        name: str,
        description: Union[Optional[str], Unset] = UNSET,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> Dataset:
        """Create an empty dataset (version 0).

        Requires an API key with role `member` or higher.

        `POST /v1/projects/{projectSlug}/datasets` (operation `createDataset`)
        """
        return self._transport.request(
            "POST",
            f"/v1/projects/{path_segment(project_slug)}/datasets",
            body=drop_unset({"name": name, "description": description}),
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=Dataset,
        )

    def create_column(
        self,
        project_slug: str,
        dataset_slug: str,
        *,
        name: str,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> DatasetColumn:
        """Add a custom column; its identifier never changes.

        A dataset has at most 1000 active custom columns; one more is 400 too_many_columns (details.limit), and a removed column can be restored only while there is room.

        Requires an API key with role `member` or higher.

        `POST /v1/projects/{projectSlug}/datasets/{datasetSlug}/columns` (operation `createDatasetColumn`)
        """
        return self._transport.request(
            "POST",
            f"/v1/projects/{path_segment(project_slug)}/datasets/{path_segment(dataset_slug)}/columns",
            body=drop_unset({"name": name}),
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=DatasetColumn,
        )

    def delete(
        self,
        project_slug: str,
        dataset_slug: str,
        *,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> None:
        """Delete a dataset with its rows and history.

        Requires an API key with role `member` or higher.

        `DELETE /v1/projects/{projectSlug}/datasets/{datasetSlug}` (operation `deleteDataset`)
        """
        self._transport.request(
            "DELETE",
            f"/v1/projects/{path_segment(project_slug)}/datasets/{path_segment(dataset_slug)}",
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
        )

    def delete_column(
        self,
        project_slug: str,
        dataset_slug: str,
        identifier: str,
        *,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> None:
        """Remove a column (soft: its data is kept, but no longer accepted or shown).

        Requires an API key with role `member` or higher.

        `DELETE /v1/projects/{projectSlug}/datasets/{datasetSlug}/columns/{identifier}` (operation `deleteDatasetColumn`)
        """
        self._transport.request(
            "DELETE",
            f"/v1/projects/{path_segment(project_slug)}/datasets/{path_segment(dataset_slug)}/columns/{path_segment(identifier)}",
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
        )

    def delete_rows(
        self,
        project_slug: str,
        dataset_slug: str,
        *,
        selection: RowSelectionParam,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> DeleteDatasetRowsResponse:
        """Delete the selected rows, all rows, or all except some, as one new dataset version.

        Requires an API key with role `member` or higher.

        `DELETE /v1/projects/{projectSlug}/datasets/{datasetSlug}/rows` (operation `deleteDatasetRows`)
        """
        return self._transport.request(
            "DELETE",
            f"/v1/projects/{path_segment(project_slug)}/datasets/{path_segment(dataset_slug)}/rows",
            body=drop_unset({"selection": selection}),
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=DeleteDatasetRowsResponse,
        )

    def diff(
        self,
        project_slug: str,
        dataset_slug: str,
        *,
        from_: int,
        to: int,
        cursor: Union[str, Unset] = UNSET,
        limit: Union[int, Unset] = UNSET,
        svc_min_version: Union[int, Unset] = UNSET,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> DiffDatasetVersionsResponse:
        """Every row that differs between versions `from` and `to`, cell by cell, ordered by row id.

        Costs what changed between the two versions, not the size of the dataset or its later history. `from` must not be greater than `to`; both must exist.

        Requires an API key with role `viewer` or higher.

        Args:
            cursor: Opaque cursor from a previous page's nextCursor
            limit: Most items on a page, 1-200; a page of large items (over 768 KiB together) ends sooner, with hasMore
            from_: The earlier version
            to: The later version
            svc_min_version: Read your own writes: the dataset version a write of yours answered (its `version`). Reads of a dataset may run on a read standby that replays the primary a few milliseconds behind; with this header the read waits for the standby to have that version of the dataset (up to half a second by default) or runs on the primary, so it never misses the write. Without it, a read sees the latest version the standby has. The SDKs and the web application send it by themselves after each write to the dataset.

        `GET /v1/projects/{projectSlug}/datasets/{datasetSlug}/diff` (operation `diffDatasetVersions`)
        """
        return self._transport.request(
            "GET",
            f"/v1/projects/{path_segment(project_slug)}/datasets/{path_segment(dataset_slug)}/diff",
            query=drop_unset({"cursor": cursor, "limit": limit, "from": from_, "to": to}),
            headers=drop_unset({"X-Svc-Min-Version": svc_min_version}),
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=DiffDatasetVersionsResponse,
        )

    def iterate_diff(
        self,
        project_slug: str,
        dataset_slug: str,
        *,
        from_: int,
        to: int,
        limit: Union[int, Unset] = UNSET,
        svc_min_version: Union[int, Unset] = UNSET,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> Iterator[DiffDatasetVersionsResponseItem]:
        """Every item of `diff`, page after page, following `next_cursor` until the last page."""

        def page(page_cursor: Union[str, Unset]) -> DiffDatasetVersionsResponse:
            return self.diff(
                project_slug,
                dataset_slug,
                cursor=page_cursor,
                limit=limit,
                from_=from_,
                to=to,
                svc_min_version=svc_min_version,
                timeout=timeout,
                max_retries=max_retries,
                request_id=request_id,
                headers=headers,
            )

        return paginate(page)

    def get(
        self,
        project_slug: str,
        dataset_slug: str,
        *,
        svc_min_version: Union[int, Unset] = UNSET,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> Dataset:
        """One dataset, with its active columns and current version.

        Requires an API key with role `viewer` or higher.

        Args:
            svc_min_version: Read your own writes: the dataset version a write of yours answered (its `version`). Reads of a dataset may run on a read standby that replays the primary a few milliseconds behind; with this header the read waits for the standby to have that version of the dataset (up to half a second by default) or runs on the primary, so it never misses the write. Without it, a read sees the latest version the standby has. The SDKs and the web application send it by themselves after each write to the dataset.

        `GET /v1/projects/{projectSlug}/datasets/{datasetSlug}` (operation `getDataset`)
        """
        return self._transport.request(
            "GET",
            f"/v1/projects/{path_segment(project_slug)}/datasets/{path_segment(dataset_slug)}",
            headers=drop_unset({"X-Svc-Min-Version": svc_min_version}),
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=Dataset,
        )

    def get_import(
        self,
        project_slug: str,
        dataset_slug: str,
        import_id: str,
        *,
        svc_min_version: Union[int, Unset] = UNSET,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> GetDatasetImportResponse:
        """An import's progress (bytes and rows read) or outcome (its version, or why it failed).

        Requires an API key with role `viewer` or higher.

        Args:
            svc_min_version: Read your own writes: the dataset version a write of yours answered (its `version`). Reads of a dataset may run on a read standby that replays the primary a few milliseconds behind; with this header the read waits for the standby to have that version of the dataset (up to half a second by default) or runs on the primary, so it never misses the write. Without it, a read sees the latest version the standby has. The SDKs and the web application send it by themselves after each write to the dataset.

        `GET /v1/projects/{projectSlug}/datasets/{datasetSlug}/imports/{importId}` (operation `getDatasetImport`)
        """
        return self._transport.request(
            "GET",
            f"/v1/projects/{path_segment(project_slug)}/datasets/{path_segment(dataset_slug)}/imports/{path_segment(import_id)}",
            headers=drop_unset({"X-Svc-Min-Version": svc_min_version}),
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=GetDatasetImportResponse,
        )

    def get_row(
        self,
        project_slug: str,
        dataset_slug: str,
        row_id: str,
        *,
        version: Union[int, Unset] = UNSET,
        svc_min_version: Union[int, Unset] = UNSET,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> DatasetRow:
        """One row; `version` reads it as it was.

        Requires an API key with role `viewer` or higher.

        Args:
            version: Read the row as it was at this version
            svc_min_version: Read your own writes: the dataset version a write of yours answered (its `version`). Reads of a dataset may run on a read standby that replays the primary a few milliseconds behind; with this header the read waits for the standby to have that version of the dataset (up to half a second by default) or runs on the primary, so it never misses the write. Without it, a read sees the latest version the standby has. The SDKs and the web application send it by themselves after each write to the dataset.

        `GET /v1/projects/{projectSlug}/datasets/{datasetSlug}/rows/{rowId}` (operation `getDatasetRow`)
        """
        return self._transport.request(
            "GET",
            f"/v1/projects/{path_segment(project_slug)}/datasets/{path_segment(dataset_slug)}/rows/{path_segment(row_id)}",
            query=drop_unset({"version": version}),
            headers=drop_unset({"X-Svc-Min-Version": svc_min_version}),
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=DatasetRow,
        )

    def get_version(
        self,
        project_slug: str,
        dataset_slug: str,
        version: int,
        *,
        svc_min_version: Union[int, Unset] = UNSET,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> DatasetVersion:
        """One dataset version: what it did, how many rows, and who.

        Requires an API key with role `viewer` or higher.

        Args:
            svc_min_version: Read your own writes: the dataset version a write of yours answered (its `version`). Reads of a dataset may run on a read standby that replays the primary a few milliseconds behind; with this header the read waits for the standby to have that version of the dataset (up to half a second by default) or runs on the primary, so it never misses the write. Without it, a read sees the latest version the standby has. The SDKs and the web application send it by themselves after each write to the dataset.

        `GET /v1/projects/{projectSlug}/datasets/{datasetSlug}/versions/{version}` (operation `getDatasetVersion`)
        """
        return self._transport.request(
            "GET",
            f"/v1/projects/{path_segment(project_slug)}/datasets/{path_segment(dataset_slug)}/versions/{path_segment(version)}",
            headers=drop_unset({"X-Svc-Min-Version": svc_min_version}),
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=DatasetVersion,
        )

    def import_traces(
        self,
        project_slug: str,
        dataset_slug: str,
        *,
        traces: Union[ImportDatasetRowsFromTracesTracesIdsParam, ImportDatasetRowsFromTracesTracesFiltersParam],
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> ImportDatasetRowsFromTracesResponse:
        """Add one row per trace (by ids or by filters, at most 1000) as one new dataset version.

        Each trace of the dataset's project becomes a new row: its input and output become the row's `input` and `output`, and `metadata` records where it came from (`traceId` and the trace's summary). The whole import is one dataset version (operation `import`). More than 1000 traces is 422 too_many_traces; trace ids that do not exist are 404 naming them; either way nothing is written.

        Requires an API key with role `member` or higher.

        `POST /v1/projects/{projectSlug}/datasets/{datasetSlug}/rows/import/traces` (operation `importDatasetRowsFromTraces`)
        """
        return self._transport.request(
            "POST",
            f"/v1/projects/{path_segment(project_slug)}/datasets/{path_segment(dataset_slug)}/rows/import/traces",
            body=drop_unset({"traces": traces}),
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=ImportDatasetRowsFromTracesResponse,
        )

    def insert_rows(
        self,
        project_slug: str,
        dataset_slug: str,
        *,
        rows: List[NewRowParam],
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> InsertDatasetRowsResponse:
        """Insert 1-1000 rows as one new dataset version.

        A row without `id` gets a generated one. Ids must be unique within the request (400 validation_failed naming the id that repeats); an id that a row of the dataset already has is 409 conflict, and nothing is written.

        Requires an API key with role `member` or higher.

        `POST /v1/projects/{projectSlug}/datasets/{datasetSlug}/rows` (operation `insertDatasetRows`)
        """
        return self._transport.request(
            "POST",
            f"/v1/projects/{path_segment(project_slug)}/datasets/{path_segment(dataset_slug)}/rows",
            body=drop_unset({"rows": rows}),
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=InsertDatasetRowsResponse,
        )

    def list(
        self,
        project_slug: str,
        *,
        cursor: Union[str, Unset] = UNSET,
        limit: Union[int, Unset] = UNSET,
        sort_by: Union[Literal["name", "updatedAt"], Unset] = UNSET,
        sort_direction: Union[Literal["asc", "desc"], Unset] = UNSET,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> ListDatasetsResponse:
        """List the project's datasets.

        Requires an API key with role `viewer` or higher.

        Args:
            cursor: Opaque cursor from a previous page's nextCursor
            limit: Most items on a page, 1-200; a page of large items (over 768 KiB together) ends sooner, with hasMore

        `GET /v1/projects/{projectSlug}/datasets` (operation `listDatasets`)
        """
        return self._transport.request(
            "GET",
            f"/v1/projects/{path_segment(project_slug)}/datasets",
            query=drop_unset({"cursor": cursor, "limit": limit, "sortBy": sort_by, "sortDirection": sort_direction}),
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=ListDatasetsResponse,
        )

    def iterate(
        self,
        project_slug: str,
        *,
        limit: Union[int, Unset] = UNSET,
        sort_by: Union[Literal["name", "updatedAt"], Unset] = UNSET,
        sort_direction: Union[Literal["asc", "desc"], Unset] = UNSET,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> Iterator[Dataset]:
        """Every item of `list`, page after page, following `next_cursor` until the last page."""

        def page(page_cursor: Union[str, Unset]) -> ListDatasetsResponse:
            return self.list(
                project_slug,
                cursor=page_cursor,
                limit=limit,
                sort_by=sort_by,
                sort_direction=sort_direction,
                timeout=timeout,
                max_retries=max_retries,
                request_id=request_id,
                headers=headers,
            )

        return paginate(page)

    def list_columns(
        self,
        project_slug: str,
        dataset_slug: str,
        *,
        include_removed: Union[Union[bool, Literal["true", "false"]], Unset] = UNSET,
        svc_min_version: Union[int, Unset] = UNSET,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> ListDatasetColumnsResponse:
        """Ordered columns, built-in then custom as ordered; `includeRemoved=true` adds removed ones.

        Requires an API key with role `viewer` or higher.

        Args:
            svc_min_version: Read your own writes: the dataset version a write of yours answered (its `version`). Reads of a dataset may run on a read standby that replays the primary a few milliseconds behind; with this header the read waits for the standby to have that version of the dataset (up to half a second by default) or runs on the primary, so it never misses the write. Without it, a read sees the latest version the standby has. The SDKs and the web application send it by themselves after each write to the dataset.

        `GET /v1/projects/{projectSlug}/datasets/{datasetSlug}/columns` (operation `listDatasetColumns`)
        """
        return self._transport.request(
            "GET",
            f"/v1/projects/{path_segment(project_slug)}/datasets/{path_segment(dataset_slug)}/columns",
            query=drop_unset({"includeRemoved": include_removed}),
            headers=drop_unset({"X-Svc-Min-Version": svc_min_version}),
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=ListDatasetColumnsResponse,
        )

    def list_rows(
        self,
        project_slug: str,
        dataset_slug: str,
        *,
        cursor: Union[str, Unset] = UNSET,
        limit: Union[int, Unset] = UNSET,
        search: Union[str, Unset] = UNSET,
        missing: Union[str, Unset] = UNSET,
        present: Union[str, Unset] = UNSET,
        where: Union[Union[str, List[str]], Unset] = UNSET,
        sort_direction: Union[Literal["asc", "desc"], Unset] = UNSET,
        version: Union[int, Unset] = UNSET,
        offset: Union[int, Unset] = UNSET,
        svc_min_version: Union[int, Unset] = UNSET,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> ListDatasetRowsResponse:
        """List rows, newest first by default; `version` reads the dataset as it was.

        The cursor pins the dataset version its first page saw: paging on while others edit returns one consistent snapshot. `search`, `missing` and `present` combine (all must hold), also with `version`; a cursor carries them, and a page asked with a cursor must repeat them. A column named in `missing` or `present` that is unknown or removed is 400 unknown_column.

        Requires an API key with role `viewer` or higher.

        Args:
            cursor: Opaque cursor from a previous page's nextCursor
            limit: Most items on a page, 1-200; a page of large items (over 768 KiB together) ends sooner, with hasMore
            missing: Only rows whose cell in each of these columns is absent or null, such as missing=expectedOutput: the rows that still need an expected output. Column identifiers, comma-separated or the parameter repeated
            present: Only rows whose cell in each of these columns is set and not null; as `missing`
            where: Only rows whose cell, or the value at a JSON path inside it, equals a JSON value: `<column>[.<key or index>…]=<JSON>`, such as where=metadata.source="prod", where=expectedOutput=4 or where=metadata.tags.0="a". Repeat the parameter for several (all must hold)
            version: Read the dataset as it was at this version
            offset: Start the first page this many rows into the list (in its order and filters): a jump to a position, such as offset=500000. Only without a cursor; the page's nextCursor goes on from there
            svc_min_version: Read your own writes: the dataset version a write of yours answered (its `version`). Reads of a dataset may run on a read standby that replays the primary a few milliseconds behind; with this header the read waits for the standby to have that version of the dataset (up to half a second by default) or runs on the primary, so it never misses the write. Without it, a read sees the latest version the standby has. The SDKs and the web application send it by themselves after each write to the dataset.

        `GET /v1/projects/{projectSlug}/datasets/{datasetSlug}/rows` (operation `listDatasetRows`)
        """
        return self._transport.request(
            "GET",
            f"/v1/projects/{path_segment(project_slug)}/datasets/{path_segment(dataset_slug)}/rows",
            query=drop_unset({"cursor": cursor, "limit": limit, "search": search, "missing": missing, "present": present, "where": where, "sortDirection": sort_direction, "version": version, "offset": offset}),
            headers=drop_unset({"X-Svc-Min-Version": svc_min_version}),
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=ListDatasetRowsResponse,
        )

    def iterate_rows(
        self,
        project_slug: str,
        dataset_slug: str,
        *,
        limit: Union[int, Unset] = UNSET,
        search: Union[str, Unset] = UNSET,
        missing: Union[str, Unset] = UNSET,
        present: Union[str, Unset] = UNSET,
        where: Union[Union[str, List[str]], Unset] = UNSET,
        sort_direction: Union[Literal["asc", "desc"], Unset] = UNSET,
        version: Union[int, Unset] = UNSET,
        offset: Union[int, Unset] = UNSET,
        svc_min_version: Union[int, Unset] = UNSET,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> Iterator[DatasetRow]:
        """Every item of `list_rows`, page after page, following `next_cursor` until the last page."""

        def page(page_cursor: Union[str, Unset]) -> ListDatasetRowsResponse:
            return self.list_rows(
                project_slug,
                dataset_slug,
                cursor=page_cursor,
                limit=limit,
                search=search,
                missing=missing,
                present=present,
                where=where,
                sort_direction=sort_direction,
                version=version,
                offset=offset,
                svc_min_version=svc_min_version,
                timeout=timeout,
                max_retries=max_retries,
                request_id=request_id,
                headers=headers,
            )

        return paginate(page)

    def list_versions(
        self,
        project_slug: str,
        dataset_slug: str,
        *,
        cursor: Union[str, Unset] = UNSET,
        limit: Union[int, Unset] = UNSET,
        svc_min_version: Union[int, Unset] = UNSET,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> ListDatasetVersionsResponse:
        """List the dataset's versions, newest first.

        Requires an API key with role `viewer` or higher.

        Args:
            cursor: Opaque cursor from a previous page's nextCursor
            limit: Most items on a page, 1-200; a page of large items (over 768 KiB together) ends sooner, with hasMore
            svc_min_version: Read your own writes: the dataset version a write of yours answered (its `version`). Reads of a dataset may run on a read standby that replays the primary a few milliseconds behind; with this header the read waits for the standby to have that version of the dataset (up to half a second by default) or runs on the primary, so it never misses the write. Without it, a read sees the latest version the standby has. The SDKs and the web application send it by themselves after each write to the dataset.

        `GET /v1/projects/{projectSlug}/datasets/{datasetSlug}/versions` (operation `listDatasetVersions`)
        """
        return self._transport.request(
            "GET",
            f"/v1/projects/{path_segment(project_slug)}/datasets/{path_segment(dataset_slug)}/versions",
            query=drop_unset({"cursor": cursor, "limit": limit}),
            headers=drop_unset({"X-Svc-Min-Version": svc_min_version}),
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=ListDatasetVersionsResponse,
        )

    def iterate_versions(
        self,
        project_slug: str,
        dataset_slug: str,
        *,
        limit: Union[int, Unset] = UNSET,
        svc_min_version: Union[int, Unset] = UNSET,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> Iterator[DatasetVersion]:
        """Every item of `list_versions`, page after page, following `next_cursor` until the last page."""

        def page(page_cursor: Union[str, Unset]) -> ListDatasetVersionsResponse:
            return self.list_versions(
                project_slug,
                dataset_slug,
                cursor=page_cursor,
                limit=limit,
                svc_min_version=svc_min_version,
                timeout=timeout,
                max_retries=max_retries,
                request_id=request_id,
                headers=headers,
            )

        return paginate(page)

    def reorder_columns(
        self,
        project_slug: str,
        dataset_slug: str,
        *,
        order: List[str],
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> ReorderDatasetColumnsResponse:
        """Set the left-to-right order of the active columns (list every active identifier once).

        Requires an API key with role `member` or higher.

        `POST /v1/projects/{projectSlug}/datasets/{datasetSlug}/columns/reorder` (operation `reorderDatasetColumns`)
        """
        return self._transport.request(
            "POST",
            f"/v1/projects/{path_segment(project_slug)}/datasets/{path_segment(dataset_slug)}/columns/reorder",
            body=drop_unset({"order": order}),
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=ReorderDatasetColumnsResponse,
        )

    def restore_column(
        self,
        project_slug: str,
        dataset_slug: str,
        identifier: str,
        *,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> DatasetColumn:
        """Bring a removed column back, with its data.

        Requires an API key with role `member` or higher.

        `POST /v1/projects/{projectSlug}/datasets/{datasetSlug}/columns/{identifier}/restore` (operation `restoreDatasetColumn`)
        """
        return self._transport.request(
            "POST",
            f"/v1/projects/{path_segment(project_slug)}/datasets/{path_segment(dataset_slug)}/columns/{path_segment(identifier)}/restore",
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=DatasetColumn,
        )

    def restore_version(
        self,
        project_slug: str,
        dataset_slug: str,
        version: int,
        *,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> RestoreDatasetVersionResponse:
        """Make the dataset equal to an earlier version again, as one new version.

        Rows, cells and deletions return to what they were at that version; only rows that differ get a new revision, and the answer is `201` with the new version. Version 0 is the empty dataset every dataset starts as: restoring it deletes every row (a dataset still at version 0 has nothing to restore: `404`). Restoring the version the dataset is already at changes nothing and creates nothing: it answers `200` (not `201`) with the current `{versionId, version}`.

        Requires an API key with role `member` or higher.

        `POST /v1/projects/{projectSlug}/datasets/{datasetSlug}/versions/{version}/restore` (operation `restoreDatasetVersion`)
        """
        return self._transport.request(
            "POST",
            f"/v1/projects/{path_segment(project_slug)}/datasets/{path_segment(dataset_slug)}/versions/{path_segment(version)}/restore",
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=RestoreDatasetVersionResponse,
        )

    def row_history(
        self,
        project_slug: str,
        dataset_slug: str,
        row_id: str,
        *,
        cursor: Union[str, Unset] = UNSET,
        limit: Union[int, Unset] = UNSET,
        svc_min_version: Union[int, Unset] = UNSET,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> GetDatasetRowHistoryResponse:
        """Every version of one row, newest first.

        Requires an API key with role `viewer` or higher.

        Args:
            cursor: Opaque cursor from a previous page's nextCursor
            limit: Most items on a page, 1-200; a page of large items (over 768 KiB together) ends sooner, with hasMore
            svc_min_version: Read your own writes: the dataset version a write of yours answered (its `version`). Reads of a dataset may run on a read standby that replays the primary a few milliseconds behind; with this header the read waits for the standby to have that version of the dataset (up to half a second by default) or runs on the primary, so it never misses the write. Without it, a read sees the latest version the standby has. The SDKs and the web application send it by themselves after each write to the dataset.

        `GET /v1/projects/{projectSlug}/datasets/{datasetSlug}/rows/{rowId}/history` (operation `getDatasetRowHistory`)
        """
        return self._transport.request(
            "GET",
            f"/v1/projects/{path_segment(project_slug)}/datasets/{path_segment(dataset_slug)}/rows/{path_segment(row_id)}/history",
            query=drop_unset({"cursor": cursor, "limit": limit}),
            headers=drop_unset({"X-Svc-Min-Version": svc_min_version}),
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=GetDatasetRowHistoryResponse,
        )

    def iterate_row_history(
        self,
        project_slug: str,
        dataset_slug: str,
        row_id: str,
        *,
        limit: Union[int, Unset] = UNSET,
        svc_min_version: Union[int, Unset] = UNSET,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> Iterator[GetDatasetRowHistoryResponseItem]:
        """Every item of `row_history`, page after page, following `next_cursor` until the last page."""

        def page(page_cursor: Union[str, Unset]) -> GetDatasetRowHistoryResponse:
            return self.row_history(
                project_slug,
                dataset_slug,
                row_id,
                cursor=page_cursor,
                limit=limit,
                svc_min_version=svc_min_version,
                timeout=timeout,
                max_retries=max_retries,
                request_id=request_id,
                headers=headers,
            )

        return paginate(page)

    def update(
        self,
        project_slug: str,
        dataset_slug: str,
        *,
        name: Union[str, Unset] = UNSET,
        description: Union[Optional[str], Unset] = UNSET,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> Dataset:
        """Rename or describe a dataset (its slug stays).

        Requires an API key with role `member` or higher.

        `PATCH /v1/projects/{projectSlug}/datasets/{datasetSlug}` (operation `updateDataset`)
        """
        return self._transport.request(
            "PATCH",
            f"/v1/projects/{path_segment(project_slug)}/datasets/{path_segment(dataset_slug)}",
            body=drop_unset({"name": name, "description": description}),
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=Dataset,
        )

    def update_column(
        self,
        project_slug: str,
        dataset_slug: str,
        identifier: str,
        *,
        name: str,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> DatasetColumn:
        """Rename a column, built-in or custom; the identifier never changes.

        Requires an API key with role `member` or higher.

        `PATCH /v1/projects/{projectSlug}/datasets/{datasetSlug}/columns/{identifier}` (operation `updateDatasetColumn`)
        """
        return self._transport.request(
            "PATCH",
            f"/v1/projects/{path_segment(project_slug)}/datasets/{path_segment(dataset_slug)}/columns/{path_segment(identifier)}",
            body=drop_unset({"name": name}),
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=DatasetColumn,
        )

    def update_row(
        self,
        project_slug: str,
        dataset_slug: str,
        row_id: str,
        *,
        input: Union[Cell, Unset] = UNSET,
        output: Union[Cell, Unset] = UNSET,
        expected_output: Union[Cell, Unset] = UNSET,
        metadata: Union[Cell, Unset] = UNSET,
        custom: Union[Dict[str, Cell], Unset] = UNSET,
        if_match: Union[int, Unset] = UNSET,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> UpdateDatasetRowResponse:
        """Edit a row's cells; only the cells present change, and the edit is one new dataset version.

        `input`, `output`, `expectedOutput` and `metadata` replace that cell (`null` sets it to null). `custom` is merged onto the row's custom cells by column identifier; identifiers left out are untouched. `If-Match: <version>` applies the edit only if the row's current version equals it.

        Requires an API key with role `member` or higher.

        Args:
            if_match: Apply the change only if the row's current version equals this one; otherwise 412 version_mismatch

        `PATCH /v1/projects/{projectSlug}/datasets/{datasetSlug}/rows/{rowId}` (operation `updateDatasetRow`)
        """
        return self._transport.request(
            "PATCH",
            f"/v1/projects/{path_segment(project_slug)}/datasets/{path_segment(dataset_slug)}/rows/{path_segment(row_id)}",
            body=drop_unset({"input": input, "output": output, "expectedOutput": expected_output, "metadata": metadata, "custom": custom}),
            headers=drop_unset({"If-Match": if_match}),
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=UpdateDatasetRowResponse,
        )

    def update_rows(
        self,
        project_slug: str,
        dataset_slug: str,
        *,
        edits: List[UpdateDatasetRowsEditParam],
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> UpdateDatasetRowsResponse:
        """Edit 1-1000 rows as one new dataset version, all or nothing.

        Each edit names a row and the cells to change, as the row edit does: `input`, `output`, `expectedOutput` and `metadata` replace that cell, `custom` is merged by column identifier. `ifMatch` applies the whole batch only if that row's current version equals it. A row may appear once. Only cells whose value differs from the current one change; a batch that changes nothing makes no version (`versionId: null`). An error names the edit's index and its row, and nothing is written.

        Requires an API key with role `member` or higher.

        `PATCH /v1/projects/{projectSlug}/datasets/{datasetSlug}/rows` (operation `updateDatasetRows`)
        """
        return self._transport.request(
            "PATCH",
            f"/v1/projects/{path_segment(project_slug)}/datasets/{path_segment(dataset_slug)}/rows",
            body=drop_unset({"edits": edits}),
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=UpdateDatasetRowsResponse,
        )


class ExperimentsResource:
    """Experiments: an agent run over a dataset version, its results, scores and comparisons"""

    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    def compare(
        self,
        project_slug: str,
        experiment_id: str,
        other_experiment_id: str,
        *,
        cursor: Union[str, Unset] = UNSET,
        limit: Union[int, Unset] = UNSET,
        change: Union[Literal["regressed", "improved", "added", "removed", "same"], Unset] = UNSET,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> CompareExperimentsResponse:
        """Compare two experiments of one dataset row by row, regressions first, with a summary.

        `experimentId` is a (the baseline), `otherExperimentId` is b. Each row with a result in either is `regressed` when any numeric or boolean score the two results share is lower in b (higher is better), else `improved` when any is higher, else `same`; `added` has a result only in b, `removed` only in a. Rows come in that order (regressed, improved, added, removed, same), then by row id.

        `rowChanged` is true when the row's revision differs between the two experiments' versions: the dataset changed, not only the answer. `summary` covers every row, whatever the page.

        Two experiments of different datasets are 400 validation_failed.

        Requires an API key with role `viewer` or higher.

        Args:
            cursor: Opaque cursor from a previous page's nextCursor
            limit: Most items on a page, 1-200; a page of large items (over 768 KiB together) ends sooner, with hasMore
            change: Only rows with this change

        `GET /v1/projects/{projectSlug}/experiments/{experimentId}/compare/{otherExperimentId}` (operation `compareExperiments`)
        """
        return self._transport.request(
            "GET",
            f"/v1/projects/{path_segment(project_slug)}/experiments/{path_segment(experiment_id)}/compare/{path_segment(other_experiment_id)}",
            query=drop_unset({"cursor": cursor, "limit": limit, "change": change}),
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=CompareExperimentsResponse,
        )

    def iterate_compare(
        self,
        project_slug: str,
        experiment_id: str,
        other_experiment_id: str,
        *,
        limit: Union[int, Unset] = UNSET,
        change: Union[Literal["regressed", "improved", "added", "removed", "same"], Unset] = UNSET,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> Iterator[CompareExperimentsResponseItem]:
        """Every item of `compare`, page after page, following `next_cursor` until the last page."""

        def page(page_cursor: Union[str, Unset]) -> CompareExperimentsResponse:
            return self.compare(
                project_slug,
                experiment_id,
                other_experiment_id,
                cursor=page_cursor,
                limit=limit,
                change=change,
                timeout=timeout,
                max_retries=max_retries,
                request_id=request_id,
                headers=headers,
            )

        return paginate(page)

    def create(
        self,
        project_slug: str,
        dataset_slug: str,
        *,
        name: str,
        version: Union[int, Unset] = UNSET,
        base_experiment_id: Union[str, Unset] = UNSET,
        metadata: Union[Cell, Unset] = UNSET,
        evaluators: Union[List[EvaluatorParam], Unset] = UNSET,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> Experiment:
        """Start an experiment pinned to a dataset version.

        The experiment runs on `version` (default: the dataset's current version) for good: later edits of the dataset do not change what it runs on. Every row of that version is pending until a result is recorded for it.

        `evaluators` are checked now: a regex that does not compile (RE2 syntax), a JSON Schema that does not compile, or two evaluators of one name are 400 validation_failed naming the evaluator, and nothing is created.

        With `baseExperimentId` (an earlier experiment of the same dataset), the result and scores of every row whose revision is the same at both versions are carried over (`carriedFrom`), and only new and changed rows are pending; the base's rule scores are carried only for evaluators this experiment declares the same way, and this experiment's other rules are applied to the carried results. A base of another dataset is 400 validation_failed.

        Requires an API key with role `member` or higher.

        Args:
            version: The dataset version to run on (default: the current one); the experiment stays pinned to it
            base_experiment_id: An earlier experiment of the same dataset: the result of every row whose revision is the same at both versions is carried over, so only new and changed rows are pending
            metadata: Anything worth keeping with the run: model, prompt, commit

        `POST /v1/projects/{projectSlug}/datasets/{datasetSlug}/experiments` (operation `createExperiment`)
        """
        return self._transport.request(
            "POST",
            f"/v1/projects/{path_segment(project_slug)}/datasets/{path_segment(dataset_slug)}/experiments",
            body=drop_unset({"name": name, "version": version, "baseExperimentId": base_experiment_id, "metadata": metadata, "evaluators": evaluators}),
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=Experiment,
        )

    def delete(
        self,
        project_slug: str,
        experiment_id: str,
        *,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> None:
        """Delete an experiment with its results and scores.

        Experiments that were started from it as their base keep their carried results; their `baseExperimentId` stays as it was.

        Requires an API key with role `member` or higher.

        `DELETE /v1/projects/{projectSlug}/experiments/{experimentId}` (operation `deleteExperiment`)
        """
        self._transport.request(
            "DELETE",
            f"/v1/projects/{path_segment(project_slug)}/experiments/{path_segment(experiment_id)}",
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
        )

    def get(
        self,
        project_slug: str,
        experiment_id: str,
        *,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> Experiment:
        """One experiment with its counts and score summary.

        Requires an API key with role `viewer` or higher.

        `GET /v1/projects/{projectSlug}/experiments/{experimentId}` (operation `getExperiment`)
        """
        return self._transport.request(
            "GET",
            f"/v1/projects/{path_segment(project_slug)}/experiments/{path_segment(experiment_id)}",
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=Experiment,
        )

    def list(
        self,
        project_slug: str,
        dataset_slug: str,
        *,
        cursor: Union[str, Unset] = UNSET,
        limit: Union[int, Unset] = UNSET,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> ListExperimentsResponse:
        """List a dataset's experiments, newest first, each with its score summary.

        Requires an API key with role `viewer` or higher.

        Args:
            cursor: Opaque cursor from a previous page's nextCursor
            limit: Most items on a page, 1-200; a page of large items (over 768 KiB together) ends sooner, with hasMore

        `GET /v1/projects/{projectSlug}/datasets/{datasetSlug}/experiments` (operation `listExperiments`)
        """
        return self._transport.request(
            "GET",
            f"/v1/projects/{path_segment(project_slug)}/datasets/{path_segment(dataset_slug)}/experiments",
            query=drop_unset({"cursor": cursor, "limit": limit}),
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=ListExperimentsResponse,
        )

    def iterate(
        self,
        project_slug: str,
        dataset_slug: str,
        *,
        limit: Union[int, Unset] = UNSET,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> Iterator[Experiment]:
        """Every item of `list`, page after page, following `next_cursor` until the last page."""

        def page(page_cursor: Union[str, Unset]) -> ListExperimentsResponse:
            return self.list(
                project_slug,
                dataset_slug,
                cursor=page_cursor,
                limit=limit,
                timeout=timeout,
                max_retries=max_retries,
                request_id=request_id,
                headers=headers,
            )

        return paginate(page)

    def pending(
        self,
        project_slug: str,
        experiment_id: str,
        *,
        cursor: Union[str, Unset] = UNSET,
        limit: Union[int, Unset] = UNSET,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> ListExperimentPendingRowsResponse:
        """Rows of the pinned version without a result yet, with their cells at that version.

        In row id order. A runner pages through these, runs its task on each and records the results; a runner that stopped half-way starts again here and does only what is left. Rows recorded while paging drop out of later pages without shifting them.

        Requires an API key with role `viewer` or higher.

        Args:
            cursor: Opaque cursor from a previous page's nextCursor
            limit: Most items on a page, 1-200; a page of large items (over 768 KiB together) ends sooner, with hasMore

        `GET /v1/projects/{projectSlug}/experiments/{experimentId}/pending` (operation `listExperimentPendingRows`)
        """
        return self._transport.request(
            "GET",
            f"/v1/projects/{path_segment(project_slug)}/experiments/{path_segment(experiment_id)}/pending",
            query=drop_unset({"cursor": cursor, "limit": limit}),
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=ListExperimentPendingRowsResponse,
        )

    def iterate_pending(
        self,
        project_slug: str,
        experiment_id: str,
        *,
        limit: Union[int, Unset] = UNSET,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> Iterator[DatasetRow]:
        """Every item of `pending`, page after page, following `next_cursor` until the last page."""

        def page(page_cursor: Union[str, Unset]) -> ListExperimentPendingRowsResponse:
            return self.pending(
                project_slug,
                experiment_id,
                cursor=page_cursor,
                limit=limit,
                timeout=timeout,
                max_retries=max_retries,
                request_id=request_id,
                headers=headers,
            )

        return paginate(page)

    def record_results(
        self,
        project_slug: str,
        experiment_id: str,
        *,
        results: List[RecordExperimentResultsResultParam],
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> RecordExperimentResultsResponse:
        """Record 1-1000 results, all or nothing.

        A row's new result replaces its old one, with all of the old one's scores. The experiment's rule evaluators score each result as it is recorded (source `rule`); `scores` carries the runner's own (source `code` or `llm`).

        A row named twice in one request is 400 validation_failed; a row that is not in the experiment's version is 400 unknown_row (`details.rowIds` names them); a finished experiment is 409 conflict; either way nothing of the request is recorded. Send an `Idempotency-Key` from a runner: a retry then records once.

        Requires an API key with role `member` or higher.

        `POST /v1/projects/{projectSlug}/experiments/{experimentId}/results` (operation `recordExperimentResults`)
        """
        return self._transport.request(
            "POST",
            f"/v1/projects/{path_segment(project_slug)}/experiments/{path_segment(experiment_id)}/results",
            body=drop_unset({"results": results}),
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=RecordExperimentResultsResponse,
        )

    def record_scores(
        self,
        project_slug: str,
        experiment_id: str,
        *,
        scores: List[RecordExperimentScoresScoreParam],
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> RecordExperimentScoresResponse:
        """Add 1-1000 scores to results, or to the experiment as a whole.

        A score replaces the score of the same name on the same result (or on the experiment, without `rowId`). From a person's session the source is always `human`; a key sends `code` by default. A row without a result is 400 unknown_row; a finished experiment is 409 conflict; nothing of the request is recorded then.

        Requires an API key with role `member` or higher.

        `POST /v1/projects/{projectSlug}/experiments/{experimentId}/scores` (operation `recordExperimentScores`)
        """
        return self._transport.request(
            "POST",
            f"/v1/projects/{path_segment(project_slug)}/experiments/{path_segment(experiment_id)}/scores",
            body=drop_unset({"scores": scores}),
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=RecordExperimentScoresResponse,
        )

    def results(
        self,
        project_slug: str,
        experiment_id: str,
        *,
        cursor: Union[str, Unset] = UNSET,
        limit: Union[int, Unset] = UNSET,
        errored: Union[Union[bool, Literal["true", "false"]], Unset] = UNSET,
        score: Union[str, Unset] = UNSET,
        below: Union[float, Unset] = UNSET,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> ListExperimentResultsResponse:
        """Results in row id order, each with the row's input and expected output at the pinned version.

        `errored=true` keeps the failed rows; `score=<name>&below=<n>` (the two go together) keeps the rows whose score of that name is lower than n (a boolean counts as 1 or 0; a row without that score is left out).

        Requires an API key with role `viewer` or higher.

        Args:
            cursor: Opaque cursor from a previous page's nextCursor
            limit: Most items on a page, 1-200; a page of large items (over 768 KiB together) ends sooner, with hasMore
            errored: Only results with (true) or without (false) an error
            score: With `below`: only results whose score of this name is lower

        `GET /v1/projects/{projectSlug}/experiments/{experimentId}/results` (operation `listExperimentResults`)
        """
        return self._transport.request(
            "GET",
            f"/v1/projects/{path_segment(project_slug)}/experiments/{path_segment(experiment_id)}/results",
            query=drop_unset({"cursor": cursor, "limit": limit, "errored": errored, "score": score, "below": below}),
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=ListExperimentResultsResponse,
        )

    def iterate_results(
        self,
        project_slug: str,
        experiment_id: str,
        *,
        limit: Union[int, Unset] = UNSET,
        errored: Union[Union[bool, Literal["true", "false"]], Unset] = UNSET,
        score: Union[str, Unset] = UNSET,
        below: Union[float, Unset] = UNSET,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> Iterator[ExperimentResult]:
        """Every item of `results`, page after page, following `next_cursor` until the last page."""

        def page(page_cursor: Union[str, Unset]) -> ListExperimentResultsResponse:
            return self.results(
                project_slug,
                experiment_id,
                cursor=page_cursor,
                limit=limit,
                errored=errored,
                score=score,
                below=below,
                timeout=timeout,
                max_retries=max_retries,
                request_id=request_id,
                headers=headers,
            )

        return paginate(page)

    def update(
        self,
        project_slug: str,
        experiment_id: str,
        *,
        name: Union[str, Unset] = UNSET,
        metadata: Union[Cell, Unset] = UNSET,
        status: Union[Literal["finished"], Unset] = UNSET,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> Experiment:
        """Rename an experiment, replace its metadata, or finish it.

        `status: finished` ends the experiment: results and scores sent afterwards are 409 conflict. Finishing a finished experiment changes nothing.

        Requires an API key with role `member` or higher.

        Args:
            status: Finish the experiment: it records nothing more

        `PATCH /v1/projects/{projectSlug}/experiments/{experimentId}` (operation `updateExperiment`)
        """
        return self._transport.request(
            "PATCH",
            f"/v1/projects/{path_segment(project_slug)}/experiments/{path_segment(experiment_id)}",
            body=drop_unset({"name": name, "metadata": metadata, "status": status}),
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=Experiment,
        )


class MembersResource:
    """Members of the organisation"""

    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    def add(
        self,
        *,
        email: str,
        role: Role,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> AddMemberResponse:
        """Invite a person to the organisation.

        The email is trimmed and stored in lower case; an email that is already a member is 409 conflict. The member is `invited` until their first sign-in, then `active`. The invitation is a one-time sign-in link, valid 7 days: the platform mails it when it has an SMTP server (`SVC_SMTP_URL`), and otherwise answers it once as `inviteUrl` for the inviter to pass on. Only an owner key may make a member an owner, or change or remove a member who is an owner.

        Requires an API key with role `admin` or higher.

        `POST /v1/members` (operation `addMember`)
        """
        return self._transport.request(
            "POST",
            "/v1/members",
            body=drop_unset({"email": email, "role": role}),
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=AddMemberResponse,
        )

    def leave(
        self,
        *,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> None:
        """Leave the organisation.

        Removes the caller's own membership: the person signed in, or the person who made the API key used. Their sessions in this organisation end at once; keys they made stay the organisation's. The last owner cannot leave (409 conflict); make another member an owner first. A key made by no person has no membership to leave (403).

        Requires an API key with role `viewer` or higher.

        `DELETE /v1/account/membership` (operation `leaveOrganization`)
        """
        self._transport.request(
            "DELETE",
            "/v1/account/membership",
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
        )

    def list(
        self,
        *,
        cursor: Union[str, Unset] = UNSET,
        limit: Union[int, Unset] = UNSET,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> ListMembersResponse:
        """List the organisation's members.

        Cursor-paginated like every list (`{items, nextCursor, hasMore}`), oldest member first. Members' email addresses are personal data, so listing them needs an admin key, as listing API keys does.

        Requires an API key with role `admin` or higher.

        Args:
            cursor: Opaque cursor from a previous page's nextCursor
            limit: Most items on a page, 1-200; a page of large items (over 768 KiB together) ends sooner, with hasMore

        `GET /v1/members` (operation `listMembers`)
        """
        return self._transport.request(
            "GET",
            "/v1/members",
            query=drop_unset({"cursor": cursor, "limit": limit}),
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=ListMembersResponse,
        )

    def iterate(
        self,
        *,
        limit: Union[int, Unset] = UNSET,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> Iterator[Member]:
        """Every item of `list`, page after page, following `next_cursor` until the last page."""

        def page(page_cursor: Union[str, Unset]) -> ListMembersResponse:
            return self.list(
                cursor=page_cursor,
                limit=limit,
                timeout=timeout,
                max_retries=max_retries,
                request_id=request_id,
                headers=headers,
            )

        return paginate(page)

    def remove(
        self,
        id: str,
        *,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> None:
        """Remove a member from the organisation.

        The member's browser sessions in this organisation end at once, at every gateway. Only an owner key may make a member an owner, or change or remove a member who is an owner. The last member with the owner role cannot be demoted or removed (409 conflict); make another member an owner first.

        Requires an API key with role `admin` or higher.

        `DELETE /v1/members/{id}` (operation `removeMember`)
        """
        self._transport.request(
            "DELETE",
            f"/v1/members/{path_segment(id)}",
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
        )

    def update(
        self,
        id: str,
        *,
        role: Role,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> Member:
        """Change a member's role.

        Only an owner key may make a member an owner, or change or remove a member who is an owner. The last member with the owner role cannot be demoted or removed (409 conflict); make another member an owner first.

        Requires an API key with role `admin` or higher.

        `PATCH /v1/members/{id}` (operation `updateMember`)
        """
        return self._transport.request(
            "PATCH",
            f"/v1/members/{path_segment(id)}",
            body=drop_unset({"role": role}),
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=Member,
        )


class ModelPricesResource:
    """What each model's tokens cost, to price the spans that do not say"""

    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    def delete(
        self,
        price_id: str,
        *,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> None:
        """Delete one of the organisation's prices.

        The shipped default it replaced, if any, applies again to spans ingested from then on. A shipped default cannot be deleted (409 conflict): set a price for the same model and date to replace it.

        Requires an API key with role `admin` or higher.

        `DELETE /v1/model-prices/{priceId}` (operation `deleteModelPrice`)
        """
        self._transport.request(
            "DELETE",
            f"/v1/model-prices/{path_segment(price_id)}",
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
        )

    def list(
        self,
        *,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> ListModelPricesResponse:
        """The organisation's price table: the shipped defaults and its own prices.

        Every price ingestion may use to cost a span whose exporter sent no `gen_ai.usage.cost`: input tokens times the input price plus output tokens times the output price. The shipped defaults are the providers' published list prices (see `source: default`); an organisation's own price for the same model and date replaces the default.

        A span's model takes the price of its exact name if the table has one, else of the longest prefix pattern (`gpt-4o*`) it starts with; of that model's prices, the one with the latest `effectiveFrom` on or before the span's start (UTC day).

        Sorted by model, then effectiveFrom. Changing a price never rewrites the cost of spans already stored.

        Requires an API key with role `viewer` or higher.

        `GET /v1/model-prices` (operation `listModelPrices`)
        """
        return self._transport.request(
            "GET",
            "/v1/model-prices",
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=ListModelPricesResponse,
        )

    def set(
        self,
        *,
        model: str,
        input_usd_per_million_tokens: float,
        output_usd_per_million_tokens: float,
        effective_from: Union[str, Unset] = UNSET,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> ModelPrice:
        """Set the price of a model (or a prefix of models) from a day on.

        Creates the organisation's price for `model` and `effectiveFrom`, or replaces the one it already has for both. Spans ingested from then on whose start is on or after `effectiveFrom` take it; spans already stored keep their cost.

        A span's model takes the price of its exact name if the table has one, else of the longest prefix pattern (`gpt-4o*`) it starts with; of that model's prices, the one with the latest `effectiveFrom` on or before the span's start (UTC day).

        Requires an API key with role `admin` or higher.

        Args:
            effective_from: Today (UTC) if absent
            input_usd_per_million_tokens: US dollars per million tokens, 0 to 1000000, with at most 8 decimal places
            output_usd_per_million_tokens: US dollars per million tokens, 0 to 1000000, with at most 8 decimal places

        `POST /v1/model-prices` (operation `setModelPrice`)
        """
        return self._transport.request(
            "POST",
            "/v1/model-prices",
            body=drop_unset({"model": model, "effectiveFrom": effective_from, "inputUsdPerMillionTokens": input_usd_per_million_tokens, "outputUsdPerMillionTokens": output_usd_per_million_tokens}),
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=ModelPrice,
        )


class OrganizationsResource:
    """Organisations (operators only)"""

    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    def create(
        self,
        *,
        name: str,
        owner_email: Union[str, Unset] = UNSET,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> CreateOrganizationResponse:
        """Create an organisation and its first owner key (operators only).

        Authenticated with the operator token (`SVC_ADMIN_TOKEN`), not an API key. The route does not exist when the platform runs without an operator token. The first owner key's token is in this answer only; a retry with the same Idempotency-Key and body answers 201 with the same organisation and key, `apiKey.token: null` and `apiKey.tokenAlreadyShown: true`, and creates nothing. With `ownerEmail`, that person is invited as the organisation's owner member, as `POST /v1/members` invites (the link mailed, or answered once in `owner.inviteUrl`), and the key is theirs.

        Requires the operator token.

        Args:
            owner_email: The first owner's address: they are invited as the organisation's owner member

        `POST /v1/organizations` (operation `createOrganization`)
        """
        return self._transport.request(
            "POST",
            "/v1/organizations",
            body=drop_unset({"name": name, "ownerEmail": owner_email}),
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=CreateOrganizationResponse,
        )


class ProjectsResource:
    """Projects: the containers of datasets and traces"""

    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    def create(
        self,
        *,
        name: str,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> Project:
        """Create a project.

        The slug is derived from the name and never changes. The name must be unique within the organisation, compared without regard to case; so must the slug.

        Requires an API key with role `member` or higher.

        `POST /v1/projects` (operation `createProject`)
        """
        return self._transport.request(
            "POST",
            "/v1/projects",
            body=drop_unset({"name": name}),
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=Project,
        )

    def delete(
        self,
        project_slug: str,
        *,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> None:
        """Delete a project with all its datasets.

        Deletes the project and, with it, every dataset in it: their rows, columns and versions. It cannot be undone, so it needs an admin key, while members may create and rename projects.

        Requires an API key with role `admin` or higher.

        `DELETE /v1/projects/{projectSlug}` (operation `deleteProject`)
        """
        self._transport.request(
            "DELETE",
            f"/v1/projects/{path_segment(project_slug)}",
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
        )

    def get(
        self,
        project_slug: str,
        *,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> Project:
        """One project.

        Requires an API key with role `viewer` or higher.

        `GET /v1/projects/{projectSlug}` (operation `getProject`)
        """
        return self._transport.request(
            "GET",
            f"/v1/projects/{path_segment(project_slug)}",
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=Project,
        )

    def list(
        self,
        *,
        cursor: Union[str, Unset] = UNSET,
        limit: Union[int, Unset] = UNSET,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> ListProjectsResponse:
        """List projects.

        Requires an API key with role `viewer` or higher.

        Args:
            cursor: Opaque cursor from a previous page's nextCursor
            limit: Most items on a page, 1-200; a page of large items (over 768 KiB together) ends sooner, with hasMore

        `GET /v1/projects` (operation `listProjects`)
        """
        return self._transport.request(
            "GET",
            "/v1/projects",
            query=drop_unset({"cursor": cursor, "limit": limit}),
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=ListProjectsResponse,
        )

    def iterate(
        self,
        *,
        limit: Union[int, Unset] = UNSET,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> Iterator[Project]:
        """Every item of `list`, page after page, following `next_cursor` until the last page."""

        def page(page_cursor: Union[str, Unset]) -> ListProjectsResponse:
            return self.list(
                cursor=page_cursor,
                limit=limit,
                timeout=timeout,
                max_retries=max_retries,
                request_id=request_id,
                headers=headers,
            )

        return paginate(page)

    def update(
        self,
        project_slug: str,
        *,
        name: str,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> Project:
        """Rename a project; its slug stays.

        The slug stays what it was at creation, so links and clients keep working. The new name must not be another project's name in the organisation, compared without regard to case.

        Requires an API key with role `member` or higher.

        `PATCH /v1/projects/{projectSlug}` (operation `updateProject`)
        """
        return self._transport.request(
            "PATCH",
            f"/v1/projects/{path_segment(project_slug)}",
            body=drop_unset({"name": name}),
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=Project,
        )


class TracesResource:
    """Traces ingested from OpenTelemetry exporters, and their metrics, sessions and users"""

    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    def get(
        self,
        project_slug: str,
        trace_id: str,
        *,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> GetTraceResponse:
        """One trace: its summary and every span.

        Requires an API key with role `viewer` or higher.

        `GET /v1/projects/{projectSlug}/traces/{traceId}` (operation `getTrace`)
        """
        return self._transport.request(
            "GET",
            f"/v1/projects/{path_segment(project_slug)}/traces/{path_segment(trace_id)}",
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=GetTraceResponse,
        )

    def ingest(
        self,
        *,
        resource_spans: List[IngestTracesResourceSpanParam],
        svc_project: str,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> IngestTracesResponse:
        """Ingest spans from any OpenTelemetry exporter (OTLP/HTTP, JSON or protobuf).

        Point an OpenTelemetry OTLP/HTTP exporter at this URL, with `Authorization: Bearer <API_KEY>` and `X-Svc-Project: <projectSlug>` headers: JSON (`Content-Type: application/json`) or protobuf (`application/x-protobuf`, an `ExportTraceServiceRequest` of opentelemetry-proto), either gzip-compressed or not. A protobuf body is decoded into the JSON encoding and checked by the same rules; its answer is an `ExportTraceServiceResponse` in protobuf. Protobuf bytes that are not such a message are 400 validation_failed.

        Spans of one trace may arrive in several requests: each span is stored once per (project, traceId, spanId), a re-sent span replaces the earlier copy, and the trace's summary is recomputed from all its spans.

        A request is all or nothing: a body that is not OTLP, or any span with a missing or malformed id or time (a time is at most 9223372036854775807 ns, and a span must not end before it starts), is 400 validation_failed naming the problem, and nothing of the request is stored. Success is OTLP's `{partialSuccess: {}}`.

        Text that cannot be stored as Unicode (the character U+0000, a UTF-16 surrogate without its pair) is stored with U+FFFD in its place, where every other operation refuses it.

        Requires an API key with role `member` or higher.

        Args:
            svc_project: Slug of the project that receives the traces

        `POST /v1/traces` (operation `ingestTraces`)
        """
        return self._transport.request(
            "POST",
            "/v1/traces",
            body=drop_unset({"resourceSpans": resource_spans}),
            headers=drop_unset({"X-Svc-Project": svc_project}),
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=IngestTracesResponse,
        )

    def list(
        self,
        project_slug: str,
        *,
        cursor: Union[str, Unset] = UNSET,
        limit: Union[int, Unset] = UNSET,
        sort_by: Union[Literal["startTime", "endTime", "durationNs", "spanCount", "errorCount", "tokensTotal", "costTotalMicrocents"], Unset] = UNSET,
        sort_direction: Union[Literal["asc", "desc"], Unset] = UNSET,
        filters: Union[List[TraceFilterParam], Unset] = UNSET,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> ListTracesResponse:
        """List the project's traces, sorted and filtered.

        Cursor-paginated like every list, with the cursor and limit in the body. `sortBy` defaults to `startTime`, `sortDirection` to `desc`. `filters` is a list of `{field, op, value}` conditions that all hold; a field that is not filterable is 400 validation_failed naming it. A cursor only continues the list it came from (same sort and filters).

        Requires an API key with role `viewer` or higher.

        Args:
            cursor: Opaque cursor from a previous page's nextCursor
            limit: Most items on a page, 1-200; a page of large items (over 768 KiB together) ends sooner, with hasMore
            filters: Conditions that every listed trace meets (AND)

        `POST /v1/projects/{projectSlug}/traces/list` (operation `listTraces`)
        """
        return self._transport.request(
            "POST",
            f"/v1/projects/{path_segment(project_slug)}/traces/list",
            body=drop_unset({"cursor": cursor, "limit": limit, "sortBy": sort_by, "sortDirection": sort_direction, "filters": filters}),
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=ListTracesResponse,
        )

    def iterate(
        self,
        project_slug: str,
        *,
        limit: Union[int, Unset] = UNSET,
        sort_by: Union[Literal["startTime", "endTime", "durationNs", "spanCount", "errorCount", "tokensTotal", "costTotalMicrocents"], Unset] = UNSET,
        sort_direction: Union[Literal["asc", "desc"], Unset] = UNSET,
        filters: Union[List[TraceFilterParam], Unset] = UNSET,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> Iterator[Trace]:
        """Every item of `list`, page after page, following `next_cursor` until the last page."""

        def page(page_cursor: Union[str, Unset]) -> ListTracesResponse:
            return self.list(
                project_slug,
                cursor=page_cursor,
                limit=limit,
                sort_by=sort_by,
                sort_direction=sort_direction,
                filters=filters,
                timeout=timeout,
                max_retries=max_retries,
                request_id=request_id,
                headers=headers,
            )

        return paginate(page)

    def metrics(
        self,
        project_slug: str,
        *,
        from_: str,
        to: Union[str, Unset] = UNSET,
        bucket: Union[Literal["minute", "hour", "day"], Unset] = UNSET,
        group_by: Union[Literal["model", "rootSpanName", "tag"], Unset] = UNSET,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> GetTraceMetricsResponse:
        """The project's traces over time: counts, errors, latency percentiles, tokens and cost per bucket.

        One point per bucket (UTC minute, hour or day) from `from` rounded down to its bucket to `to` rounded up, and per group with `groupBy`; a bucket without traces is there with zeros. A trace counts in the bucket where it started. More than 1440 buckets is 400 validation_failed naming the limit: ask for a wider bucket or a shorter range.

        `groupBy=model` and `groupBy=tag` count a trace once in each of its models or tags (and in group null if it has none), so groups may add up to more than all traces. The 20 groups with the most traces in the range have their own series; the others are summed into one series with `otherGroups: true`.

        The numbers come from totals the platform keeps per minute and per hour as spans arrive, so a page over months answers as fast as one over an hour. Counts, tokens and cost are exact; latencyP50Ms and latencyP95Ms are read from a histogram of trace durations whose buckets are 2^(1/8) apart (about 9%), and so are within 5% of the exact percentile. A trace whose spans arrive over several requests is counted once, with its summary as it stands.

        Requires an API key with role `viewer` or higher.

        Args:
            from_: Start of the range (inclusive), rounded down to its bucket
            to: End of the range (exclusive), rounded up to a bucket; now if absent
            bucket: Width of each point of the series, in UTC
            group_by: One series per model, root span name or tag; one series for all traces if absent

        `GET /v1/projects/{projectSlug}/traces/metrics` (operation `getTraceMetrics`)
        """
        return self._transport.request(
            "GET",
            f"/v1/projects/{path_segment(project_slug)}/traces/metrics",
            query=drop_unset({"from": from_, "to": to, "bucket": bucket, "groupBy": group_by}),
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=GetTraceMetricsResponse,
        )

    def sessions(
        self,
        project_slug: str,
        *,
        cursor: Union[str, Unset] = UNSET,
        limit: Union[int, Unset] = UNSET,
        sort_by: Union[Literal["lastTime", "firstTime", "traces", "errors", "tokensTotal", "costMicrocents"], Unset] = UNSET,
        sort_direction: Union[Literal["asc", "desc"], Unset] = UNSET,
        from_: Union[str, Unset] = UNSET,
        to: Union[str, Unset] = UNSET,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> ListTraceSessionsResponse:
        """The project's sessions: traces grouped by session.id, with their totals.

        Cursor-paginated like every list. `sortBy` defaults to `lastTime` and `sortDirection` to `desc`; `from` and `to` keep only the traces that started in that range, and the totals count only those. A trace's session is the `session.id` (or `gen_ai.conversation.id`) of its root span, or of its earliest span that has one; traces without one are in no session.

        Requires an API key with role `viewer` or higher.

        Args:
            cursor: Opaque cursor from a previous page's nextCursor
            limit: Most items on a page, 1-200; a page of large items (over 768 KiB together) ends sooner, with hasMore
            from_: Only traces that started at or after this instant
            to: Only traces that started before this instant

        `GET /v1/projects/{projectSlug}/traces/sessions` (operation `listTraceSessions`)
        """
        return self._transport.request(
            "GET",
            f"/v1/projects/{path_segment(project_slug)}/traces/sessions",
            query=drop_unset({"cursor": cursor, "limit": limit, "sortBy": sort_by, "sortDirection": sort_direction, "from": from_, "to": to}),
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=ListTraceSessionsResponse,
        )

    def iterate_sessions(
        self,
        project_slug: str,
        *,
        limit: Union[int, Unset] = UNSET,
        sort_by: Union[Literal["lastTime", "firstTime", "traces", "errors", "tokensTotal", "costMicrocents"], Unset] = UNSET,
        sort_direction: Union[Literal["asc", "desc"], Unset] = UNSET,
        from_: Union[str, Unset] = UNSET,
        to: Union[str, Unset] = UNSET,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> Iterator[ListTraceSessionsResponseItem]:
        """Every item of `sessions`, page after page, following `next_cursor` until the last page."""

        def page(page_cursor: Union[str, Unset]) -> ListTraceSessionsResponse:
            return self.sessions(
                project_slug,
                cursor=page_cursor,
                limit=limit,
                sort_by=sort_by,
                sort_direction=sort_direction,
                from_=from_,
                to=to,
                timeout=timeout,
                max_retries=max_retries,
                request_id=request_id,
                headers=headers,
            )

        return paginate(page)

    def users(
        self,
        project_slug: str,
        *,
        cursor: Union[str, Unset] = UNSET,
        limit: Union[int, Unset] = UNSET,
        sort_by: Union[Literal["lastTime", "firstTime", "traces", "errors", "tokensTotal", "costMicrocents"], Unset] = UNSET,
        sort_direction: Union[Literal["asc", "desc"], Unset] = UNSET,
        from_: Union[str, Unset] = UNSET,
        to: Union[str, Unset] = UNSET,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        idempotency_key: Optional[str] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> ListTraceUsersResponse:
        """The project's users: traces grouped by user.id, with their totals.

        Cursor-paginated like every list. `sortBy` defaults to `lastTime` and `sortDirection` to `desc`; `from` and `to` keep only the traces that started in that range, and the totals count only those. A trace's user is the `user.id` (or `enduser.id`) of its root span, or of its earliest span that has one; traces without one belong to no user.

        Requires an API key with role `viewer` or higher.

        Args:
            cursor: Opaque cursor from a previous page's nextCursor
            limit: Most items on a page, 1-200; a page of large items (over 768 KiB together) ends sooner, with hasMore
            from_: Only traces that started at or after this instant
            to: Only traces that started before this instant

        `GET /v1/projects/{projectSlug}/traces/users` (operation `listTraceUsers`)
        """
        return self._transport.request(
            "GET",
            f"/v1/projects/{path_segment(project_slug)}/traces/users",
            query=drop_unset({"cursor": cursor, "limit": limit, "sortBy": sort_by, "sortDirection": sort_direction, "from": from_, "to": to}),
            options=CallOptions(timeout, max_retries, idempotency_key, request_id, headers),
            model=ListTraceUsersResponse,
        )

    def iterate_users(
        self,
        project_slug: str,
        *,
        limit: Union[int, Unset] = UNSET,
        sort_by: Union[Literal["lastTime", "firstTime", "traces", "errors", "tokensTotal", "costMicrocents"], Unset] = UNSET,
        sort_direction: Union[Literal["asc", "desc"], Unset] = UNSET,
        from_: Union[str, Unset] = UNSET,
        to: Union[str, Unset] = UNSET,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        request_id: Optional[str] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> Iterator[ListTraceUsersResponseItem]:
        """Every item of `users`, page after page, following `next_cursor` until the last page."""

        def page(page_cursor: Union[str, Unset]) -> ListTraceUsersResponse:
            return self.users(
                project_slug,
                cursor=page_cursor,
                limit=limit,
                sort_by=sort_by,
                sort_direction=sort_direction,
                from_=from_,
                to=to,
                timeout=timeout,
                max_retries=max_retries,
                request_id=request_id,
                headers=headers,
            )

        return paginate(page)


class Resources:
    """Every resource of the API, each with a method per operation."""

    account: AccountResource
    api_keys: ApiKeysResource
    datasets: DatasetsResource
    experiments: ExperimentsResource
    members: MembersResource
    model_prices: ModelPricesResource
    organizations: OrganizationsResource
    projects: ProjectsResource
    traces: TracesResource

    def __init__(self, transport: Transport) -> None:
        self.account = AccountResource(transport)
        self.api_keys = ApiKeysResource(transport)
        self.datasets = DatasetsResource(transport)
        self.experiments = ExperimentsResource(transport)
        self.members = MembersResource(transport)
        self.model_prices = ModelPricesResource(transport)
        self.organizations = OrganizationsResource(transport)
        self.projects = ProjectsResource(transport)
        self.traces = TracesResource(transport)


OPERATIONS: Dict[str, Dict[str, Optional[str]]] = {
    # operationId: where the operation lives in this SDK
    "getAccount": {"resource": "account", "method": "get", "iterator": None, "http_method": "GET", "path": "/v1/account"},
    "updateAccountUser": {"resource": "account", "method": "update_user", "iterator": None, "http_method": "PATCH", "path": "/v1/account/user"},
    "createApiKey": {"resource": "api_keys", "method": "create", "iterator": None, "http_method": "POST", "path": "/v1/api-keys"},
    "deleteApiKey": {"resource": "api_keys", "method": "delete", "iterator": None, "http_method": "DELETE", "path": "/v1/api-keys/{id}"},
    "getApiKey": {"resource": "api_keys", "method": "get", "iterator": None, "http_method": "GET", "path": "/v1/api-keys/{id}"},
    "listApiKeys": {"resource": "api_keys", "method": "list", "iterator": None, "http_method": "GET", "path": "/v1/api-keys"},
    "updateApiKey": {"resource": "api_keys", "method": "update", "iterator": None, "http_method": "PATCH", "path": "/v1/api-keys/{id}"},
    "copyDatasetRows": {"resource": "datasets", "method": "copy_rows", "iterator": None, "http_method": "POST", "path": "/v1/projects/{projectSlug}/datasets/{datasetSlug}/rows/copy"},
    "countDatasetRows": {"resource": "datasets", "method": "count_rows", "iterator": None, "http_method": "GET", "path": "/v1/projects/{projectSlug}/datasets/{datasetSlug}/row-count"},
    "createDataset": {"resource": "datasets", "method": "create", "iterator": None, "http_method": "POST", "path": "/v1/projects/{projectSlug}/datasets"},
    "createDatasetColumn": {"resource": "datasets", "method": "create_column", "iterator": None, "http_method": "POST", "path": "/v1/projects/{projectSlug}/datasets/{datasetSlug}/columns"},
    "deleteDataset": {"resource": "datasets", "method": "delete", "iterator": None, "http_method": "DELETE", "path": "/v1/projects/{projectSlug}/datasets/{datasetSlug}"},
    "deleteDatasetColumn": {"resource": "datasets", "method": "delete_column", "iterator": None, "http_method": "DELETE", "path": "/v1/projects/{projectSlug}/datasets/{datasetSlug}/columns/{identifier}"},
    "deleteDatasetRows": {"resource": "datasets", "method": "delete_rows", "iterator": None, "http_method": "DELETE", "path": "/v1/projects/{projectSlug}/datasets/{datasetSlug}/rows"},
    "diffDatasetVersions": {"resource": "datasets", "method": "diff", "iterator": "iterate_diff", "http_method": "GET", "path": "/v1/projects/{projectSlug}/datasets/{datasetSlug}/diff"},
    "getDataset": {"resource": "datasets", "method": "get", "iterator": None, "http_method": "GET", "path": "/v1/projects/{projectSlug}/datasets/{datasetSlug}"},
    "getDatasetImport": {"resource": "datasets", "method": "get_import", "iterator": None, "http_method": "GET", "path": "/v1/projects/{projectSlug}/datasets/{datasetSlug}/imports/{importId}"},
    "getDatasetRow": {"resource": "datasets", "method": "get_row", "iterator": None, "http_method": "GET", "path": "/v1/projects/{projectSlug}/datasets/{datasetSlug}/rows/{rowId}"},
    "getDatasetVersion": {"resource": "datasets", "method": "get_version", "iterator": None, "http_method": "GET", "path": "/v1/projects/{projectSlug}/datasets/{datasetSlug}/versions/{version}"},
    "importDatasetRowsFromTraces": {"resource": "datasets", "method": "import_traces", "iterator": None, "http_method": "POST", "path": "/v1/projects/{projectSlug}/datasets/{datasetSlug}/rows/import/traces"},
    "insertDatasetRows": {"resource": "datasets", "method": "insert_rows", "iterator": None, "http_method": "POST", "path": "/v1/projects/{projectSlug}/datasets/{datasetSlug}/rows"},
    "listDatasets": {"resource": "datasets", "method": "list", "iterator": "iterate", "http_method": "GET", "path": "/v1/projects/{projectSlug}/datasets"},
    "listDatasetColumns": {"resource": "datasets", "method": "list_columns", "iterator": None, "http_method": "GET", "path": "/v1/projects/{projectSlug}/datasets/{datasetSlug}/columns"},
    "listDatasetRows": {"resource": "datasets", "method": "list_rows", "iterator": "iterate_rows", "http_method": "GET", "path": "/v1/projects/{projectSlug}/datasets/{datasetSlug}/rows"},
    "listDatasetVersions": {"resource": "datasets", "method": "list_versions", "iterator": "iterate_versions", "http_method": "GET", "path": "/v1/projects/{projectSlug}/datasets/{datasetSlug}/versions"},
    "reorderDatasetColumns": {"resource": "datasets", "method": "reorder_columns", "iterator": None, "http_method": "POST", "path": "/v1/projects/{projectSlug}/datasets/{datasetSlug}/columns/reorder"},
    "restoreDatasetColumn": {"resource": "datasets", "method": "restore_column", "iterator": None, "http_method": "POST", "path": "/v1/projects/{projectSlug}/datasets/{datasetSlug}/columns/{identifier}/restore"},
    "restoreDatasetVersion": {"resource": "datasets", "method": "restore_version", "iterator": None, "http_method": "POST", "path": "/v1/projects/{projectSlug}/datasets/{datasetSlug}/versions/{version}/restore"},
    "getDatasetRowHistory": {"resource": "datasets", "method": "row_history", "iterator": "iterate_row_history", "http_method": "GET", "path": "/v1/projects/{projectSlug}/datasets/{datasetSlug}/rows/{rowId}/history"},
    "updateDataset": {"resource": "datasets", "method": "update", "iterator": None, "http_method": "PATCH", "path": "/v1/projects/{projectSlug}/datasets/{datasetSlug}"},
    "updateDatasetColumn": {"resource": "datasets", "method": "update_column", "iterator": None, "http_method": "PATCH", "path": "/v1/projects/{projectSlug}/datasets/{datasetSlug}/columns/{identifier}"},
    "updateDatasetRow": {"resource": "datasets", "method": "update_row", "iterator": None, "http_method": "PATCH", "path": "/v1/projects/{projectSlug}/datasets/{datasetSlug}/rows/{rowId}"},
    "updateDatasetRows": {"resource": "datasets", "method": "update_rows", "iterator": None, "http_method": "PATCH", "path": "/v1/projects/{projectSlug}/datasets/{datasetSlug}/rows"},
    "compareExperiments": {"resource": "experiments", "method": "compare", "iterator": "iterate_compare", "http_method": "GET", "path": "/v1/projects/{projectSlug}/experiments/{experimentId}/compare/{otherExperimentId}"},
    "createExperiment": {"resource": "experiments", "method": "create", "iterator": None, "http_method": "POST", "path": "/v1/projects/{projectSlug}/datasets/{datasetSlug}/experiments"},
    "deleteExperiment": {"resource": "experiments", "method": "delete", "iterator": None, "http_method": "DELETE", "path": "/v1/projects/{projectSlug}/experiments/{experimentId}"},
    "getExperiment": {"resource": "experiments", "method": "get", "iterator": None, "http_method": "GET", "path": "/v1/projects/{projectSlug}/experiments/{experimentId}"},
    "listExperiments": {"resource": "experiments", "method": "list", "iterator": "iterate", "http_method": "GET", "path": "/v1/projects/{projectSlug}/datasets/{datasetSlug}/experiments"},
    "listExperimentPendingRows": {"resource": "experiments", "method": "pending", "iterator": "iterate_pending", "http_method": "GET", "path": "/v1/projects/{projectSlug}/experiments/{experimentId}/pending"},
    "recordExperimentResults": {"resource": "experiments", "method": "record_results", "iterator": None, "http_method": "POST", "path": "/v1/projects/{projectSlug}/experiments/{experimentId}/results"},
    "recordExperimentScores": {"resource": "experiments", "method": "record_scores", "iterator": None, "http_method": "POST", "path": "/v1/projects/{projectSlug}/experiments/{experimentId}/scores"},
    "listExperimentResults": {"resource": "experiments", "method": "results", "iterator": "iterate_results", "http_method": "GET", "path": "/v1/projects/{projectSlug}/experiments/{experimentId}/results"},
    "updateExperiment": {"resource": "experiments", "method": "update", "iterator": None, "http_method": "PATCH", "path": "/v1/projects/{projectSlug}/experiments/{experimentId}"},
    "addMember": {"resource": "members", "method": "add", "iterator": None, "http_method": "POST", "path": "/v1/members"},
    "leaveOrganization": {"resource": "members", "method": "leave", "iterator": None, "http_method": "DELETE", "path": "/v1/account/membership"},
    "listMembers": {"resource": "members", "method": "list", "iterator": "iterate", "http_method": "GET", "path": "/v1/members"},
    "removeMember": {"resource": "members", "method": "remove", "iterator": None, "http_method": "DELETE", "path": "/v1/members/{id}"},
    "updateMember": {"resource": "members", "method": "update", "iterator": None, "http_method": "PATCH", "path": "/v1/members/{id}"},
    "deleteModelPrice": {"resource": "model_prices", "method": "delete", "iterator": None, "http_method": "DELETE", "path": "/v1/model-prices/{priceId}"},
    "listModelPrices": {"resource": "model_prices", "method": "list", "iterator": None, "http_method": "GET", "path": "/v1/model-prices"},
    "setModelPrice": {"resource": "model_prices", "method": "set", "iterator": None, "http_method": "POST", "path": "/v1/model-prices"},
    "createOrganization": {"resource": "organizations", "method": "create", "iterator": None, "http_method": "POST", "path": "/v1/organizations"},
    "createProject": {"resource": "projects", "method": "create", "iterator": None, "http_method": "POST", "path": "/v1/projects"},
    "deleteProject": {"resource": "projects", "method": "delete", "iterator": None, "http_method": "DELETE", "path": "/v1/projects/{projectSlug}"},
    "getProject": {"resource": "projects", "method": "get", "iterator": None, "http_method": "GET", "path": "/v1/projects/{projectSlug}"},
    "listProjects": {"resource": "projects", "method": "list", "iterator": "iterate", "http_method": "GET", "path": "/v1/projects"},
    "updateProject": {"resource": "projects", "method": "update", "iterator": None, "http_method": "PATCH", "path": "/v1/projects/{projectSlug}"},
    "getTrace": {"resource": "traces", "method": "get", "iterator": None, "http_method": "GET", "path": "/v1/projects/{projectSlug}/traces/{traceId}"},
    "ingestTraces": {"resource": "traces", "method": "ingest", "iterator": None, "http_method": "POST", "path": "/v1/traces"},
    "listTraces": {"resource": "traces", "method": "list", "iterator": "iterate", "http_method": "POST", "path": "/v1/projects/{projectSlug}/traces/list"},
    "getTraceMetrics": {"resource": "traces", "method": "metrics", "iterator": None, "http_method": "GET", "path": "/v1/projects/{projectSlug}/traces/metrics"},
    "listTraceSessions": {"resource": "traces", "method": "sessions", "iterator": "iterate_sessions", "http_method": "GET", "path": "/v1/projects/{projectSlug}/traces/sessions"},
    "listTraceUsers": {"resource": "traces", "method": "users", "iterator": "iterate_users", "http_method": "GET", "path": "/v1/projects/{projectSlug}/traces/users"},
}


__all__ = [
    "AccountResource",
    "Actor",
    "AddMemberResponse",
    "ApiKey",
    "ApiKeyCreatedBy",
    "ApiKeysResource",
    "Cell",
    "CompareExperimentsResponse",
    "CompareExperimentsResponseItem",
    "CompareExperimentsResponseSummary",
    "CompareExperimentsResponseSummaryScoresValue",
    "CopyDatasetRowsResponse",
    "CopyDatasetRowsSelectionAllExceptParam",
    "CopyDatasetRowsSelectionAllParam",
    "CopyDatasetRowsSelectionFilterParam",
    "CopyDatasetRowsSelectionSelectedParam",
    "CopyDatasetRowsToParam",
    "CountDatasetRowsResponse",
    "CreateOrganizationResponse",
    "CreateOrganizationResponseOwner",
    "CreatedApiKey",
    "CreatedApiKeyCreatedBy",
    "Dataset",
    "DatasetColumn",
    "DatasetRow",
    "DatasetVersion",
    "DatasetsResource",
    "DeleteDatasetRowsResponse",
    "DiffDatasetVersionsResponse",
    "DiffDatasetVersionsResponseItem",
    "DiffDatasetVersionsResponseItemAfter",
    "DiffDatasetVersionsResponseItemBefore",
    "EvaluatorContainsParam",
    "EvaluatorExactMatchParam",
    "EvaluatorJsonEqualParam",
    "EvaluatorJsonSchemaParam",
    "EvaluatorLevenshteinParam",
    "EvaluatorNumericCloseParam",
    "EvaluatorParam",
    "EvaluatorRegexParam",
    "Experiment",
    "ExperimentResult",
    "ExperimentResultScoresValue",
    "ExperimentScoresValue",
    "ExperimentsResource",
    "GetAccountResponse",
    "GetAccountResponseOrganization",
    "GetAccountResponseUser",
    "GetDatasetImportResponse",
    "GetDatasetImportResponseError",
    "GetDatasetRowHistoryResponse",
    "GetDatasetRowHistoryResponseItem",
    "GetDatasetRowHistoryResponseItemCells",
    "GetTraceMetricsResponse",
    "GetTraceMetricsResponseSerie",
    "GetTraceResponse",
    "ImportDatasetRowsFromTracesResponse",
    "ImportDatasetRowsFromTracesTracesFiltersParam",
    "ImportDatasetRowsFromTracesTracesIdsParam",
    "IngestTracesResourceSpanParam",
    "IngestTracesResourceSpanResourceAttributeParam",
    "IngestTracesResourceSpanResourceParam",
    "IngestTracesResourceSpanScopeSpanParam",
    "IngestTracesResourceSpanScopeSpanScopeAttributeParam",
    "IngestTracesResourceSpanScopeSpanScopeParam",
    "IngestTracesResourceSpanScopeSpanSpanAttributeParam",
    "IngestTracesResourceSpanScopeSpanSpanEventAttributeParam",
    "IngestTracesResourceSpanScopeSpanSpanEventParam",
    "IngestTracesResourceSpanScopeSpanSpanLinkAttributeParam",
    "IngestTracesResourceSpanScopeSpanSpanLinkParam",
    "IngestTracesResourceSpanScopeSpanSpanParam",
    "IngestTracesResourceSpanScopeSpanSpanStatusParam",
    "IngestTracesResponse",
    "IngestTracesResponsePartialSuccess",
    "InsertDatasetRowsResponse",
    "ListApiKeysResponse",
    "ListDatasetColumnsResponse",
    "ListDatasetRowsResponse",
    "ListDatasetVersionsResponse",
    "ListDatasetsResponse",
    "ListExperimentPendingRowsResponse",
    "ListExperimentResultsResponse",
    "ListExperimentsResponse",
    "ListMembersResponse",
    "ListModelPricesResponse",
    "ListProjectsResponse",
    "ListTraceSessionsResponse",
    "ListTraceSessionsResponseItem",
    "ListTraceUsersResponse",
    "ListTraceUsersResponseItem",
    "ListTracesResponse",
    "Member",
    "MembersResource",
    "ModelPrice",
    "ModelPricesResource",
    "NewRowParam",
    "OPERATIONS",
    "Organization",
    "OrganizationsResource",
    "OtlpAnyValueArrayValueParam",
    "OtlpAnyValueKvlistValueParam",
    "OtlpAnyValueKvlistValueValueParam",
    "OtlpAnyValueParam",
    "Project",
    "ProjectsResource",
    "RecordExperimentResultsResponse",
    "RecordExperimentResultsResultParam",
    "RecordExperimentResultsResultScoreParam",
    "RecordExperimentScoresResponse",
    "RecordExperimentScoresScoreParam",
    "ReorderDatasetColumnsResponse",
    "Resources",
    "RestoreDatasetVersionResponse",
    "Role",
    "RowSelectionAllExceptParam",
    "RowSelectionAllParam",
    "RowSelectionParam",
    "RowSelectionSelectedParam",
    "ScoreValue",
    "Span",
    "SpanEvent",
    "SpanLink",
    "SpanScope",
    "SpanStatus",
    "Trace",
    "TraceFilterCostTotalMicrocentsParam",
    "TraceFilterDurationNsParam",
    "TraceFilterEndTimeParam",
    "TraceFilterErrorCountParam",
    "TraceFilterModelsContainsAnyParam",
    "TraceFilterModelsContainsParam",
    "TraceFilterParam",
    "TraceFilterRootSpanNameInParam",
    "TraceFilterRootSpanNameParam",
    "TraceFilterSessionIdInParam",
    "TraceFilterSessionIdParam",
    "TraceFilterSpanCountParam",
    "TraceFilterStartTimeParam",
    "TraceFilterTagsContainsAnyParam",
    "TraceFilterTagsContainsParam",
    "TraceFilterTextContainsParam",
    "TraceFilterTokensInputParam",
    "TraceFilterTokensOutputParam",
    "TraceFilterTokensTotalParam",
    "TraceFilterTraceIdEqParam",
    "TraceFilterTraceIdInParam",
    "TraceFilterUserIdInParam",
    "TraceFilterUserIdParam",
    "TracesResource",
    "UpdateAccountUserResponse",
    "UpdateDatasetRowResponse",
    "UpdateDatasetRowsEditParam",
    "UpdateDatasetRowsResponse",
]
