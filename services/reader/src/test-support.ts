import { type Bus, callOperation, type RawInput } from "@svc/bus";
import type { Operation, OperationOutput, RequestContext, Role } from "@svc/contracts";
import type { Database } from "@svc/db";
import {
  type BackendName,
  harnessForSuite,
  makeProject,
  type ProjectFixture,
  type ServedBackend,
  serveOnBackend,
} from "@svc/testing";
import { type DatasetFixture, type Edit, makeDataset, writeHistory } from "@svc/testing/datasets";
import type { Kysely } from "kysely";
import { beforeAll } from "vitest";
import { registerReader } from "./service";

export { failure } from "@svc/testing";

/** A backend with the reader serving on it, and a bus of its own to call it from, as the gateway would. */
export interface ReaderHarness extends ServedBackend {
  caller: Bus;
}

export async function startReader(name: BackendName): Promise<ReaderHarness> {
  const served = await serveOnBackend(name, registerReader);
  return { ...served, caller: await served.backend.connectBus() };
}

/** A suite's reader, with its database and a project of its own to read from. */
export interface ReaderSuite extends ReaderHarness {
  db: Kysely<Database>;
  project: ProjectFixture;
  /** Calls an operation as a key of the suite's project's organisation, as `call` below does. */
  call<O extends Operation>(op: O, input?: CallInput, context?: RequestContext): Promise<OperationOutput<O>>;
}

/**
 * The reader for one suite: started on its own backend, with a project made, before the suite's tests,
 * and stopped after them. Its fields are set once `beforeAll` has run.
 */
export function readerSuite(name: BackendName): ReaderSuite {
  const suite = harnessForSuite(async () => {
    const reader = await startReader(name);
    const db = reader.backend.database.db;
    return { ...reader, db, project: await makeProject(db) };
  });
  return Object.assign(suite, {
    call: <O extends Operation>(op: O, input?: CallInput, context?: RequestContext) =>
      call(suite, suite.project, op, input, context),
  });
}

/** A dataset with versions already written, as a suite reads it. */
export interface HistoryFixture extends DatasetFixture {
  /** The version each edit made, in the order given. */
  versions: number[];
}

/**
 * A dataset of the suite's project, made before the suite's tests with `edits` written one version
 * each (`edits` may name its custom columns, given in order). Its fields are set once `beforeAll` has run.
 */
export function datasetForSuite(
  reader: ReaderSuite,
  edits: readonly Edit[] | ((custom: string[]) => readonly Edit[]),
  options: { customColumns?: number } = {},
): HistoryFixture {
  const fixture = {} as HistoryFixture;
  beforeAll(async () => {
    const dataset = await makeDataset(reader.db, reader.project, options);
    const history = typeof edits === "function" ? edits(dataset.custom) : edits;
    Object.assign(fixture, dataset, { versions: await writeHistory(reader.db, dataset, history) });
  });
  return fixture;
}

export function contextOf(organizationId: string, role: Role = "viewer"): RequestContext {
  return { organizationId, role, actor: { kind: "apiKey", id: "reader-test" }, requestId: "reader-test" };
}

/** Path parameters besides the project's, and a query, as a URL gives them. */
export interface CallInput {
  params?: Record<string, string>;
  query?: Record<string, string | string[]>;
}

/** Calls an operation as a key of the project's organisation; params and query as a URL gives them. */
export function call<O extends Operation>(
  harness: ReaderHarness,
  project: ProjectFixture,
  op: O,
  input: CallInput = {},
  context: RequestContext = contextOf(project.organizationId),
): Promise<OperationOutput<O>> {
  const raw: RawInput = {
    params: { projectSlug: project.projectSlug, ...input.params },
    query: input.query ?? {},
    body: undefined,
    headers: {},
  };
  return callOperation(harness.caller, op, context, raw);
}
