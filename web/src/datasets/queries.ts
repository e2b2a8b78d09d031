import { type QueryClient, queryOptions } from "@tanstack/react-query";
import { api } from "../api";
import { collect } from "../collect";
import { rowKey, rowsKey } from "../rows/queries";

/** Every cached list of a project's datasets (the page's, and the targets a copy or a trace may go to). */
export const datasetsKey = (projectSlug: string) => ["datasets", projectSlug];

/** The project's datasets, most recently updated first, for its page. */
export const datasetsQuery = (projectSlug: string) =>
  queryOptions({
    queryKey: datasetsKey(projectSlug),
    queryFn: () => collect(api.datasets.iterate(projectSlug, { limit: 200, sortBy: "updatedAt" })),
  });

/** The project's datasets to send rows to (a copy's target, traces' destination, an experiment's dataset). */
export const datasetTargetsQuery = (projectSlug: string) =>
  queryOptions({
    queryKey: [...datasetsKey(projectSlug), "targets"],
    queryFn: () => api.datasets.list(projectSlug, { limit: 200 }),
  });

/** One dataset: its columns, its version and its count of rows. */
export const datasetQuery = (projectSlug: string, datasetSlug: string) =>
  queryOptions({
    queryKey: ["dataset", projectSlug, datasetSlug],
    queryFn: () => api.datasets.get(projectSlug, datasetSlug),
  });

/** One version's record (its count of rows), for a page pinned to it. */
export const versionQuery = (projectSlug: string, datasetSlug: string, version: number | undefined) =>
  queryOptions({
    queryKey: ["version", projectSlug, datasetSlug, version],
    queryFn: () => api.datasets.getVersion(projectSlug, datasetSlug, version ?? 0),
  });

/** The dataset's columns, the removed ones too (to restore them, or to show them in a diff). */
export const columnsQuery = (projectSlug: string, datasetSlug: string) =>
  queryOptions({
    queryKey: ["columns", projectSlug, datasetSlug],
    queryFn: () => api.datasets.listColumns(projectSlug, datasetSlug, { includeRemoved: true }),
  });

/** What a dataset's creation, rename or deletion changes: the project's lists of datasets. */
export const afterDatasetsWrite = (queryClient: QueryClient, projectSlug: string) =>
  queryClient.invalidateQueries({ queryKey: datasetsKey(projectSlug) });

/** What a write to a dataset's rows changes: the dataset (version, count), its row lists and its rows. */
export const afterRowsWrite = (queryClient: QueryClient, projectSlug: string, datasetSlug: string) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: datasetQuery(projectSlug, datasetSlug).queryKey }),
    queryClient.invalidateQueries({ queryKey: rowsKey(projectSlug, datasetSlug) }),
    queryClient.invalidateQueries({ queryKey: rowKey(projectSlug, datasetSlug) }),
  ]);
