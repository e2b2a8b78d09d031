import type { TraceFilterInput } from "@svc/sdk";
import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { api } from "../api";
import type { Range } from "./dashboard-range";
import type { GroupOrder } from "./trace-groups";
import { type TraceSort, traceSorts } from "./trace-query";

/** Traces per page of the traces' list. */
const TRACES_PAGE = 100;
/** Turns, sessions or users per page of their lists. */
const GROUPS_PAGE = 50;

/** One trace with every span: the trace page reads it once, the span's panel and dialogs share it. */
export const traceQuery = (projectSlug: string, traceId: string) =>
  queryOptions({
    queryKey: ["trace", projectSlug, traceId],
    queryFn: ({ signal }) => api.traces.get(projectSlug, traceId, { signal }),
  });

/** The project's traces under the filters, in the chosen order, page by page. */
export const tracesQuery = (projectSlug: string, filters: TraceFilterInput[], sort: TraceSort) =>
  infiniteQueryOptions({
    queryKey: ["traces", projectSlug, filters, sort],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api.traces.list(
        projectSlug,
        {
          limit: TRACES_PAGE,
          sortBy: traceSorts[sort].sortBy,
          sortDirection: traceSorts[sort].sortDirection,
          filters,
          ...(pageParam ? { cursor: pageParam } : {}),
        },
        { signal },
      ),
    getNextPageParam: (page) => (page.hasMore && page.nextCursor ? page.nextCursor : undefined),
  });

/** A session's traces, its turns, in the order they started. */
export const sessionTracesQuery = (projectSlug: string, sessionId: string) =>
  infiniteQueryOptions({
    queryKey: ["session-traces", projectSlug, sessionId],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api.traces.list(
        projectSlug,
        {
          limit: GROUPS_PAGE,
          sortBy: "startTime",
          sortDirection: "asc",
          filters: [{ field: "sessionId", op: "eq", value: sessionId }],
          ...(pageParam ? { cursor: pageParam } : {}),
        },
        { signal },
      ),
    getNextPageParam: (page) => (page.hasMore && page.nextCursor ? page.nextCursor : undefined),
  });

/** The query a list of sessions or users is read with. */
export type GroupListQuery = NonNullable<Parameters<typeof api.traces.sessions>[1]>;

/** A page of sessions or users, each by its id, read by `list`. */
export const traceGroupsQuery = <Page extends { nextCursor: string | null; hasMore: boolean }>(
  kind: "sessions" | "users",
  projectSlug: string,
  order: GroupOrder,
  query: GroupListQuery,
  list: (projectSlug: string, query: GroupListQuery, signal: AbortSignal) => Promise<Page>,
) =>
  infiniteQueryOptions({
    queryKey: ["trace-groups", kind, projectSlug, order],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      list(
        projectSlug,
        { limit: GROUPS_PAGE, ...query, ...(pageParam ? { cursor: pageParam } : {}) },
        signal,
      ),
    getNextPageParam: (page) => (page.hasMore && page.nextCursor ? page.nextCursor : undefined),
  });

/** The project's metrics over the range: in all, or by model. */
export const traceMetricsQuery = (projectSlug: string, range: Range, by: "all" | "model") =>
  queryOptions({
    queryKey: ["trace-metrics", projectSlug, range, by],
    queryFn: ({ signal }) =>
      api.traces.metrics(projectSlug, by === "model" ? { ...range, groupBy: "model" } : range, { signal }),
  });
