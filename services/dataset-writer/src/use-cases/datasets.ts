import {
  type Dataset,
  DomainError,
  newId,
  type OperationInput,
  operations,
  type RequestContext,
  slugify,
} from "@svc/contracts";
import { type Database, runIdempotent } from "@svc/db";
import type { Kysely } from "kysely";
import { insertBuiltinColumns, listColumns, toContractColumn } from "../repositories/columns";
import {
  type DatasetRecord,
  type Db,
  deleteDataset as deleteDatasetRecord,
  existsDatasetName,
  existsDatasetSlug,
  findDataset,
  findDatasetForUpdate,
  findProjectId,
  insertDataset,
  updateDataset as updateDatasetRecord,
} from "../repositories/datasets";
import { idempotencyOf, refOf } from "./versioning";

export async function toDataset(db: Db, record: DatasetRecord): Promise<Dataset> {
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

export async function createDataset(
  db: Kysely<Database>,
  context: RequestContext,
  input: OperationInput<typeof operations.createDataset>,
): Promise<Dataset> {
  const { params, body } = input;
  const organizationId = refOf(context, { ...params, datasetSlug: "" }).organizationId;
  return runIdempotent(db, idempotencyOf(context, operations.createDataset, input), async (trx) => {
    const projectId = await findProjectId(trx, organizationId, params.projectSlug);
    const slug = slugify(body.name);
    if (
      (await existsDatasetName(trx, projectId, body.name)) ||
      (await existsDatasetSlug(trx, projectId, slug))
    ) {
      throw nameTaken(body.name);
    }
    const id = newId();
    await insertDataset(trx, {
      id,
      organizationId,
      projectId,
      slug,
      name: body.name,
      description: body.description ?? null,
    });
    await insertBuiltinColumns(trx, id);
    return toDataset(
      trx,
      await findDataset(trx, { organizationId, projectSlug: params.projectSlug, datasetSlug: slug }),
    );
  });
}

export async function updateDataset(
  db: Kysely<Database>,
  context: RequestContext,
  input: OperationInput<typeof operations.updateDataset>,
): Promise<Dataset> {
  const { params, body } = input;
  const ref = refOf(context, params);
  return runIdempotent(db, idempotencyOf(context, operations.updateDataset, input), async (trx) => {
    const dataset = await findDatasetForUpdate(trx, ref);
    if (body.name !== undefined && (await existsDatasetName(trx, dataset.projectId, body.name, dataset.id))) {
      throw nameTaken(body.name);
    }
    await updateDatasetRecord(trx, dataset.id, body);
    return toDataset(trx, await findDataset(trx, ref));
  });
}

export async function deleteDataset(
  db: Kysely<Database>,
  context: RequestContext,
  input: OperationInput<typeof operations.deleteDataset>,
): Promise<null> {
  const ref = refOf(context, input.params);
  return runIdempotent(db, idempotencyOf(context, operations.deleteDataset, input), async (trx) => {
    const dataset = await findDatasetForUpdate(trx, ref);
    await deleteDatasetRecord(trx, dataset.id);
    return null;
  });
}
