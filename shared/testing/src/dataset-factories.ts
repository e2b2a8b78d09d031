import { type BuiltinField, builtinFields, type Cell, newId, type VersionOperation } from "@svc/contracts";
import {
  cellValues,
  closeRevisions,
  type Database,
  type DatasetRowsTable,
  jsonb,
  type RowCells,
  rowCellsOf,
  storedColumnOf,
} from "@svc/db";
import { type Kysely, type Selectable, sql, type Transaction } from "kysely";
import type { ProjectFixture } from "./service-tests";

/**
 * Test data written the way decision 0001 stores it: each mutation is one transaction that bumps
 * `datasets.current_version`, writes `dataset_rows`, closes the live revision and opens the next (a
 * tombstone for a deletion), and records the version in `dataset_versions`.
 */

export { makeProject, type ProjectFixture } from "./service-tests";

export interface DatasetFixture extends ProjectFixture {
  id: string;
  slug: string;
  /** Identifiers of the custom columns, in the order they were added. */
  custom: string[];
}

export interface RowSeed {
  id: string;
  input?: Cell;
  output?: Cell;
  expectedOutput?: Cell;
  metadata?: Cell;
  custom?: Record<string, Cell>;
  createdAt?: Date;
}

/** `count` rows with ids `<prefix>-0000`, `<prefix>-0001`, … (counting on from `from`), each with an input. */
export const seeds = (count: number, prefix = "row", from = 0): RowSeed[] =>
  Array.from({ length: count }, (_, index) => {
    const id = `${prefix}-${String(from + index).padStart(4, "0")}`;
    return { id, input: { text: `input of ${id}` } };
  });

export type RowPatch = Partial<Omit<RowSeed, "id" | "createdAt">>;

/** A seed's cells: those it leaves out are null. */
function seedCells(seed: RowSeed): RowCells {
  const cells = { custom: seed.custom ?? {} } as RowCells;
  for (const field of builtinFields) cells[field] = seed[field] ?? null;
  return cells;
}

const builtinNames: Record<BuiltinField, string> = {
  input: "Input",
  output: "Output",
  expectedOutput: "Expected output",
  metadata: "Metadata",
};

/** Rows get creation times 1 ms apart, in the order they are made, unless a test sets them. */
let clock = Date.UTC(2024, 0, 1);
const nextCreatedAt = (): Date => new Date(clock++);

export async function makeDataset(
  db: Kysely<Database>,
  project: ProjectFixture,
  options: { name?: string; slug?: string; customColumns?: number; updatedAt?: Date } = {},
): Promise<DatasetFixture> {
  const id = newId();
  const name = options.name ?? `Dataset ${id.slice(0, 6)}`;
  const slug = options.slug ?? `dataset-${id.slice(0, 8)}`;
  const custom = Array.from({ length: options.customColumns ?? 0 }, () => newId());
  await db
    .insertInto("datasets")
    .values({
      id,
      organization_id: project.organizationId,
      project_id: project.projectId,
      slug,
      name,
      description: null,
      ...(options.updatedAt ? { updated_at: options.updatedAt } : {}),
    })
    .execute();
  await db
    .insertInto("dataset_columns")
    .values([
      ...builtinFields.map((field, position) => ({
        dataset_id: id,
        identifier: field,
        name: builtinNames[field],
        kind: "builtin" as const,
        field,
        position,
      })),
      ...custom.map((identifier, index) => ({
        dataset_id: id,
        identifier,
        name: `Custom ${index + 1}`,
        kind: "custom" as const,
        field: null,
        position: builtinFields.length + index,
      })),
    ])
    .execute();
  return { ...project, id, slug, custom };
}

/** Inserts rows as one new version; a re-used id of a deleted row ends that row's tombstone. */
export function insertRows(
  db: Kysely<Database>,
  dataset: DatasetFixture,
  seeds: readonly RowSeed[],
): Promise<number> {
  return commitVersion(db, dataset, "insert", { inserted: seeds.length }, async (trx, version) => {
    const values = seeds.map((seed) => ({
      dataset_id: dataset.id,
      row_id: seed.id,
      ...cellValues(seedCells(seed)),
      created_at: seed.createdAt ?? nextCreatedAt(),
    }));
    await closeRevisions(
      trx,
      dataset.id,
      seeds.map((seed) => seed.id),
      version,
    );
    await trx
      .insertInto("dataset_rows")
      .values(values.map((value) => ({ ...value, version })) as never)
      .execute();
    await trx
      .insertInto("row_revisions")
      .values(values.map((value) => ({ ...value, version_from: version })) as never)
      .execute();
  });
}

/** Edits one row as one new version: built-in cells replaced, custom cells merged in SQL. */
export function updateRow(
  db: Kysely<Database>,
  dataset: DatasetFixture,
  rowId: string,
  patch: RowPatch,
): Promise<number> {
  return commitVersion(db, dataset, "update", { updated: 1 }, async (trx, version) => {
    const changes: Record<string, unknown> = { version };
    for (const field of builtinFields) {
      if (field in patch) changes[storedColumnOf[field]] = jsonb(patch[field]);
    }
    if (patch.custom) changes.custom = sql`custom || ${jsonb(patch.custom)}`;
    const row = await trx
      .updateTable("dataset_rows")
      .set(changes as never)
      .where("dataset_id", "=", dataset.id)
      .where("row_id", "=", rowId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await closeRevisions(trx, dataset.id, [rowId], version);
    await insertRevision(trx, row, version, false);
  });
}

/** Deletes rows as one new version, leaving a tombstone revision for each. */
export function deleteRows(
  db: Kysely<Database>,
  dataset: DatasetFixture,
  rowIds: readonly string[],
): Promise<number> {
  return commitVersion(db, dataset, "delete", { deleted: rowIds.length }, async (trx, version) => {
    const rows = await trx
      .deleteFrom("dataset_rows")
      .where("dataset_id", "=", dataset.id)
      .where("row_id", "in", rowIds)
      .returningAll()
      .execute();
    await closeRevisions(trx, dataset.id, rowIds, version);
    for (const row of rows) await insertRevision(trx, row, version, true);
  });
}

/** One version of a dataset's history: rows inserted, one row edited, or rows deleted, as above. */
export type Edit =
  | { insert: readonly RowSeed[] }
  | { update: string; patch: RowPatch }
  | { delete: readonly string[] };

/** Writes the edits in order, one version each, and returns the version each made. */
export async function writeHistory(
  db: Kysely<Database>,
  dataset: DatasetFixture,
  edits: readonly Edit[],
): Promise<number[]> {
  const versions: number[] = [];
  for (const edit of edits) {
    if ("insert" in edit) versions.push(await insertRows(db, dataset, edit.insert));
    else if ("update" in edit) versions.push(await updateRow(db, dataset, edit.update, edit.patch));
    else versions.push(await deleteRows(db, dataset, edit.delete));
  }
  return versions;
}

/** Soft-removes a column: its cells stay stored. Column changes take the lock but no version. */
export async function removeColumn(
  db: Kysely<Database>,
  dataset: DatasetFixture,
  identifier: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.selectFrom("datasets").select("id").where("id", "=", dataset.id).forUpdate().execute();
    await trx
      .updateTable("dataset_columns")
      .set({ removed_at: sql`now()` })
      .where("dataset_id", "=", dataset.id)
      .where("identifier", "=", identifier)
      .execute();
  });
}

async function commitVersion(
  db: Kysely<Database>,
  dataset: DatasetFixture,
  operation: VersionOperation,
  counts: { inserted?: number; updated?: number; deleted?: number },
  work: (trx: Transaction<Database>, version: number) => Promise<void>,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const { current_version: version } = await trx
      .updateTable("datasets")
      .set({ current_version: sql`current_version + 1`, updated_at: sql`now()` })
      .where("id", "=", dataset.id)
      .returning("current_version")
      .executeTakeFirstOrThrow();
    await work(trx, version);
    // The count as the writer keeps it, taken here from the live rows the work left.
    const { row_count } = await trx
      .updateTable("datasets")
      .set({
        row_count: sql`(SELECT count(*)::int FROM dataset_rows WHERE dataset_id = ${dataset.id})`,
      })
      .where("id", "=", dataset.id)
      .returning("row_count")
      .executeTakeFirstOrThrow();
    await trx
      .insertInto("dataset_versions")
      .values({
        id: newId(),
        dataset_id: dataset.id,
        version,
        operation,
        rows_inserted: counts.inserted ?? 0,
        rows_updated: counts.updated ?? 0,
        rows_deleted: counts.deleted ?? 0,
        row_count,
        actor_kind: "apiKey",
        actor_id: "factory-actor",
      })
      .execute();
    return version;
  });
}

async function insertRevision(
  trx: Transaction<Database>,
  row: Selectable<DatasetRowsTable>,
  version: number,
  deleted: boolean,
): Promise<void> {
  await trx
    .insertInto("row_revisions")
    .values({
      dataset_id: row.dataset_id,
      row_id: row.row_id,
      version_from: version,
      deleted,
      ...cellValues(rowCellsOf(row)),
      created_at: row.created_at,
    } as never)
    .execute();
}
