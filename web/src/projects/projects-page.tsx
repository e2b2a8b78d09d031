import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../api";
import { canWrite } from "../components/collect";
import { PageHeader } from "../components/layout";
import { NamedList } from "../components/named-list";
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
    onSuccess: refresh,
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
        canWrite={canWrite(session.role)}
        onCreate={async (name) => {
          const project = await create.mutateAsync(name);
          toasts.show({ kind: "success", message: `Created project ${project.name}` });
        }}
        onRename={async (project, name) => {
          await api.projects.update(project.slug, { name });
          await refresh();
          toasts.show({
            kind: "success",
            message: `Renamed to ${name}; its address stays /projects/${project.slug}`,
          });
        }}
        onDelete={async (project) => {
          await api.projects.delete(project.slug);
          await refresh();
          toasts.show({ kind: "success", message: `Deleted project ${project.name}` });
        }}
        deleteConsequence="Its datasets, their rows and their whole history, and its traces will be deleted."
      />
    </>
  );
}
