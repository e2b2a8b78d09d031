import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useParams } from "react-router";
import { mayCall } from "../access";
import { api } from "../api";
import { ErrorMessage } from "../components/errors";
import { PageHeader } from "../components/layout";
import { type NamedItem, NamedList } from "../components/named-list";
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
    onSuccess: async (dataset) => {
      await refresh();
      toasts.show({ kind: "success", message: `Created dataset ${dataset.name}` });
    },
  });
  const rename = useMutation({
    mutationFn: ({ item, name }: { item: NamedItem; name: string }) =>
      api.datasets.update(projectSlug, item.slug, { name }),
    onSuccess: async (_dataset, { name }) => {
      await refresh();
      toasts.show({ kind: "success", message: `Renamed to ${name}` });
    },
  });
  const remove = useMutation({
    mutationFn: (dataset: NamedItem) => api.datasets.delete(projectSlug, dataset.slug),
    onSuccess: async (_deleted, dataset) => {
      await refresh();
      toasts.show({ kind: "success", message: `Deleted dataset ${dataset.name}` });
    },
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
        canWrite={mayCall(session.role, "createDataset")}
        create={create}
        rename={rename}
        remove={remove}
        deleteConsequence="Its rows, columns and every version of its history will be deleted."
      />
    </>
  );
}
