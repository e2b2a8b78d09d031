import { SvcError } from "../api";
import { ErrorMessage } from "../components/errors";
import { plural } from "../words";
import type { Import } from "./import-steps";

/* How an import is going and how it ended: its progress, the version it made, or what stopped it. */

export function Progress({
  label,
  value,
  max,
  detail,
}: {
  label: string;
  value: number;
  max: number;
  detail: string;
}) {
  const percent = max > 0 ? Math.min(100, Math.round((value / max) * 100)) : 0;
  return (
    <div className="import-progress">
      <label>
        {label}… {percent}% <span className="muted">({detail})</span>
        <progress max={100} value={percent} aria-label={`${label} progress`} />
      </label>
    </div>
  );
}

/**
 * Why the import did not happen: a bad line (named whether the import ran and failed on it or was
 * refused at once) or another refusal (a wrong mapping, a file too large), as the platform said.
 */
export function Failure({ error }: { error: unknown }) {
  // A bad line is named whether the import ran and failed on it or was refused at once because of it.
  const line = error instanceof SvcError ? error.details?.line : undefined;
  if (
    !(error instanceof SvcError && (typeof error.details?.importId === "string" || typeof line === "number"))
  ) {
    return <ErrorMessage error={error} />;
  }
  return (
    <div className="error-message" role="alert">
      <strong>{typeof line === "number" ? `Line ${line} stopped the import.` : "The import failed."}</strong>
      <span>{error.message}</span>
      <span className="muted">Nothing was written; fix the file and import it again.</span>
    </div>
  );
}

/** What a finished import made, in a sentence; undefined when it made no version. */
export function madeVersion(job: Import): string | undefined {
  if (job.versionId === null || job.versionId === undefined || job.version === undefined) return undefined;
  return job.mode === "insert"
    ? `Imported ${plural(job.rowsInserted ?? 0, "row")} as version ${job.version}`
    : `Updated ${plural(job.rowsUpdated ?? 0, "row")} as version ${job.version}`;
}

/** What a finished import made. */
export function Outcome({ job }: { job: Import }) {
  return (
    <p className="import-outcome" role="status">
      {`${
        madeVersion(job) ??
        (job.rowsRead === 0
          ? "Nothing changed: the file has no rows"
          : `Nothing changed: every row of the file already holds these values (${plural(job.rowsRead, "row")} read)`)
      }.`}
    </p>
  );
}

export const clip = (text: string) => (text.length > 120 ? `${text.slice(0, 120)}…` : text);

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}
