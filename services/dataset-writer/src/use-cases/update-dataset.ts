import { type Caller, type Dataset, type OperationInput, operations } from "@svc/contracts";
import { type Database, findDataset, findDatasetForUpdate, idempotencyOf, runIdempotent } from "@svc/db";
import type { Kysely } from "kysely";
import { existsDatasetName, updateDataset as updateDatasetRecord } from "../repositories/datasets";
import { nameTaken, refusingClashes } from "./dataset-names";
import { toDataset } from "./to-dataset";
import { refOf } from "./versioning";

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
