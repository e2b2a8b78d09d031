import {
  datasetEventsHeadersSchema,
  datasetEventsQuerySchema,
  datasetVersionEventSchema,
  MAX_EVENT_ROW_IDS,
} from "../../schemas/dataset-events";
import { datasetPathSchema } from "../../schemas/datasets";
import { subjects } from "../../subjects";
import { defineOperation } from "../define";
import { DATASET } from "./paths";

/* A dataset's live changes: one Server-Sent Event per new version. */

export const watchDataset = defineOperation({
  operationId: "watchDataset",
  command: "watch",
  method: "GET",
  path: `${DATASET}/events`,
  tag: "datasets",
  summary: "Follow the dataset's new versions as they are made, as Server-Sent Events",
  description: `A stream of Server-Sent Events (\`text/event-stream\`) that stays open: one event per new dataset version, in version order, \`id: <version>\`, \`event: version\` and \`data:\` the version as JSON (its operation, actor, row counts and the ids of the rows it changed, at most ${MAX_EVENT_ROW_IDS}; \`rowIdsTruncated\` says when there were more, and the version's diff lists them all). A reconnect with \`Last-Event-ID: N\` (or \`?since=N\`) first sends every version after N, then the live ones: no version is missed or sent twice. Without either, the stream starts with the next version. A comment line (\`: keep-alive\`) every 15 seconds keeps proxies from closing a quiet stream. A client that does not read what it is sent is disconnected rather than buffered for; it reconnects with \`Last-Event-ID\`. A credential may hold a bounded number of streams open on each gateway (20 by default, \`SVC_GATEWAY_STREAMS_PER_KEY\`): one more is 429 rate_limited. A version after N that is beyond the dataset's current version is 400. The stream ends when the dataset is deleted and when the gateway shuts down; reconnect with \`Last-Event-ID\`.`,
  subject: subjects.datasetEvents.page,
  access: "viewer",
  params: datasetPathSchema,
  query: datasetEventsQuerySchema,
  headers: datasetEventsHeadersSchema,
  response: datasetVersionEventSchema,
  events: { name: "version" },
  successStatus: 200,
  errors: ["not_found"],
});
