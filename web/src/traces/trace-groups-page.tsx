import { useInfiniteQuery } from "@tanstack/react-query";
import type { FormEvent } from "react";
import { Link, useParams, useSearchParams } from "react-router";
import { api } from "../api";
import { ErrorMessage } from "../components/errors";
import { PageHeader } from "../components/layout";
import { LoadMore } from "../components/load-more";
import { formatCost } from "./gen-ai";
import { type GroupListQuery, traceGroupsQuery } from "./queries";
import {
  apiQueryOf,
  ariaSortOf,
  type GroupSortField,
  groupSortFields,
  orderFrom,
  paramsOfOrder,
  toggledOrder,
} from "./trace-groups";
import { instantOfLocal, localInputValue, paramsOf } from "./trace-query";
import { TracesTabs } from "./traces-tabs";

/** What a row of either list holds: a session's or a user's totals. */
interface GroupTotals {
  id: string;
  traces: number;
  errors: number;
  tokensTotal: number;
  costMicrocents: number;
  firstTime: string;
  lastTime: string;
}

interface GroupPage {
  items: GroupTotals[];
  nextCursor: string | null;
  hasMore: boolean;
}
/** The range the list counts, so that a user's traces open with the same totals. */
interface Range {
  from: string;
  to: string;
}

interface Kind {
  title: string;
  one: string;
  empty: string;
  more: string;
  list(projectSlug: string, query: GroupListQuery, signal: AbortSignal): Promise<GroupPage>;
  address(projectSlug: string, id: string, range: Range): string;
}

const kinds: Record<"sessions" | "users", Kind> = {
  sessions: {
    title: "Sessions",
    one: "Session",
    empty: "No sessions yet: traces join one by the session.id attribute of their root span.",
    more: "More sessions",
    list: (projectSlug, query, signal) =>
      api.traces
        .sessions(projectSlug, query, { signal })
        .then((page) => ({ ...page, items: page.items.map((item) => ({ ...item, id: item.sessionId })) })),
    // A session opens as its conversation, turn by turn.
    address: (projectSlug, id) => `/projects/${projectSlug}/traces/sessions/${encodeURIComponent(id)}`,
  },
  users: {
    title: "Users",
    one: "User",
    empty: "No users yet: traces belong to one by the user.id attribute of their root span.",
    more: "More users",
    list: (projectSlug, query, signal) =>
      api.traces
        .users(projectSlug, query, { signal })
        .then((page) => ({ ...page, items: page.items.map((item) => ({ ...item, id: item.userId })) })),
    // A user opens as the traces list, filtered to theirs (of the range the totals count).
    address: (projectSlug, id, range) =>
      `/projects/${projectSlug}/traces?${paramsOf({ user: id, from: range.from, to: range.to }).toString()}`,
  },
};

const time = (iso: string) => <time dateTime={iso}>{new Date(iso).toLocaleString()}</time>;

/**
 * The project's traces gathered by session or by user, each with its totals: how many traces, how many
 * failed, their tokens and cost, and when the first and the last started. A column's header sorts by it;
 * a range of start times keeps only the traces that started in it, and the totals count only those.
 */
export function TraceGroupsPage({ kind }: { kind: keyof typeof kinds }) {
  const { projectSlug = "" } = useParams();
  const [params, setParams] = useSearchParams();
  const order = orderFrom(params);
  const of = kinds[kind];
  const groups = useInfiniteQuery(traceGroupsQuery(kind, projectSlug, order, apiQueryOf(order), of.list));
  const items: GroupTotals[] = groups.data?.pages.flatMap((page) => page.items) ?? [];
  const sortBy = (field: GroupSortField) =>
    setParams(paramsOfOrder(toggledOrder(order, field)), { replace: true });
  const pickRange = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const instant = (name: string) => instantOfLocal(String(form.get(name) ?? ""));
    setParams(paramsOfOrder({ ...order, from: instant("from"), to: instant("to") }), { replace: true });
  };
  const header = (field: GroupSortField) => (
    <th key={field} scope="col" className="numeric" aria-sort={ariaSortOf(order, field)}>
      <button type="button" className="sort-button" onClick={() => sortBy(field)}>
        {groupSortFields[field]}
        <span aria-hidden="true" className="sort-mark">
          {order.sortBy === field ? (order.sortDirection === "desc" ? " ↓" : " ↑") : ""}
        </span>
      </button>
    </th>
  );

  return (
    <>
      <PageHeader
        title={of.title}
        crumbs={[
          { label: "Projects", to: "/projects" },
          { label: projectSlug, to: `/projects/${projectSlug}` },
        ]}
      />
      <TracesTabs projectSlug={projectSlug} />
      <form className="toolbar trace-filters" onSubmit={pickRange} key={params.toString()}>
        <label className="inline-field">
          From
          <input type="datetime-local" name="from" defaultValue={localInputValue(order.from)} />
        </label>
        <label className="inline-field">
          To
          <input type="datetime-local" name="to" defaultValue={localInputValue(order.to)} />
        </label>
        <button type="submit" className="button">
          Show
        </button>
        <span className="muted">
          {order.from || order.to
            ? "Totals of the traces that started in this range"
            : "Totals of every trace"}
        </span>
      </form>
      {groups.error ? <ErrorMessage error={groups.error} /> : null}
      {groups.isPending ? (
        <p className="page-status" role="status">
          Loading {of.title.toLowerCase()}…
        </p>
      ) : items.length === 0 ? (
        <div className="empty">
          <p>{order.from || order.to ? `No ${kind} in this range.` : of.empty}</p>
        </div>
      ) : (
        <table className="table trace-groups-table">
          <caption className="visually-hidden">
            {of.title}, by {groupSortFields[order.sortBy].toLowerCase()},{" "}
            {order.sortDirection === "desc" ? "descending" : "ascending"}
          </caption>
          <thead>
            <tr>
              <th scope="col">{of.one}</th>
              {(["traces", "errors", "tokensTotal", "costMicrocents"] as const).map(header)}
              {(["firstTime", "lastTime"] as const).map(header)}
            </tr>
          </thead>
          <tbody>
            {items.map((group) => (
              <tr key={group.id}>
                <th scope="row">
                  <Link className="group-id" to={of.address(projectSlug, group.id, order)}>
                    {group.id}
                  </Link>
                </th>
                <td className="numeric">{group.traces.toLocaleString()}</td>
                <td className="numeric">{group.errors.toLocaleString()}</td>
                <td className="numeric">{group.tokensTotal.toLocaleString()}</td>
                <td className="numeric">{formatCost(group.costMicrocents)}</td>
                <td className="numeric">{time(group.firstTime)}</td>
                <td className="numeric">{time(group.lastTime)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <LoadMore pages={groups} label={of.more} />
    </>
  );
}
