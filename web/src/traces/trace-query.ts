import type { ListTracesBody, TraceFilterInput } from "@svc/sdk";

/*
 * The traces list's filters and order, kept in the page's address (`?model=gpt-4o&errors=1&sort=cost`)
 * so that a filtered list can be shared, reloaded, and linked to from the dashboard.
 */

export interface TraceQuery {
  /** Free text searched for in the traces' input and output. */
  text: string;
  name: string;
  tag: string;
  model: string;
  session: string;
  user: string;
  errors: boolean;
  /** ISO-8601 instants: traces that started at or after `from` and before `to`. */
  from: string;
  to: string;
  sort: TraceSort;
}

/** The orders a person picks from, each one field and direction of the API's sort. */
export const traceSorts = {
  newest: { label: "Newest first", sortBy: "startTime", sortDirection: "desc" },
  oldest: { label: "Oldest first", sortBy: "startTime", sortDirection: "asc" },
  slowest: { label: "Longest first", sortBy: "durationNs", sortDirection: "desc" },
  tokens: { label: "Most tokens first", sortBy: "tokensTotal", sortDirection: "desc" },
  cost: { label: "Most expensive first", sortBy: "costTotalMicrocents", sortDirection: "desc" },
  errors: { label: "Most errors first", sortBy: "errorCount", sortDirection: "desc" },
} as const satisfies Record<
  string,
  {
    label: string;
    sortBy: NonNullable<ListTracesBody["sortBy"]>;
    sortDirection: NonNullable<ListTracesBody["sortDirection"]>;
  }
>;
export type TraceSort = keyof typeof traceSorts;
const isSort = (value: string | null): value is TraceSort => value !== null && value in traceSorts;

/** The text fields of the address: the search box's, then the filter bar's in the order it shows them. */
export const TEXT_FILTERS = ["name", "tag", "model", "session", "user"] as const;
const ADDRESS_TEXTS = ["text", ...TEXT_FILTERS] as const;

const validInstant = (value: string | null): string => {
  if (!value) return "";
  const time = Date.parse(value);
  return Number.isNaN(time) ? "" : new Date(time).toISOString();
};

export function queryFrom(params: URLSearchParams): TraceQuery {
  const sort = params.get("sort");
  return {
    text: params.get("text") ?? "",
    name: params.get("name") ?? "",
    tag: params.get("tag") ?? "",
    model: params.get("model") ?? "",
    session: params.get("session") ?? "",
    user: params.get("user") ?? "",
    errors: params.get("errors") === "1",
    from: validInstant(params.get("from")),
    to: validInstant(params.get("to")),
    sort: isSort(sort) ? sort : "newest",
  };
}

/** The address of a query: only what differs from the defaults, so that links stay short. */
export function paramsOf(query: Partial<TraceQuery>): URLSearchParams {
  const params = new URLSearchParams();
  for (const name of ADDRESS_TEXTS) {
    const value = query[name]?.trim();
    if (value) params.set(name, value);
  }
  if (query.errors) params.set("errors", "1");
  if (query.from) params.set("from", query.from);
  if (query.to) params.set("to", query.to);
  if (query.sort && query.sort !== "newest") params.set("sort", query.sort);
  return params;
}

/** The conditions the API takes for those filters: every one must hold. */
export function traceFilters(query: TraceQuery): TraceFilterInput[] {
  const filters: TraceFilterInput[] = [];
  const text = query.text.trim();
  const name = query.name.trim();
  const tag = query.tag.trim();
  const model = query.model.trim();
  const session = query.session.trim();
  const user = query.user.trim();
  if (text) filters.push({ field: "text", op: "contains", value: text });
  if (name) filters.push({ field: "rootSpanName", op: "contains", value: name });
  if (tag) filters.push({ field: "tags", op: "contains", value: tag });
  if (model) filters.push({ field: "models", op: "contains", value: model });
  if (session) filters.push({ field: "sessionId", op: "eq", value: session });
  if (user) filters.push({ field: "userId", op: "eq", value: user });
  if (query.errors) filters.push({ field: "errorCount", op: "gt", value: 0 });
  if (query.from) filters.push({ field: "startTime", op: "gte", value: query.from });
  if (query.to) filters.push({ field: "startTime", op: "lt", value: query.to });
  return filters;
}

/** An instant as a `datetime-local` input shows it: the person's own time zone, to the minute. */
export function localInputValue(iso: string): string {
  if (!iso) return "";
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A `datetime-local` input's value as an instant; empty when it holds none. */
export function instantOfLocal(value: string): string {
  if (!value) return "";
  const time = new Date(value).getTime();
  return Number.isNaN(time) ? "" : new Date(time).toISOString();
}

/** How many traces a list holds: "1 trace", "1,234 traces", or "1 trace matches these filters". */
export function traceCount(total: number, filtered = false): string {
  const count = `${total.toLocaleString()} ${total === 1 ? "trace" : "traces"}`;
  return filtered ? `${count} ${total === 1 ? "matches" : "match"} these filters` : count;
}
