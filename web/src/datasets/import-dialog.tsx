import type { DatasetColumn } from "@svc/sdk";
import { type DragEvent, useEffect, useId, useRef, useState } from "react";
import { api, upload } from "../api";
import { Dialog } from "../components/dialog";
import { FieldProblem } from "../components/errors";
import { plural } from "../words";
import {
  defaultTargets,
  type FieldTarget,
  type FileFormat,
  type FilePreview,
  formatOf,
  importQuery,
  MEDIA_TYPES,
  previewFile,
  UnreadableFile,
} from "./file-preview";
import { followImport, ImportKeys } from "./follow-import";
import { MapStep } from "./import-map-step";
import { Failure, formatBytes, Outcome, Progress } from "./import-status";
import type { Import, Mode, Step } from "./import-steps";

const POLL_MS = 400;
/** The longest wait between progress checks that got no answer. */
const MAX_BACKOFF_MS = 10_000;
/**
 * Retries of one progress check, each after the `Retry-After` the platform asked for (the client
 * honours it); when they run out the dialog waits longer and checks again.
 */
const CHECK_RETRIES = 3;

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
  /** The CSV fields to import as the text written, not re-typed (42 staying "42"). */
  const [textFields, setTextFields] = useState<ReadonlySet<string>>(new Set());
  const [mode, setMode] = useState<Mode>("insert");
  const controller = useRef<AbortController | undefined>(undefined);
  // Kept while the dialog is closed: trying the same file again after an unclear end is the same import.
  const keys = useRef(new ImportKeys());

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
      setTextFields(new Set());
      setStep({ kind: "map", file, format, preview });
    } catch (error) {
      const message = (error as Error).message;
      setStep({
        kind: "map",
        file,
        format,
        previewProblem:
          error instanceof UnreadableFile ? message : `The first rows could not be read: ${message}`,
      });
    }
  };

  const start = async (file: File, format: FileFormat, preview: FilePreview | undefined) => {
    controller.current = new AbortController();
    const signal = controller.current.signal;
    const query: Record<string, string> = { mode };
    // Without a preview (a large JSON array), fields go by name, as the platform maps them unasked.
    if (preview && preview.fields.length > 0) {
      const {
        map,
        idField,
        textFields: asText,
      } = importQuery(targets, format === "csv" ? textFields : new Set());
      query.map = JSON.stringify(map);
      if (idField !== undefined) query.idField = idField;
      if (asText !== undefined) query.textFields = JSON.stringify(asText);
    }
    const idempotencyKey = keys.current.keyFor(file, query);
    setStep({ kind: "upload", file, sent: 0 });
    try {
      const started = await upload<Import>(
        `/v1/projects/${encodeURIComponent(projectSlug)}/datasets/${encodeURIComponent(datasetSlug)}/imports`,
        file,
        {
          mediaType: MEDIA_TYPES[format],
          query,
          idempotencyKey,
          signal,
          onProgress: (sent) => setStep({ kind: "upload", file, sent }),
        },
      );
      let latest = started;
      let unanswered = 0;
      const show = () => setStep({ kind: "import", file, job: latest, unanswered });
      show();
      const job = await followImport(
        (signal) =>
          api.datasets.getImport(projectSlug, datasetSlug, started.importId, {
            signal,
            maxRetries: CHECK_RETRIES,
          }),
        {
          intervalMs: POLL_MS,
          maxBackoffMs: MAX_BACKOFF_MS,
          signal,
          onProgress: (progress) => {
            latest = progress;
            show();
          },
          onUnanswered: (count) => {
            unanswered = count;
            show();
          },
        },
      );
      keys.current.settled();
      setStep({ kind: "done", file, job });
      onImported(job);
    } catch (error) {
      if (!signal.aborted) {
        setStep({ kind: "error", file, error, retry: () => void start(file, format, preview) });
      }
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
          textFields={textFields}
          setTextFields={setTextFields}
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
        <>
          <Progress
            label="Importing"
            value={step.job.bytesRead}
            max={step.file.size}
            detail={`${plural(step.job.rowsRead, "row")} read`}
          />
          {step.unanswered > 0 ? (
            <p className="muted" role="status">
              The platform is busy and did not say how the import is going; it goes on, and this checks again
              shortly.
            </p>
          ) : null}
        </>
      ) : null}
      {step.kind === "done" ? <Outcome job={step.job} /> : null}
      {step.kind === "error" ? <Failure error={step.error} /> : null}
      {step.kind === "map" ? null : (
        <div className="dialog-actions">
          {step.kind === "error" ? (
            <button type="button" className="button button-primary" onClick={step.retry}>
              Try again
            </button>
          ) : null}
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
      <FieldProblem problem={problem} />
    </>
  );
}
