import { DomainError } from "@svc/contracts";

/*
 * The errors of a row edit, worded once for the single edit (updateDatasetRow) and the batch
 * (updateDatasetRows). An error of a batch names the edit it is about, by its index, and carries
 * the index and the row id in its details: `Edit 2: row "r_1" not found`.
 */

/** The edit an error is about: the row of a single edit, or the edit at `index` of a batch. */
export interface EditAt {
  rowId: string;
  index?: number | undefined;
}

const subject = ({ rowId, index }: EditAt) =>
  index === undefined ? `Row "${rowId}"` : `Edit ${index}: row "${rowId}"`;

/** What the details of a batch's error add: which edit it is about. */
const detailsOf = ({ rowId, index }: EditAt) => (index === undefined ? undefined : { index, rowId });

export function rowNotFound(at: EditAt): DomainError {
  return new DomainError("not_found", `${subject(at)} not found`, detailsOf(at));
}

/** The edit's If-Match named version `expected`, and the row was last changed at `current`. */
export function rowVersionMismatch(at: EditAt, current: number, expected: number | undefined): DomainError {
  return new DomainError(
    "version_mismatch",
    `${subject(at)} was changed at version ${current}, not ${expected}; read it again and retry`,
    { ...detailsOf(at), currentVersion: current, expectedVersion: expected },
  );
}

/** Runs `check` and prefixes the error it throws with the edit of a batch it is about. */
export function atEdit(at: Required<EditAt>, check: () => void): void {
  try {
    check();
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    throw new DomainError(error.code, `Edit ${at.index}, row "${at.rowId}": ${error.message}`, {
      ...error.details,
      index: at.index,
      rowId: at.rowId,
    });
  }
}
