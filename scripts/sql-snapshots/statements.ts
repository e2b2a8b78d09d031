/*
 * The repository functions whose SQL is kept in committed snapshots (`npm run sql` writes them, a test
 * fails when one is stale), each called with fixed representative arguments. Every exported function
 * of a listed file is here, or in its `noStatement` with the reason: a new function cannot be missed.
 */

import { auth } from "./statements/auth";
import { datasetWriter } from "./statements/dataset-writer";
import { experimentsService } from "./statements/experiments";
import { reader } from "./statements/reader";
import { sharedDb } from "./statements/shared-db";
import { traceIngest } from "./statements/trace-ingest";

export const snapshotFiles = [
  ...datasetWriter,
  ...reader,
  ...auth,
  ...traceIngest,
  ...experimentsService,
  ...sharedDb,
];
