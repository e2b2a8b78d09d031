import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useParams } from "react-router";
import { api } from "../api";
import { canWrite } from "../components/collect";
import { ErrorMessage } from "../components/errors";
import { PageHeader } from "../components/layout";
import { NamedList } from "../components/named-list";
import { useToasts } from "../components/toasts";
import { projectQuery } from "../projects/queries";
import { useSignedIn } from "../session";
import { datasetDeleteConsequence, datasetDetail } from "./dataset-summary";
import { afterDatasetsWrite, datasetsQuery } from "./queries";

export function DatasetsPage() {
  const { projectSlug = "" } = useParams();
  const session = useSignedIn();
  const queryClient = useQueryClient();
  const toasts = useToasts();
  const project = useQuery(projectQuery(projectSlug));
  const datasets = useQuery(datasetsQuery(projectSlug));
  const refresh = () => afterDatasetsWrite(queryClient, projectSlug);
  const create = useMutation({
    mutationFn: (name: string) => api.datasets.create(projectSlug, { name }),
    onSuccess: refresh,
  });
  if (project.error) return <ErrorMessage error={project.error} />;
  return (
    <>
      <PageHeader
        title={project.data?.name ?? projectSlug}
        crumbs={[{ label: "Projects", to: "/projects" }]}
      />
      <NamedList
        noun="dataset"
        items={datasets.data?.map((dataset) => ({
          ...dataset,
          detail: datasetDetail(dataset),
          consequence: datasetDeleteConsequence(dataset),
        }))}
        loading={datasets.isPending}
        error={datasets.error}
        linkTo={(dataset) => `/projects/${projectSlug}/datasets/${dataset.slug}`}
        canWrite={canWrite(session.role)}
        onCreate={async (name) => {
          const dataset = await create.mutateAsync(name);
          toasts.show({ kind: "success", message: `Created dataset ${dataset.name}` });
        }}
        onRename={async (dataset, name) => {
          await api.datasets.update(projectSlug, dataset.slug, { name });
          await refresh();
          toasts.show({ kind: "success", message: `Renamed to ${name}` });
        }}
        onDelete={async (dataset) => {
          await api.datasets.delete(projectSlug, dataset.slug);
          await refresh();
          toasts.show({ kind: "success", message: `Deleted dataset ${dataset.name}` });
        }}
        deleteConsequence="Its rows, columns and every version of its history will be deleted."
      />
    </>
  );
}
