import {
  type Caller,
  type Experiment,
  listCursors,
  type OperationInput,
  type operations,
  type Page,
} from "@svc/contracts";
import { type Database, EXACT_TIMESTAMP_PATTERN, findDataset } from "@svc/db";
import type { Kysely } from "kysely";
import { z } from "zod";
import { listExperiments as listExperimentRecords } from "../repositories/experiments";
import { withTotals } from "./experiment-view";

const cursors = listCursors(
  z.object({ datasetId: z.string(), createdAt: z.string().regex(EXACT_TIMESTAMP_PATTERN), id: z.string() }),
);

export async function listExperiments(
  db: Kysely<Database>,
  caller: Caller,
  { params, query }: OperationInput<typeof operations.listExperiments>,
): Promise<Page<Experiment>> {
  const dataset = await findDataset(db, { organizationId: caller.organizationId, ...params });
  const cursor = cursors.read(query.cursor, (c) =>
    c.datasetId === dataset.id ? undefined : "was issued for another dataset's experiments",
  );
  const records = await listExperimentRecords(db, {
    datasetId: dataset.id,
    after: cursor,
    limit: query.limit + 1,
  });
  const shown = records.slice(0, query.limit);
  const experiments = new Map((await withTotals(db, shown)).map((experiment) => [experiment.id, experiment]));
  return cursors.page(
    records,
    query.limit,
    (record) => experiments.get(record.id) as Experiment,
    (record) => ({ datasetId: dataset.id, createdAt: record.key, id: record.id }),
  );
}
