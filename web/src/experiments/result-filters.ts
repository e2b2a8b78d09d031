import type { ListExperimentResultsQuery } from "@svc/sdk";

/** The results' filters, kept in the page's address so that a filtered view can be shared. */
export interface ResultFilters {
  errored: boolean;
  /** With `below`: results whose score of this name is lower. */
  score: string | undefined;
  below: number | undefined;
}

/** The filters an address holds; a score without a number to be below (or the reverse) is no filter. */
export function filtersFrom(params: URLSearchParams): ResultFilters {
  const score = params.get("score")?.trim() || undefined;
  const text = params.get("below");
  const below =
    text !== null && text.trim() !== "" && Number.isFinite(Number(text)) ? Number(text) : undefined;
  const both = score !== undefined && below !== undefined;
  return {
    errored: params.get("errored") === "true",
    score: both ? score : undefined,
    below: both ? below : undefined,
  };
}

/** The address's query for the filters, other parameters kept. */
export function withFilters(params: URLSearchParams, filters: ResultFilters): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const name of ["errored", "score", "below"]) next.delete(name);
  if (filters.errored) next.set("errored", "true");
  if (filters.score !== undefined && filters.below !== undefined) {
    next.set("score", filters.score);
    next.set("below", String(filters.below));
  }
  return next;
}

/** What the API takes for the filters. */
export function resultsQuery(filters: ResultFilters): Omit<ListExperimentResultsQuery, "cursor" | "limit"> {
  return {
    ...(filters.errored ? { errored: true } : {}),
    ...(filters.score !== undefined && filters.below !== undefined
      ? { score: filters.score, below: filters.below }
      : {}),
  };
}

export const isFiltered = (filters: ResultFilters): boolean => filters.errored || filters.score !== undefined;

/** The filters in words, for the copy dialog and the list's status: "with an error, exact below 1". */
export function describeFilters(filters: ResultFilters): string {
  const parts: string[] = [];
  if (filters.errored) parts.push("with an error");
  if (filters.score !== undefined) parts.push(`${filters.score} below ${filters.below}`);
  return parts.join(", ");
}
