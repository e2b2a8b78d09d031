import {
  type Caller,
  cursorFingerprint,
  type ExperimentResult,
  listCursors,
  type OperationInput,
  type operations,
  type Page,
  validationError,
} from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";
import { z } from "zod";
import { findExperiment } from "../repositories/experiments";
import { listResults, listScoresOfRows, type ResultFilter } from "../repositories/results";
import { toResult } from "./result-view";

const cursors = listCursors(
  z.object({ experimentId: z.string(), filter: z.string().nullable(), resultsAfter: z.string() }),
);

export async function listExperimentResults(
  db: Kysely<Database>,
  caller: Caller,
  { params, query }: OperationInput<typeof operations.listExperimentResults>,
): Promise<Page<ExperimentResult>> {
  if ((query.score === undefined) !== (query.below === undefined)) {
    const missing = query.score === undefined ? "score" : "below";
    throw validationError(
      [{ code: "custom", path: [missing], message: "score and below go together", input: undefined }],
      ["query"],
    );
  }
  const experiment = await findExperiment(db, { organizationId: caller.organizationId, ...params });
  const filter: ResultFilter = {
    errored: query.errored,
    below:
      query.score !== undefined && query.below !== undefined
        ? { score: query.score, value: query.below }
        : undefined,
  };
  const fingerprint = cursorFingerprint(JSON.stringify([filter.errored ?? null, filter.below ?? null]));
  const cursor = cursors.read(query.cursor, (c) =>
    c.experimentId !== experiment.id
      ? "was issued for another experiment's results"
      : c.filter !== fingerprint
        ? "was issued for other filters; repeat the first page's errored, score and below with it"
        : undefined,
  );
  const pinned = {
    experimentId: experiment.id,
    datasetId: experiment.datasetId,
    version: experiment.version,
  };
  const records = await listResults(db, pinned, {
    afterRowId: cursor?.resultsAfter,
    limit: query.limit + 1,
    filter,
  });
  const scores = await listScoresOfRows(
    db,
    experiment.id,
    records.slice(0, query.limit).map((record) => record.rowId),
  );
  return cursors.page(
    records,
    query.limit,
    (record) => toResult(record, scores.get(record.rowId)),
    (record) => ({ experimentId: experiment.id, filter: fingerprint, resultsAfter: record.rowId }),
  );
}
