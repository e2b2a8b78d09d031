import { DomainError } from "@svc/contracts";

export const versionNotFound = (version: number, currentVersion: number): DomainError =>
  new DomainError("not_found", `Version ${version} does not exist`, { version, currentVersion });

export const rowNotFound = (rowId: string, datasetSlug: string, version?: number): DomainError =>
  new DomainError(
    "not_found",
    version === undefined
      ? `Row "${rowId}" not found in dataset "${datasetSlug}"`
      : `Row "${rowId}" not found in dataset "${datasetSlug}" at version ${version}`,
  );
