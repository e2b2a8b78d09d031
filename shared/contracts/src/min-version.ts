import type { Operation } from "./operation";

/** The request header that carries the dataset version a read must see. */
export const MIN_VERSION_HEADER = "X-Svc-Min-Version";

/**
 * The reads that honour `X-Svc-Min-Version`: the reader's queries of one dataset (its rows, columns,
 * versions, history, diffs, imports and the dataset itself), which may run on a read standby. A file
 * export and the live-change stream always read the primary.
 */
export const takesMinVersion = (op: Operation): boolean =>
  op.effect.readOnly &&
  op.subject.startsWith("svc.v1.datasets.") &&
  op.path.includes("{datasetSlug}") &&
  op.file === undefined &&
  op.events === undefined;
