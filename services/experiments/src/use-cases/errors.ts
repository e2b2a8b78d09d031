import { DomainError, validationError } from "@svc/contracts";

const NAMED_ROWS = 100;

/** Rows a request named that it may not: listed (the first hundred) so that a runner can see which. */
export const unknownRows = (rowIds: readonly string[], why: string): DomainError =>
  new DomainError(
    "unknown_row",
    `${
      rowIds.length === 1
        ? `Row "${rowIds[0]}"`
        : `${rowIds.length} rows (${rowIds
            .slice(0, 3)
            .map((id) => `"${id}"`)
            .join(", ")}${rowIds.length > 3 ? ", …" : ""})`
    } ${why}; nothing was recorded`,
    { rowIds: rowIds.slice(0, NAMED_ROWS), count: rowIds.length },
  );

export const experimentFinished = (id: string): DomainError =>
  new DomainError(
    "conflict",
    `Experiment "${id}" is finished and records nothing more; start a new one (with it as baseExperimentId to keep its results)`,
    { experimentId: id, status: "finished" },
  );

/** One problem of a request body, as `validation_failed` names it. */
export const invalidBody = (path: readonly (string | number)[], message: string): DomainError =>
  validationError([{ code: "custom", path: [...path], message, input: undefined }], ["body"], "Request");
