import type { Cell, ListTraceSessionsQuery } from "@svc/sdk";
import { conversationOf, type Message } from "./gen-ai";

/*
 * The sessions' and users' lists: their order, kept in the address (`?sort=traces&direction=asc`),
 * and the new messages of each turn of a session's conversation.
 */

export type GroupSortField = NonNullable<ListTraceSessionsQuery["sortBy"]>;
export type SortDirection = NonNullable<ListTraceSessionsQuery["sortDirection"]>;

export interface GroupOrder {
  sortBy: GroupSortField;
  sortDirection: SortDirection;
}

/** The columns a list of sessions or users can be sorted by, with the words each column shows. */
export const groupSortFields = {
  traces: "Traces",
  errors: "Errors",
  tokensTotal: "Tokens",
  costMicrocents: "Cost",
  firstTime: "First trace",
  lastTime: "Last trace",
} as const satisfies Record<GroupSortField, string>;

const isField = (value: string | null): value is GroupSortField =>
  value !== null && Object.hasOwn(groupSortFields, value);

export const DEFAULT_ORDER: GroupOrder = { sortBy: "lastTime", sortDirection: "desc" };

/** An order and, when the person picked one, the range of start times whose traces count. */
export interface GroupQuery extends GroupOrder {
  /** ISO-8601 instants, or empty for no bound. */
  from: string;
  to: string;
}

const validInstant = (value: string | null): string => {
  if (!value) return "";
  const time = Date.parse(value);
  return Number.isNaN(time) ? "" : new Date(time).toISOString();
};

export function orderFrom(params: URLSearchParams): GroupQuery {
  const sort = params.get("sort");
  const direction = params.get("direction");
  return {
    sortBy: isField(sort) ? sort : DEFAULT_ORDER.sortBy,
    sortDirection: direction === "asc" ? "asc" : "desc",
    from: validInstant(params.get("from")),
    to: validInstant(params.get("to")),
  };
}

/** The address of a query: nothing for the defaults, so that links stay short. */
export function paramsOfOrder(query: GroupOrder & Partial<GroupQuery>): URLSearchParams {
  const params = new URLSearchParams();
  if (query.sortBy !== DEFAULT_ORDER.sortBy) params.set("sort", query.sortBy);
  if (query.sortDirection !== DEFAULT_ORDER.sortDirection) params.set("direction", query.sortDirection);
  if (query.from) params.set("from", query.from);
  if (query.to) params.set("to", query.to);
  return params;
}

/** What the API is asked: the order, and the range's bounds that are set. */
export const apiQueryOf = ({ from, to, ...order }: GroupQuery) => ({
  ...order,
  ...(from ? { from } : {}),
  ...(to ? { to } : {}),
});

/** A column's header pressed: the largest or latest first, or the other way round when it is the order already. */
export function toggledOrder<Q extends GroupOrder>(current: Q, field: GroupSortField): Q {
  if (current.sortBy !== field) return { ...current, sortBy: field, sortDirection: "desc" };
  return { ...current, sortBy: field, sortDirection: current.sortDirection === "desc" ? "asc" : "desc" };
}

/** How a column's header tells a screen reader the order. */
export const ariaSortOf = (order: GroupOrder, field: GroupSortField): "ascending" | "descending" | "none" =>
  order.sortBy !== field ? "none" : order.sortDirection === "asc" ? "ascending" : "descending";

/**
 * The messages a turn of a conversation adds: a model call's input usually repeats the whole
 * conversation so far, so only what follows the last assistant's message (and no system prompt) is new.
 */
export function newMessagesOf(input: Cell): Message[] {
  const messages = conversationOf(input, "user");
  let start = 0;
  messages.forEach((message, i) => {
    if (message.role === "assistant") start = i + 1;
  });
  return messages.slice(start).filter((message) => message.role !== "system");
}

/** The time from a session's first trace to one of its turns, as the timeline shows it: "+2 min 5 s". */
export function offsetLabel(fromIso: string, toIso: string): string {
  const seconds = Math.max(0, Math.round((Date.parse(toIso) - Date.parse(fromIso)) / 1000));
  if (seconds < 60) return `+${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `+${minutes} min${seconds % 60 ? ` ${seconds % 60} s` : ""}`;
  const hours = Math.floor(minutes / 60);
  return `+${hours} h${minutes % 60 ? ` ${minutes % 60} min` : ""}`;
}
