import { queryOptions } from "@tanstack/react-query";
import { api } from "../api";

/** One trace with every span: the trace page reads it once, the span's panel and dialogs share it. */
export const traceQuery = (projectSlug: string, traceId: string) =>
  queryOptions({
    queryKey: ["trace", projectSlug, traceId],
    queryFn: ({ signal }) => api.traces.get(projectSlug, traceId, { signal }),
  });
