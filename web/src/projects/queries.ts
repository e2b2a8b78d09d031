import { type QueryClient, queryOptions } from "@tanstack/react-query";
import { api } from "../api";
import { collect } from "../collect";

/** Every project of the organisation (a short list), for the projects page. */
export const projectsQuery = () =>
  queryOptions({
    queryKey: ["projects"],
    queryFn: () => collect(api.projects.iterate({ limit: 200 })),
  });

/** One project: its name heads its datasets' page. */
export const projectQuery = (projectSlug: string) =>
  queryOptions({
    queryKey: ["project", projectSlug],
    queryFn: () => api.projects.get(projectSlug),
  });

/** What a project's creation, rename or deletion changes: the list of projects. */
export const afterProjectWrite = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ queryKey: projectsQuery().queryKey });
