import { randomBytes } from "node:crypto";
import { expect } from "vitest";
import type { Client, Response } from "./http";

/** The API.md error body, whatever the status. */
export interface ErrorBody {
  error: string;
  code: string;
  requestId: string;
  details?: { issues?: { path: string; message: string; code: string }[] } & Record<string, unknown>;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
  hasMore: boolean;
}

export interface Dataset {
  id: string;
  slug: string;
  name: string;
  version: number;
  columns: { identifier: string; name: string }[];
  updatedAt: string;
}

export interface Row {
  rowId: string;
  input?: unknown;
  output?: unknown;
  expectedOutput?: unknown;
  metadata?: unknown;
  custom: Record<string, unknown>;
  version: number;
}

/** An import's progress or outcome (API.md's `Import`). */
export interface Import {
  importId: string;
  state: "receiving" | "running" | "succeeded" | "failed";
  format: string;
  mode: string;
  bytesRead: number;
  rowsRead: number;
  versionId?: string | null;
  version?: number;
  rowsInserted?: number;
  rowsUpdated?: number;
  error?: { code: string; error: string; details?: Record<string, unknown> };
}

/** Polls an accepted import until it has succeeded or failed (within a minute), and returns how it ended. */
export async function finishedImport(api: Client, base: string, importId: string): Promise<Import> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const current = await api.get<Import>(`${base}/imports/${importId}`);
    expect(current.status).toBe(200);
    if (current.body.state === "succeeded" || current.body.state === "failed") return current.body;
    if (Date.now() > deadline) throw new Error(`import ${importId} still ${current.body.state}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export const unique = (): string => randomBytes(3).toString("hex");

/**
 * Asserts that an answer is the API.md error with this status and code: a sentence for people, the
 * code for programs, and the request id that the X-Request-Id header carries too.
 */
export async function expectError(
  response: Promise<Response> | Response,
  status: number,
  code: string,
): Promise<ErrorBody> {
  const { status: got, body, headers } = await response;
  const error = body as ErrorBody;
  expect({ status: got, code: error?.code }).toEqual({ status, code });
  expect(error.error).toMatch(/\w+ \w+/);
  expect(error.requestId).toBeTruthy();
  expect(headers.get("x-request-id")).toBe(error.requestId);
  return error;
}

/** `details.issues[].path` of a validation_failed answer. */
export const issuePaths = (error: ErrorBody): string[] => (error.details?.issues ?? []).map((i) => i.path);

export async function makeProject(api: Client, name = `Project ${unique()}`): Promise<string> {
  const created = await api.post<{ slug: string }>("/v1/projects", { name });
  expect(created.status).toBe(201);
  return created.body.slug;
}

export interface DatasetFixture {
  /** `/v1/projects/{projectSlug}/datasets/{datasetSlug}` */
  base: string;
  dataset: Dataset;
  /** Custom column identifiers, in creation order. */
  columns: string[];
}

/** A dataset with `columns` custom columns and rows r0…r{n-1} (inserted as version 1 when any). */
export async function makeDataset(
  api: Client,
  project: string,
  {
    rows = 0,
    columns = 0,
    name = `Set ${unique()}`,
  }: { rows?: number; columns?: number; name?: string } = {},
): Promise<DatasetFixture> {
  const created = await api.post<Dataset>(`/v1/projects/${project}/datasets`, { name });
  expect(created.status).toBe(201);
  const base = `/v1/projects/${project}/datasets/${created.body.slug}`;
  const identifiers: string[] = [];
  for (let i = 0; i < columns; i++) {
    const column = await api.post<{ identifier: string }>(`${base}/columns`, { name: `c${i}` });
    expect(column.status).toBe(201);
    identifiers.push(column.body.identifier);
  }
  if (rows > 0) {
    const inserted = await api.post(`${base}/rows`, {
      rows: Array.from({ length: rows }, (_, i) => ({ id: `r${i}`, input: { q: i }, output: `a${i}` })),
    });
    expect(inserted.status).toBe(201);
  }
  return { base, dataset: created.body, columns: identifiers };
}

/** Every item of a paginated list, following nextCursor; `query` is the first page's query string. */
export async function listAll<T>(api: Client, path: string, query = ""): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 1000; pages++) {
    const params = new URLSearchParams(query);
    if (cursor) params.set("cursor", cursor);
    const page = await api.get<Page<T>>(`${path}?${params}`);
    expect(page.status).toBe(200);
    items.push(...page.body.items);
    if (!page.body.hasMore) return items;
    cursor = page.body.nextCursor;
  }
  throw new Error(`${path} did not end after 1000 pages`);
}

/**
 * What a client can read of a dataset: itself, every row and every version. Two snapshots equal
 * before and after a refused request prove it changed nothing.
 */
export async function datasetSnapshot(api: Client, base: string) {
  return {
    dataset: (await api.get(base)).body,
    rows: await listAll<Row>(api, `${base}/rows`),
    versions: await listAll(api, `${base}/versions`),
  };
}

/** The dataset's current version, read through the API. */
export async function versionOf(api: Client, base: string): Promise<number> {
  const dataset = await api.get<Dataset>(base);
  expect(dataset.status).toBe(200);
  return dataset.body.version;
}
