import type { GetDatasetImportResponse } from "@svc/sdk";
import type { FileFormat, FilePreview } from "./file-preview";

/* The import dialog's steps and what they hold, shared by its parts. */

export type Import = GetDatasetImportResponse;

export type Mode = "insert" | "update";

export type Step =
  | { kind: "choose"; problem?: string }
  | { kind: "map"; file: File; format: FileFormat; preview?: FilePreview; previewProblem?: string }
  | { kind: "upload"; file: File; sent: number }
  | { kind: "import"; file: File; job: Import; unanswered: number }
  | { kind: "done"; file: File; job: Import }
  | { kind: "error"; file: File; error: unknown; retry(): void };
