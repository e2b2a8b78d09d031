/** Where the datasets of a project, and one dataset, live in the API. */
export const DATASETS = "/v1/projects/{projectSlug}/datasets";
export const DATASET = `${DATASETS}/{datasetSlug}`;
