import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { mayCall } from "../access";
import { api } from "../api";
import { PageHeader } from "../components/layout";
import { type NamedItem, NamedList } from "../components/named-list";
import { useToasts } from "../components/toasts";
import { useSignedIn } from "../session";
import { afterProjectWrite, projectsQuery } from "./queries";

export function ProjectsPage() {
  const session = useSignedIn();
  const queryClient = useQueryClient();
  const toasts = useToasts();
  const projects = useQuery(projectsQuery());
  const refresh = () => afterProjectWrite(queryClient);
  const create = useMutation({
    mutationFn: (name: string) => api.projects.create({ name }),
    onSuccess: async (project) => {
      await refresh();
      toasts.show({ kind: "success", message: `Created project ${project.name}` });
    },
  });
  const rename = useMutation({
    mutationFn: ({ item, name }: { item: NamedItem; name: string }) =>
      api.projects.update(item.slug, { name }),
    onSuccess: async (_project, { item, name }) => {
      await refresh();
      toasts.show({
        kind: "success",
        message: `Renamed to ${name}; its address stays /projects/${item.slug}`,
      });
    },
  });
  const remove = useMutation({
    mutationFn: (project: NamedItem) => api.projects.delete(project.slug),
    onSuccess: async (_deleted, project) => {
      await refresh();
      toasts.show({ kind: "success", message: `Deleted project ${project.name}` });
    },
  });
  return (
    <>
      <PageHeader title="Projects" />
      <NamedList
        noun="project"
        items={projects.data}
        loading={projects.isPending}
        error={projects.error}
        linkTo={(project) => `/projects/${project.slug}`}
        canWrite={mayCall(session.role, "createProject")}
        create={create}
        rename={rename}
        remove={remove}
        deleteConsequence="Its datasets, their rows and their whole history, and its traces will be deleted."
      />
    </>
  );
}
