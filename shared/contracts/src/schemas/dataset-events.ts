import { z } from "zod";
import { rowIdSchema, slugSchema } from "../ids";
import { versionNumberSchema } from "./common";
import { datasetVersionSchema } from "./datasets";

/** The most row ids one event names; a version that changed more says `rowIdsTruncated`. */
export const MAX_EVENT_ROW_IDS = 100;
/** The most versions the reader answers in one page of events. */
export const MAX_EVENTS_PAGE = 100;

/** One new dataset version as a live-changes stream sends it (`event: version`, `id: <version>`). */
export const datasetVersionEventSchema = datasetVersionSchema
  .pick({
    version: true,
    versionId: true,
    createdAt: true,
    operation: true,
    actor: true,
    rowsInserted: true,
    rowsUpdated: true,
    rowsDeleted: true,
  })
  .extend({
    rowIds: z
      .array(rowIdSchema)
      .describe(
        `The rows the version changed (inserted, edited or deleted), by row id, at most ${MAX_EVENT_ROW_IDS}`,
      ),
    rowIdsTruncated: z
      .boolean()
      .describe(
        `True when the version changed more than ${MAX_EVENT_ROW_IDS} rows and \`rowIds\` names only some of them: read the version's diff for all`,
      ),
  })
  .describe("A new dataset version, as the dataset's live changes announce it");
export type DatasetVersionEvent = z.infer<typeof datasetVersionEventSchema>;

/** The query of the live-changes route. */
export const datasetEventsQuerySchema = z.strictObject({
  since: versionNumberSchema
    .optional()
    .describe(
      "Start after this version, as `Last-Event-ID` does (the header wins when both are sent): every later version is sent first, then the live ones. Without either, the stream starts with the next new version",
    ),
});

/** The headers of the live-changes route that are input. */
export const datasetEventsHeadersSchema = z.object({
  lastEventId: versionNumberSchema
    .optional()
    .describe("The `id` of the last event received: the stream resumes after that version"),
});

/**
 * Internal: what the gateway asks the reader for, a page of a dataset's versions after `after`, as
 * events. The dataset is named by its slugs and, once known, its id: a dataset deleted and made
 * again under the same slugs is another dataset, which answers not_found.
 */
export const datasetEventsRequestSchema = z.strictObject({
  params: z.strictObject({ projectSlug: slugSchema, datasetSlug: slugSchema }),
  datasetId: z.string().min(1).optional(),
  /** Absent: no events, only the dataset and its current version (where a new stream starts). */
  after: z.number().int().min(0).optional(),
  limit: z.number().int().min(1).max(MAX_EVENTS_PAGE).default(MAX_EVENTS_PAGE),
});
export type DatasetEventsRequest = z.input<typeof datasetEventsRequestSchema>;

export const datasetEventsPageSchema = z.object({
  datasetId: z.string(),
  /** The dataset's current version when the page was read. */
  version: z.number().int(),
  /** Versions after `after`, oldest first, at most `limit`. */
  events: z.array(datasetVersionEventSchema),
});
export type DatasetEventsPage = z.infer<typeof datasetEventsPageSchema>;

/**
 * What the writer publishes after a commit: this dataset is now at `version` at least. A hint, never
 * the record: the gateway reads the versions themselves from the reader.
 */
export const datasetVersionWrittenSchema = z.object({
  organizationId: z.string().min(1),
  projectSlug: slugSchema,
  datasetSlug: slugSchema,
  version: z.number().int().min(1),
});
export type DatasetVersionWritten = z.infer<typeof datasetVersionWrittenSchema>;

/** The subject a dataset's new versions are announced on (slugs are valid subject tokens). */
export function datasetEventsSubject(ref: {
  organizationId: string;
  projectSlug: string;
  datasetSlug: string;
}): string {
  return `svc.v1.events.datasets.${ref.organizationId}.${ref.projectSlug}.${ref.datasetSlug}`;
}
