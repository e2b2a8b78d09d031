import type { Subscription } from "@svc/bus";
import { operations } from "@svc/contracts";
import { serveOperation } from "@svc/service";
import type { ExperimentsDeps } from "../deps";
import { compareExperiments } from "../use-cases/compare-experiments";
import { createExperiment } from "../use-cases/create-experiment";
import { deleteExperiment } from "../use-cases/delete-experiment";
import { getExperiment } from "../use-cases/get-experiment";
import { listExperimentPendingRows } from "../use-cases/list-experiment-pending-rows";
import { listExperimentResults } from "../use-cases/list-experiment-results";
import { listExperiments } from "../use-cases/list-experiments";
import { recordExperimentResults } from "../use-cases/record-experiment-results";
import { recordExperimentScores } from "../use-cases/record-experiment-scores";
import { updateExperiment } from "../use-cases/update-experiment";

export function serveExperiments({ bus, db, logger }: ExperimentsDeps): Subscription[] {
  return [
    serveOperation(bus, operations.createExperiment, logger, (input, caller) =>
      createExperiment(db, caller, input),
    ),
    serveOperation(bus, operations.listExperiments, logger, (input, caller) =>
      listExperiments(db, caller, input),
    ),
    serveOperation(bus, operations.getExperiment, logger, (input, caller) =>
      getExperiment(db, caller, input),
    ),
    serveOperation(bus, operations.updateExperiment, logger, (input, caller) =>
      updateExperiment(db, caller, input),
    ),
    serveOperation(bus, operations.deleteExperiment, logger, (input, caller) =>
      deleteExperiment(db, caller, input),
    ),
    serveOperation(bus, operations.listExperimentPendingRows, logger, (input, caller) =>
      listExperimentPendingRows(db, caller, input),
    ),
    serveOperation(bus, operations.recordExperimentResults, logger, (input, caller) =>
      recordExperimentResults(db, caller, input),
    ),
    serveOperation(bus, operations.recordExperimentScores, logger, (input, caller) =>
      recordExperimentScores(db, caller, input),
    ),
    serveOperation(bus, operations.listExperimentResults, logger, (input, caller) =>
      listExperimentResults(db, caller, input),
    ),
    serveOperation(bus, operations.compareExperiments, logger, (input, caller) =>
      compareExperiments(db, caller, input),
    ),
  ];
}
