import { callOperation, callOperationWithStatus, type RawInput } from "@svc/bus";
import {
  type Caller as CredentialedContext,
  newId,
  type Operation,
  type OperationOutput,
  type Role,
} from "@svc/contracts";
import { silentLogger } from "@svc/telemetry";
import { type Backend, type BackendName, openBackend } from "@svc/testing";
import { afterAll, beforeAll } from "vitest";
import { registerDatasetWriter } from "./service";

/** A caller of one organisation, with a project to work in. */
export interface Caller {
  /** The context the gateway sends for this caller's key, as the bus hands it to a handler. */
  context: CredentialedContext;
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

/**
 * A suite's writer: a backend of its own opened before the suite's tests, a writer serving on it and a
 * caller with a project; all stopped after them. Its fields are set once `beforeAll` has run.
 */
export function writerSuite(backendName: BackendName): {
  readonly backend: Backend;
  readonly caller: Caller;
} {
  const suite = {} as { backend: Backend; caller: Caller };
  let writer: { stop(): void } | undefined;
  beforeAll(async () => {
    suite.backend = await openBackend(backendName);
    const { bus, database } = suite.backend;
    writer = registerDatasetWriter({ bus, db: database.db, logger: silentLogger() });
    suite.caller = await makeCaller(suite.backend);
  });
  afterAll(async () => {
    writer?.stop();
    await suite.backend?.close();
  });
  return suite;
}

export async function makeCaller(backend: Backend, role: Role = "member"): Promise<Caller> {
  const organizationId = newId();
  const projectSlug = `p-${organizationId.slice(0, 8)}`;
  const db = backend.database.db;
  await db
    .insertInto("organizations")
    .values({ id: organizationId, name: "Org", slug: `org-${organizationId}` })
    .execute();
  await db
    .insertInto("projects")
    .values({ id: newId(), organization_id: organizationId, slug: projectSlug, name: projectSlug })
    .execute();
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
    projectSlug,
    call: (op, input, idempotencyKey) =>
      callOperation(backend.bus, op, contextWith(idempotencyKey), raw(input)),
    callWithStatus: (op, input, idempotencyKey) =>
      callOperationWithStatus(backend.bus, op, contextWith(idempotencyKey), raw(input)),
  };
}

/** Awaits a promise expected to fail with a domain error and returns that error's code and data. */
export async function failure(
  promise: Promise<unknown>,
): Promise<{ code: string; message: string; details?: unknown }> {
  try {
    await promise;
  } catch (error) {
    const { code, message, details } = error as { code: string; message: string; details?: unknown };
    return { code, message, details };
  }
  throw new Error("expected the call to fail, but it succeeded");
}

/**
 * Checks a dataset's history from the database: versions exactly 1..current, each row's revisions a
 * gapless chain of validity ranges ending in its one live revision, which matches its current cells.
 */
export async function auditDataset(backend: Backend, datasetId: string): Promise<void> {
  const db = backend.database.db;
  const dataset = await db
    .selectFrom("datasets")
    .select("current_version")
    .where("id", "=", datasetId)
    .executeTakeFirstOrThrow();
  const versions = await db
    .selectFrom("dataset_versions")
    .select("version")
    .where("dataset_id", "=", datasetId)
    .orderBy("version")
    .execute();
  const expected = Array.from({ length: dataset.current_version }, (_, i) => i + 1);
  if (JSON.stringify(versions.map((v) => v.version)) !== JSON.stringify(expected)) {
    throw new Error(
      `versions are not 1..${dataset.current_version}: ${versions.map((v) => v.version).join(",")}`,
    );
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
}
