import {
  type Caller,
  type Dataset,
  DomainError,
  newId,
  type OperationInput,
  operations,
  slugify,
} from "@svc/contracts";
import {
  type Database,
  type DatasetRecord,
  findDataset,
  findDatasetForUpdate,
  findProjectId,
  idempotencyOf,
  runIdempotent,
} from "@svc/db";
import type { Kysely } from "kysely";
import { insertBuiltinColumns, listColumns, toContractColumn } from "../repositories/columns";
import {
  datasetClashOf,
  deleteDataset as deleteDatasetRecord,
  existsDatasetName,
  existsDatasetSlug,
  insertDataset,
  updateDataset as updateDatasetRecord,
} from "../repositories/datasets";
import { refOf } from "./versioning";

export async function toDataset(db: Kysely<Database>, record: DatasetRecord): Promise<Dataset> {
  const columns = await listColumns(db, record.id);
  return {
    id: record.id,
    organizationId: record.organizationId,
    projectId: record.projectId,
    slug: record.slug,
    name: record.name,
    description: record.description,
    columns: columns.filter((c) => !c.removed).map(toContractColumn),
    version: record.version,
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString(),
  };
}

const nameTaken = (name: string) =>
  new DomainError(
    "conflict",
    `A dataset named "${name}" already exists in this project; choose another name`,
    {
      name,
    },
  );

const slugTaken = (name: string, slug: string) =>
  new DomainError(
    "conflict",
    `The name "${name}" makes the slug "${slug}", which another dataset of this project has; choose another name`,
    { name, slug },
  );

/** Runs a write that may break a uniqueness rule, and turns that into the matching 409. */
async function refusingClashes<T>(name: string, slug: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const clash = datasetClashOf(error);
    if (clash === "name") throw nameTaken(name);
    if (clash === "slug") throw slugTaken(name, slug);
    throw error;
  }
}

export async function createDataset(
  db: Kysely<Database>,
  caller: Caller,
  input: OperationInput<typeof operations.createDataset>,
): Promise<Dataset> {
  const { params, body } = input;
  const organizationId = refOf(caller, { ...params, datasetSlug: "" }).organizationId;
  return runIdempotent(db, idempotencyOf(caller, operations.createDataset, input), async (trx) => {
    const projectId = await findProjectId(trx, organizationId, params.projectSlug);
    const slug = slugify(body.name);
    // Checked first for the common case; the unique indexes settle a race with a concurrent create.
    if (await existsDatasetName(trx, projectId, body.name)) throw nameTaken(body.name);
    if (await existsDatasetSlug(trx, projectId, slug)) throw slugTaken(body.name, slug);
    const id = newId();
    await refusingClashes(body.name, slug, () =>
      insertDataset(trx, {
        id,
        organizationId,
        projectId,
        slug,
        name: body.name,
        description: body.description ?? null,
      }),
    );
    await insertBuiltinColumns(trx, id);
    return toDataset(
      trx,
      await findDataset(trx, { organizationId, projectSlug: params.projectSlug, datasetSlug: slug }),
    );
  });
}

export async function updateDataset(
  db: Kysely<Database>,
  caller: Caller,
  input: OperationInput<typeof operations.updateDataset>,
): Promise<Dataset> {
  const { params, body } = input;
  const ref = refOf(caller, params);
  return runIdempotent(db, idempotencyOf(caller, operations.updateDataset, input), async (trx) => {
    const dataset = await findDatasetForUpdate(trx, ref);
    if (body.name !== undefined && (await existsDatasetName(trx, dataset.projectId, body.name, dataset.id))) {
      throw nameTaken(body.name);
    }
    await refusingClashes(body.name ?? dataset.name, dataset.slug, () =>
      updateDatasetRecord(trx, dataset.id, body),
    );
    return toDataset(trx, await findDataset(trx, ref));
  });
}

export async function deleteDataset(
  db: Kysely<Database>,
  caller: Caller,
  input: OperationInput<typeof operations.deleteDataset>,
): Promise<null> {
  const ref = refOf(caller, input.params);
  return runIdempotent(db, idempotencyOf(caller, operations.deleteDataset, input), async (trx) => {
    const dataset = await findDatasetForUpdate(trx, ref);
    await deleteDatasetRecord(trx, dataset.id);
    return null;
  });
}
