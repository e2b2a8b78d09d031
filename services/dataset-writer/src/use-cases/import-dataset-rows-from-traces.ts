import {
  type Caller,
  DomainError,
  MAX_IMPORTED_TRACES,
  newId,
  type OperationInput,
  operations,
  type Trace,
  type VersionResult,
} from "@svc/contracts";
import {
  type Database,
  findProjectId,
  foldProjectTraces,
  idempotencyOf,
  listTraceRecords,
  runIdempotent,
} from "@svc/db";
import type { Kysely, Transaction } from "kysely";
import { listColumns } from "../repositories/columns";
import { insertRows, type NewRowRecord } from "../repositories/rows";
import { assertCellsAccepted } from "./column-check";
import { refOf, writeVersion } from "./versioning";

type ImportInput = OperationInput<typeof operations.importDatasetRowsFromTraces>;
type TraceSelection = ImportInput["body"]["traces"];

/**
 * Adds one row per trace of the dataset's project, as one new version (operation `import`). The traces
 * are read inside the version's transaction, after the traces marked in the project are folded into
 * their summaries (decision 0051); any refusal (too many, unknown ids) rolls it all back.
 */
export async function importDatasetRowsFromTraces(
  db: Kysely<Database>,
  caller: Caller,
  input: ImportInput,
): Promise<VersionResult & { rowIds: string[] }> {
  const { params, body } = input;
  const selection =
    body.traces.by === "ids" ? { ...body.traces, ids: distinct(body.traces.ids) } : body.traces;
  if (selection.by === "ids" && selection.ids.length > MAX_IMPORTED_TRACES)
    throw tooMany(selection.ids.length);

  await foldProjectTraces(db, caller.organizationId, params.projectSlug);
  const scope = idempotencyOf(caller, operations.importDatasetRowsFromTraces, input);
  return runIdempotent(db, scope, async (trx) => {
    const { versionId, version, work } = await writeVersion(trx, caller, params, async (target) => {
      const projectId = await findProjectId(trx, refOf(caller, params).organizationId, params.projectSlug);
      const traces = await selectTraces(trx, projectId, params.projectSlug, selection);
      assertCellsAccepted(await listColumns(trx, target.datasetId), ["output", "metadata"], []);
      const records = traces.map(toRowRecord(Date.now()));
      await insertRows(trx, target.datasetId, target.version, records);
      return {
        operation: "import" as const,
        rowsInserted: records.length,
        rowIds: records.map((record) => record.rowId),
      };
    });
    return { versionId, version, rowIds: work.rowIds };
  });
}

/** The traces to import: the given ids in their order, or every match of the filters by start time. */
async function selectTraces(
  trx: Transaction<Database>,
  projectId: string,
  projectSlug: string,
  selection: TraceSelection,
): Promise<Trace[]> {
  if (selection.by === "filters") {
    const traces = await listTraceRecords(trx, {
      projectId,
      filters: selection.filters,
      sortBy: "startTime",
      sortDirection: "asc",
      limit: MAX_IMPORTED_TRACES + 1,
    });
    if (traces.length > MAX_IMPORTED_TRACES) throw tooMany();
    if (traces.length === 0) {
      throw new DomainError(
        "not_found",
        `No trace of project "${projectSlug}" matches these filters; nothing was imported`,
      );
    }
    return traces;
  }
  const found = new Map(
    (await listTraceRecords(trx, { projectId, traceIds: selection.ids })).map((trace) => [
      trace.traceId,
      trace,
    ]),
  );
  const missing = selection.ids.filter((id) => !found.has(id));
  if (missing.length > 0) {
    throw new DomainError(
      "not_found",
      `${missing.length === 1 ? "Trace" : `${missing.length} traces`} not found in project "${projectSlug}": ${missing.slice(0, 10).join(", ")}${missing.length > 10 ? ", …" : ""}; nothing was imported`,
      { traceIds: missing },
    );
  }
  return selection.ids.map((id) => found.get(id) as Trace);
}

/** A trace as a new row: its messages as input and output, its origin and summary as metadata. */
function toRowRecord(now: number) {
  return (trace: Trace, index: number): NewRowRecord => ({
    rowId: newId(),
    input: trace.input,
    output: trace.output,
    expectedOutput: null,
    metadata: {
      source: "trace",
      traceId: trace.traceId,
      rootSpanName: trace.rootSpanName,
      sessionId: trace.sessionId,
      userId: trace.userId,
      startTime: trace.startTime,
      durationNs: trace.durationNs,
      models: trace.models,
      tags: trace.tags,
      tokensTotal: trace.tokensTotal,
      costTotalMicrocents: trace.costTotalMicrocents,
    },
    custom: {},
    // Millisecond steps keep the import in its order when rows are listed by creation time.
    createdAt: new Date(now + index),
  });
}

function tooMany(requested?: number): DomainError {
  const limit = MAX_IMPORTED_TRACES;
  return requested === undefined
    ? new DomainError(
        "too_many_traces",
        `More than ${limit} traces match these filters; narrow them to import at most ${limit} at once`,
        { limit },
      )
    : new DomainError(
        "too_many_traces",
        `${requested} traces requested; import at most ${limit} at once, in several imports if need be`,
        { limit, requested },
      );
}

const distinct = (ids: readonly string[]): string[] => [...new Set(ids)];
