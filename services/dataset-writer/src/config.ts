import { serviceConfigSchema } from "@svc/service/service-config";
import { loadEnv } from "@svc/telemetry";
import { z } from "zod";
import { defaultGroupCommitOptions, type GroupCommitOptions } from "./group-commit/group-commit";

export const configSchema = serviceConfigSchema.extend({
  SVC_WRITER_MAX_TRANSACTIONS: z.coerce
    .number()
    .int()
    .min(1)
    .max(64)
    .default(defaultGroupCommitOptions.maxConcurrent)
    .describe("Row-edit transactions one writer runs at once, when the running ones stall"),
  SVC_WRITER_STALL_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(60_000)
    .default(defaultGroupCommitOptions.stallMs)
    .describe("How long a row-edit transaction runs before another may start beside it"),
  SVC_WRITER_MAX_QUEUE_MS: z.coerce
    .number()
    .int()
    .min(10)
    .max(60_000)
    .default(defaultGroupCommitOptions.maxQueueMs)
    .describe("How long row edits may wait for a transaction before new ones get 503 with Retry-After"),
  SVC_IMPORT_ABANDONED_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .max(3_600_000)
    .default(60_000)
    .describe("An import nothing has been heard of for this long lost its writer: it is failed and cleared"),
});

export type WriterConfig = z.output<typeof configSchema>;

export const groupCommitOptionsOf = (config: WriterConfig): Partial<GroupCommitOptions> => ({
  maxConcurrent: config.SVC_WRITER_MAX_TRANSACTIONS,
  stallMs: config.SVC_WRITER_STALL_MS,
  maxQueueMs: config.SVC_WRITER_MAX_QUEUE_MS,
});

export const loadConfig = () => loadEnv(configSchema);
