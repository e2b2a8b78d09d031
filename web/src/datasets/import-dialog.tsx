import type { DatasetColumn, GetDatasetImportResponse } from "@svc/sdk";
import { type DragEvent, useEffect, useId, useRef, useState } from "react";
import { api, SvcError, upload } from "../api";
import { Dialog } from "../components/dialog";
import { ErrorMessage } from "../components/errors";
import {
  defaultTargets,
  type FieldTarget,
  type FileFormat,
  type FilePreview,
  formatOf,
  importQuery,
  MEDIA_TYPES,
  previewFile,
} from "./file-preview";

type Import = GetDatasetImportResponse;
type Mode = "insert" | "update";

type Step =
  | { kind: "choose"; problem?: string }
  | { kind: "map"; file: File; format: FileFormat; preview?: FilePreview; previewProblem?: string }
  | { kind: "upload"; file: File; sent: number }
  | { kind: "import"; file: File; job: Import }
  | { kind: "done"; file: File; job: Import }
  | { kind: "error"; file: File; error: unknown };

const POLL_MS = 400;

/**
 * A file into the dataset: dropped or picked, previewed (its first rows), mapped field by field to
 * cells, then streamed to the platform, which imports it as one version; the progress bar follows the
 * import, and the end says the version it made or the line that stopped it.
 */
export function ImportDialog({
  open,
  projectSlug,
  datasetSlug,
  columns,
  onClose,
  onImported,
}: {
  open: boolean;
  projectSlug: string;
  datasetSlug: string;
  columns: readonly DatasetColumn[];
  onClose(): void;
  onImported(job: Import): void;
}) {
  const [step, setStep] = useState<Step>({ kind: "choose" });
  const [targets, setTargets] = useState<Record<string, FieldTarget>>({});
  const [mode, setMode] = useState<Mode>("insert");
  const controller = useRef<AbortController | undefined>(undefined);

  useEffect(() => {
    if (!open) {
      controller.current?.abort();
      setStep({ kind: "choose" });
      setMode("insert");
    }
  }, [open]);

  const choose = async (file: File) => {
    const format = formatOf(file);
    if (!format) {
      setStep({
        kind: "choose",
        problem: `${file.name} is not a file the import reads: choose a .csv, .jsonl, .json or .parquet file`,
      });
      return;
    }
    setStep({ kind: "map", file, format });
    try {
      const preview = await previewFile(file, format);
      setTargets(defaultTargets(preview.fields, columns, format));
      setStep({ kind: "map", file, format, preview });
    } catch (error) {
      setStep({ kind: "map", file, format, previewProblem: (error as Error).message });
    }
  };

  const start = async (file: File, format: FileFormat, preview: FilePreview | undefined) => {
    controller.current = new AbortController();
    const signal = controller.current.signal;
    const query: Record<string, string> = { mode };
    // Without a preview (a large JSON array), fields go by name, as the platform maps them unasked.
    if (preview && preview.fields.length > 0) {
      const { map, idField } = importQuery(targets);
      query.map = JSON.stringify(map);
      if (idField !== undefined) query.idField = idField;
    }
    setStep({ kind: "upload", file, sent: 0 });
    try {
      const started = await upload<Import>(
        `/v1/projects/${encodeURIComponent(projectSlug)}/datasets/${encodeURIComponent(datasetSlug)}/imports`,
        file,
        {
          mediaType: MEDIA_TYPES[format],
          query,
          signal,
          onProgress: (sent) => setStep({ kind: "upload", file, sent }),
        },
      );
      setStep({ kind: "import", file, job: started });
      const job = await api.datasets.waitForImport(projectSlug, datasetSlug, started.importId, {
        pollIntervalMs: POLL_MS,
        signal,
        onProgress: (progress) => setStep({ kind: "import", file, job: progress }),
      });
      setStep({ kind: "done", file, job });
      onImported(job);
    } catch (error) {
      if (!signal.aborted) setStep({ kind: "error", file, error });
    }
  };

  const busy = step.kind === "upload" || step.kind === "import";
  return (
    <Dialog title="Import a file" open={open} onClose={onClose} wide>
      {step.kind === "choose" ? (
        <DropZone problem={step.problem} onFile={(file) => void choose(file)} />
      ) : (
        <p className="import-file">
          <strong>{step.file.name}</strong> <span className="muted">{formatBytes(step.file.size)}</span>
        </p>
      )}
      {step.kind === "map" ? (
        <MapStep
          step={step}
          columns={columns}
          targets={targets}
          setTargets={setTargets}
          mode={mode}
          setMode={setMode}
          onBack={() => setStep({ kind: "choose" })}
          onImport={() => void start(step.file, step.format, step.preview)}
        />
      ) : null}
      {step.kind === "upload" ? (
        <Progress label="Uploading" value={step.sent} max={step.file.size} detail={formatBytes(step.sent)} />
      ) : null}
      {step.kind === "import" ? (
        <Progress
          label="Importing"
          value={step.job.bytesRead}
          max={step.file.size}
          detail={`${step.job.rowsRead.toLocaleString()} rows read`}
        />
      ) : null}
      {step.kind === "done" ? <Outcome job={step.job} /> : null}
      {step.kind === "error" ? <Failure error={step.error} /> : null}
      {step.kind === "map" ? null : (
        <div className="dialog-actions">
          {step.kind === "done" || step.kind === "error" ? (
            <button type="button" className="button" onClick={() => setStep({ kind: "choose" })}>
              Import another file
            </button>
          ) : null}
          <button type="button" className="button" onClick={onClose}>
            {busy ? "Stop waiting" : "Close"}
          </button>
        </div>
      )}
    </Dialog>
  );
}

function DropZone({ problem, onFile }: { problem: string | undefined; onFile(file: File): void }) {
  const [over, setOver] = useState(false);
  const inputId = useId();
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    const file = event.dataTransfer.files[0];
    if (file) onFile(file);
  };
  return (
    <>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: dropping is for the pointer; the file picker inside serves the keyboard */}
      <div
        className={over ? "drop-zone drop-zone-over" : "drop-zone"}
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={drop}
      >
        <p>Drop a CSV, JSONL, JSON or Parquet file here, or</p>
        <label htmlFor={inputId} className="button button-primary">
          Choose a file
        </label>
        <input
          id={inputId}
          type="file"
          className="visually-hidden"
          accept=".csv,.jsonl,.ndjson,.json,.parquet,text/csv,application/x-ndjson,application/json"
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) onFile(file);
            event.target.value = "";
          }}
        />
        <p className="muted">
          A CSV needs a header row. The whole file becomes one version, or nothing if a line is bad.
        </p>
      </div>
      {problem ? (
        <p className="field-problem" role="alert">
          {problem}
        </p>
      ) : null}
    </>
  );
}

function MapStep({
  step,
  columns,
  targets,
  setTargets,
  mode,
  setMode,
  onBack,
  onImport,
}: {
  step: Extract<Step, { kind: "map" }>;
  columns: readonly DatasetColumn[];
  targets: Record<string, FieldTarget>;
  setTargets(targets: Record<string, FieldTarget>): void;
  mode: Mode;
  setMode(mode: Mode): void;
  onBack(): void;
  onImport(): void;
}) {
  const preview = step.preview;
  const active = columns.filter((column) => !column.removed);
  const fields = preview?.fields ?? [];
  const idField = Object.entries(targets).find(([, target]) => target.kind === "id")?.[0];
  const mapped = fields.some((field) => targets[field]?.kind === "column" || targets[field]?.kind === "new");
  const problem =
    mode === "update" && fields.length > 0 && idField === undefined
      ? "Updating rows needs the field that holds each row's id: choose one as Row id."
      : fields.length > 0 && !mapped
        ? "Every field is set to “Don’t import”: choose where at least one goes."
        : undefined;
  const setTarget = (field: string, value: string) => {
    const next: Record<string, FieldTarget> = { ...targets };
    if (value === "id") {
      // One field holds the row id: choosing another frees the first.
      for (const [other, target] of Object.entries(next))
        if (target.kind === "id") next[other] = { kind: "skip" };
      next[field] = { kind: "id" };
    } else if (value === "new" || value === "skip") next[field] = { kind: value };
    else next[field] = { kind: "column", identifier: value.slice("column:".length) };
    setTargets(next);
  };
  return (
    <>
      {step.previewProblem ? (
        <p className="field-problem" role="alert">
          The first rows could not be read: {step.previewProblem}
        </p>
      ) : !preview ? (
        <p className="muted" role="status">
          Reading the first rows…
        </p>
      ) : fields.length === 0 ? (
        <p className="muted">
          This file is too large to preview in the browser; its fields go to the columns of the same name, and
          the others become new columns.
        </p>
      ) : (
        <>
          <div className="preview-scroller">
            <table className="table preview-table">
              <caption>First rows of the file</caption>
              <thead>
                <tr>
                  {fields.map((field) => (
                    <th key={field} scope="col">
                      {field}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {preview.rows.map((row, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: preview rows have no identity but their place
                  <tr key={index}>
                    {fields.map((field) => (
                      <td key={field}>{clip(row[field] ?? "")}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <fieldset className="mapping">
            <legend>Where each field goes</legend>
            {fields.map((field) => {
              const target = targets[field] ?? { kind: "skip" };
              const value = target.kind === "column" ? `column:${target.identifier}` : target.kind;
              const id = `map-${field}`;
              return (
                <div key={field} className="mapping-row">
                  <label htmlFor={id}>
                    <code>{field}</code>
                  </label>
                  <select id={id} value={value} onChange={(event) => setTarget(field, event.target.value)}>
                    <option value="id">Row id</option>
                    {active.map((column) => (
                      <option key={column.identifier} value={`column:${column.identifier}`}>
                        {column.name}
                      </option>
                    ))}
                    <option value="new">New column “{field}”</option>
                    <option value="skip">Don’t import</option>
                  </select>
                </div>
              );
            })}
          </fieldset>
        </>
      )}
      <fieldset className="import-mode">
        <legend>The file’s rows</legend>
        <label className="checkbox">
          <input type="radio" name="mode" checked={mode === "insert"} onChange={() => setMode("insert")} />{" "}
          Add as new rows
        </label>
        <label className="checkbox">
          <input type="radio" name="mode" checked={mode === "update"} onChange={() => setMode("update")} />{" "}
          Update the rows their ids name (only cells that differ change)
        </label>
      </fieldset>
      {problem ? (
        <p className="field-problem" role="alert">
          {problem}
        </p>
      ) : null}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onBack}>
          Choose another file
        </button>
        <button
          type="button"
          className="button button-primary"
          disabled={
            problem !== undefined || step.previewProblem !== undefined || (!preview && !step.previewProblem)
          }
          onClick={onImport}
        >
          {mode === "insert" ? "Import rows" : "Update rows"}
        </button>
      </div>
    </>
  );
}

function Progress({
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
 * Why the import did not happen: a bad line (the import ran and failed, naming it) or a refusal at
 * once (a wrong mapping, a file too large), as the platform said.
 */
function Failure({ error }: { error: unknown }) {
  if (!(error instanceof SvcError && typeof error.details?.importId === "string")) {
    return <ErrorMessage error={error} />;
  }
  const line = error.details.line;
  return (
    <div className="error-message" role="alert">
      <strong>{typeof line === "number" ? `Line ${line} stopped the import.` : "The import failed."}</strong>
      <span>{error.message}</span>
      <span className="muted">Nothing was written; fix the file and import it again.</span>
    </div>
  );
}

/** What a finished import made. */
function Outcome({ job }: { job: Import }) {
  const version = job.version ?? null;
  return (
    <p className="import-outcome" role="status">
      {job.versionId === null || version === null
        ? `Nothing changed: every row of the file already holds these values (${job.rowsRead.toLocaleString()} rows read).`
        : job.mode === "insert"
          ? `Imported ${(job.rowsInserted ?? 0).toLocaleString()} rows as version ${version}.`
          : `Updated ${(job.rowsUpdated ?? 0).toLocaleString()} rows as version ${version}.`}
    </p>
  );
}

const clip = (text: string) => (text.length > 120 ? `${text.slice(0, 120)}…` : text);

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}
