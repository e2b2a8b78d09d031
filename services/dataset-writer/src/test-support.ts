import { callOperation, callOperationWithStatus, type RawInput } from "@svc/bus";
import {
  type Caller as CredentialedContext,
  newId,
  type Operation,
  type OperationOutput,
  operations,
  type Role,
} from "@svc/contracts";
import type { Database } from "@svc/db";
import {
  type Backend,
  type BackendName,
  harnessForSuite,
  makeProject,
  makeTraces,
  type ServedBackend,
  serveOnBackend,
  type TraceSeed,
} from "@svc/testing";
import type { Kysely } from "kysely";
import { registerDatasetWriter } from "./service";

export { failure } from "@svc/testing";

/** A caller of one organisation, with a project to work in. */
export interface Caller {
  /** The context the gateway sends for this caller's key, as the bus hands it to a handler. */
  context: CredentialedContext;
  projectId: string;
  projectSlug: string;
  call<O extends Operation>(
    op: O,
    input: Partial<RawInput>,
    idempotencyKey?: string,
  ): Promise<OperationOutput<O>>;
  /** Like `call`, with the HTTP status the gateway answers the success with. */
  callWithStatus<O extends Operation>(
    op: O,
    input: Partial<RawInput>,
    idempotencyKey?: string,
  ): Promise<{ status: number; data: OperationOutput<O> }>;
}

/** A backend with the writer serving on it, and a caller with a project. */
export interface WriterHarness extends ServedBackend {
  caller: Caller;
}

/**
 * A suite's writer: a backend of its own opened before the suite's tests, a writer serving on it and a
 * caller with a project; all stopped after them. Its fields are set once `beforeAll` has run.
 */
export function writerSuite(backendName: BackendName): WriterHarness {
  return harnessForSuite(async () => {
    const served = await serveOnBackend(backendName, registerDatasetWriter);
    return { ...served, caller: await makeCaller(served.backend) };
  });
}

export async function makeCaller(backend: Backend, role: Role = "member"): Promise<Caller> {
  const { organizationId, projectId, projectSlug } = await makeProject(backend.database.db);
  const context: CredentialedContext = {
    organizationId,
    role,
    actor: { kind: "apiKey", id: newId() },
    requestId: "test",
  };
  const raw = (input: Partial<RawInput>): RawInput => ({
    params: { projectSlug, ...input.params },
    query: input.query ?? {},
    body: input.body,
    headers: input.headers ?? {},
  });
  const contextWith = (idempotencyKey?: string) =>
    idempotencyKey ? { ...context, idempotencyKey } : context;
  return {
    context,
    projectId,
    projectSlug,
    call: (op, input, idempotencyKey) =>
      callOperation(backend.bus, op, contextWith(idempotencyKey), raw(input)),
    callWithStatus: (op, input, idempotencyKey) =>
      callOperationWithStatus(backend.bus, op, contextWith(idempotencyKey), raw(input)),
  };
}

/** A dataset a caller created, with the path parameters that name it. */
export interface CreatedDataset {
  id: string;
  slug: string;
  params: { datasetSlug: string };
  /** The identifiers of its custom columns, in the order of the names given. */
  columns: string[];
}

let datasetsCreated = 0;

/** Creates a dataset as a client does, under a name of its own, with custom columns of these names. */
export async function createDataset(
  caller: Caller,
  columnNames: readonly string[] = [],
): Promise<CreatedDataset> {
  const dataset = await caller.call(operations.createDataset, {
    body: { name: `Dataset ${++datasetsCreated}` },
  });
  const params = { datasetSlug: dataset.slug };
  const columns: string[] = [];
  for (const name of columnNames) {
    columns.push((await caller.call(operations.createDatasetColumn, { params, body: { name } })).identifier);
  }
  return { id: dataset.id, slug: dataset.slug, params, columns };
}

/** Inserts rows into the dataset, as one version. */
export function insertRows(caller: Caller, params: { datasetSlug: string }, rows: readonly unknown[]) {
  return caller.call(operations.insertDatasetRows, { params, body: { rows } });
}

/** The dataset's current version, as stored. */
export async function currentVersion(backend: Backend, datasetId: string): Promise<number> {
  const dataset = await backend.database.db
    .selectFrom("datasets")
    .select("current_version")
    .where("id", "=", datasetId)
    .executeTakeFirstOrThrow();
  return dataset.current_version;
}

/** What the record of one version says it did. */
export function versionRecord(backend: Backend, datasetId: string, version: number) {
  return backend.database.db
    .selectFrom("dataset_versions")
    .select(["operation", "rows_inserted", "rows_updated", "rows_deleted"])
    .where("dataset_id", "=", datasetId)
    .where("version", "=", version)
    .executeTakeFirstOrThrow();
}

/** The validity range of each revision of one row, oldest first. */
export function rowRevisions(backend: Backend, datasetId: string, rowId: string) {
  return backend.database.db
    .selectFrom("row_revisions")
    .select(["version_from", "version_to", "deleted"])
    .where("dataset_id", "=", datasetId)
    .where("row_id", "=", rowId)
    .orderBy("version_from")
    .execute();
}

/**
 * Checks a dataset's history from the database: versions exactly 1..current, each row's revisions a
 * gapless chain of validity ranges ending in its one live revision, which matches its current cells;
 * each version's row count the rows alive at it, and the dataset's its live rows.
 */
export async function auditDataset(backend: Backend, datasetId: string): Promise<void> {
  const db = backend.database.db;
  const current = await currentVersion(backend, datasetId);
  const versions = await db
    .selectFrom("dataset_versions")
    .select("version")
    .where("dataset_id", "=", datasetId)
    .orderBy("version")
    .execute();
  const expected = Array.from({ length: current }, (_, i) => i + 1);
  if (JSON.stringify(versions.map((v) => v.version)) !== JSON.stringify(expected)) {
    throw new Error(`versions are not 1..${current}: ${versions.map((v) => v.version).join(",")}`);
  }
  const revisions = await db
    .selectFrom("row_revisions")
    .select(["row_id", "version_from", "version_to", "deleted", "custom", "expected_output"])
    .where("dataset_id", "=", datasetId)
    .orderBy("row_id")
    .orderBy("version_from")
    .execute();
  const live = new Map(
    (await db.selectFrom("dataset_rows").selectAll().where("dataset_id", "=", datasetId).execute()).map(
      (r) => [r.row_id, r],
    ),
  );
  const byRow = new Map<string, typeof revisions>();
  for (const revision of revisions)
    byRow.set(revision.row_id, [...(byRow.get(revision.row_id) ?? []), revision]);
  for (const [rowId, chain] of byRow) {
    chain.forEach((revision, i) => {
      const next = chain[i + 1];
      if (next && revision.version_to !== next.version_from)
        throw new Error(`row ${rowId}: broken chain at ${revision.version_from}`);
      if (!next && revision.version_to !== null) throw new Error(`row ${rowId}: no live revision`);
    });
    const last = chain.at(-1);
    const row = live.get(rowId);
    if (last?.deleted !== (row === undefined))
      throw new Error(`row ${rowId}: live state disagrees with its last revision`);
    if (
      row &&
      (JSON.stringify(row.custom) !== JSON.stringify(last?.custom) || row.version !== last?.version_from)
    ) {
      throw new Error(`row ${rowId}: current cells differ from the live revision`);
    }
  }
  const counted = await db
    .selectFrom("dataset_versions")
    .select(["version", "row_count"])
    .where("dataset_id", "=", datasetId)
    .orderBy("version")
    .execute();
  for (const { version, row_count } of counted) {
    const alive = revisions.filter(
      (r) => !r.deleted && r.version_from <= version && (r.version_to === null || r.version_to > version),
    ).length;
    if (row_count !== alive) throw new Error(`version ${version}: counts ${row_count} rows, has ${alive}`);
  }
  const { row_count } = await db
    .selectFrom("datasets")
    .select("row_count")
    .where("id", "=", datasetId)
    .executeTakeFirstOrThrow();
  if (row_count !== live.size) throw new Error(`the dataset counts ${row_count} rows, has ${live.size}`);
}

/**
 * Traces of an agent run as the import tests read them: two spans, 250 ms, one session, tagged prod,
 * on gpt-4o, 10 + 5 tokens costing 700 microcents; `seeds` say the rest. Returns their ids.
 */
export function makeAgentTraces(db: Kysely<Database>, projectId: string, seeds: readonly TraceSeed[]) {
  return makeTraces(
    db,
    projectId,
    seeds.map((seed) => ({
      spanCount: 2,
      durationMs: 250,
      rootSpanName: "agent",
      sessionId: "s-1",
      tags: ["prod"],
      models: ["gpt-4o"],
      tokensInput: 10,
      tokensOutput: 5,
      costTotalMicrocents: 700,
      ...seed,
    })),
  );
}
