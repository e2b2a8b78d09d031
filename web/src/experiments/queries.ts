import type { CompareExperimentsResponse } from "@svc/sdk";
import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { api } from "../api";
import { type ResultFilters, resultsQuery } from "./result-filters";

/** How a row fared from experiment A to B: regressed, improved, same, added (only in B), removed. */
export type CompareChange = CompareExperimentsResponse["items"][number]["change"];

/** Results per page: the most the API gives at once. */
export const RESULTS_PAGE = 100;

/** Every cached read of one experiment (itself, its results, its compares): what a write invalidates. */
export const experimentKey = (projectSlug: string, experimentId: string) =>
  ["experiment", projectSlug, experimentId] as const;

/** Every cached page of an experiment's results, whatever their filters: a new score shows in them. */
export const experimentResultsKey = (projectSlug: string, experimentId: string) =>
  [...experimentKey(projectSlug, experimentId), "results"] as const;

export const experimentQuery = (projectSlug: string, experimentId: string) =>
  queryOptions({
    queryKey: [...experimentKey(projectSlug, experimentId), "summary"],
    queryFn: ({ signal }) => api.experiments.get(projectSlug, experimentId, { signal }),
  });

/** A dataset's experiments, newest first, page by page. */
export const experimentsQuery = (projectSlug: string, datasetSlug: string) =>
  infiniteQueryOptions({
    queryKey: ["experiments", projectSlug, datasetSlug],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api.experiments.list(
        projectSlug,
        datasetSlug,
        { limit: 100, ...(pageParam ? { cursor: pageParam } : {}) },
        { signal },
      ),
    getNextPageParam: (page) => (page.hasMore && page.nextCursor ? page.nextCursor : undefined),
  });

/** An experiment's results under the filters, in row id order, page by page with the API's cursors. */
export const resultsPagesQuery = (projectSlug: string, experimentId: string, filters: ResultFilters) =>
  infiniteQueryOptions({
    queryKey: [...experimentResultsKey(projectSlug, experimentId), filters],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api.experiments.results(
        projectSlug,
        experimentId,
        { ...resultsQuery(filters), limit: RESULTS_PAGE, ...(pageParam ? { cursor: pageParam } : {}) },
        { signal },
      ),
    getNextPageParam: (page) => (page.hasMore && page.nextCursor ? page.nextCursor : undefined),
  });

/** Results the distribution chart reads at most: enough for its shape, few enough to read quickly. */
export const DISTRIBUTION_SAMPLE = 2_000;

/** The first results of the experiment, unfiltered, for its score distribution. */
export const distributionQuery = (projectSlug: string, experimentId: string) =>
  queryOptions({
    queryKey: [...experimentKey(projectSlug, experimentId), "distribution"],
    queryFn: async ({ signal }) => {
      const results = [];
      for await (const result of api.experiments.iterateResults(
        projectSlug,
        experimentId,
        { limit: 200 },
        { signal },
      )) {
        results.push(result);
        if (results.length >= DISTRIBUTION_SAMPLE) return { results, complete: false };
      }
      return { results, complete: true };
    },
  });

/**
 * Two experiments compared, regressions first, page by page (only the rows of one `change` when
 * given); the summary, of every row, comes with every page.
 */
export const compareQuery = (projectSlug: string, a: string, b: string, change?: CompareChange) =>
  infiniteQueryOptions({
    queryKey: [...experimentKey(projectSlug, a), "compare", b, change ?? "all"],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api.experiments.compare(
        projectSlug,
        a,
        b,
        { limit: 100, ...(change ? { change } : {}), ...(pageParam ? { cursor: pageParam } : {}) },
        { signal },
      ),
    getNextPageParam: (page) => (page.hasMore && page.nextCursor ? page.nextCursor : undefined),
  });
