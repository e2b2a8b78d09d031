import type { AcknowledgedChange } from "@svc/testing/audit";
import type { AcknowledgedEdit } from "./edit-load";

export { type AcknowledgedChange, auditVersions } from "@svc/testing/audit";

/** An edit load's acknowledged edits: each set its row's expected output to `{value}`. */
export const changesOfEdits = (edits: readonly AcknowledgedEdit[]): AcknowledgedChange[] =>
  edits.map(({ datasetId, rowId, versionId, version, value }) => ({
    datasetId,
    rowId,
    versionId,
    version,
    expectedOutput: { value },
  }));
