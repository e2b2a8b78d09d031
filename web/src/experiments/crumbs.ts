/**
 * The breadcrumbs above an experiment's pages: the project, then, once the experiment's dataset is
 * known, the dataset and its Experiments tab.
 */
export function experimentCrumbs(
  projectSlug: string,
  dataset: { slug: string; name: string } | undefined,
): { label: string; to: string }[] {
  const project = `/projects/${projectSlug}`;
  const crumbs = [
    { label: "Projects", to: "/projects" },
    { label: projectSlug, to: project },
  ];
  if (!dataset) return crumbs;
  const datasetBase = `${project}/datasets/${dataset.slug}`;
  return [
    ...crumbs,
    { label: dataset.name, to: datasetBase },
    { label: "Experiments", to: `${datasetBase}/experiments` },
  ];
}
