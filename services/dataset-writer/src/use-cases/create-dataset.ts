import { type Caller, type Dataset, newId, type OperationInput, operations, slugify } from "@svc/contracts";
import { type Database, findDataset, findProjectId, idempotencyOf, runIdempotent } from "@svc/db";
import type { Kysely } from "kysely";
import { insertBuiltinColumns } from "../repositories/columns";
import { existsDatasetName, existsDatasetSlug, insertDataset } from "../repositories/datasets";
import { nameTaken, refusingClashes, slugTaken } from "./dataset-names";
import { toDataset } from "./to-dataset";
import { refOf } from "./versioning";

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
