import type { Dataset } from "@svc/sdk";
import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { ErrorMessage } from "../components/errors";
import { datasetTargetsQuery } from "./queries";

/**
 * A dataset of the project to send rows to (a copy's target, traces' destination): the project's
 * datasets, read while the dialog is open, the first one chosen until the person picks another.
 */
export function useDatasetChoice(projectSlug: string, open: boolean, except?: string) {
  const [slug, setSlug] = useState("");
  const datasets = useQuery({ ...datasetTargetsQuery(projectSlug), enabled: open });
  const choices = (datasets.data?.items ?? []).filter((dataset) => dataset.slug !== except);
  const chosen: Dataset | undefined = choices.find((dataset) => dataset.slug === slug) ?? choices[0];
  return { datasets, choices, chosen, choose: setSlug };
}

/** The choice as a labelled select, with the list's loading, error and empty states. */
export function DatasetChoice({
  choice,
  label,
  none,
}: {
  choice: ReturnType<typeof useDatasetChoice>;
  label: string;
  /** What to say when there is no dataset to choose. */
  none: string;
}) {
  const id = useId();
  const { datasets, choices, chosen, choose } = choice;
  if (datasets.error) return <ErrorMessage error={datasets.error} />;
  if (datasets.isPending) return <p role="status">Loading datasets…</p>;
  if (choices.length === 0) return <p>{none}</p>;
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <select id={id} value={chosen?.slug ?? ""} onChange={(event) => choose(event.target.value)}>
        {choices.map((dataset) => (
          <option key={dataset.slug} value={dataset.slug}>
            {dataset.name}
          </option>
        ))}
      </select>
    </>
  );
}
