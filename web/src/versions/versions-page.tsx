import { useInfiniteQuery } from "@tanstack/react-query";
import { Link, useParams } from "react-router";
import { api } from "../api";
import { ErrorMessage } from "../components/errors";
import { PageHeader } from "../components/layout";

/** The dataset's versions, newest first; each opens the dataset as it was, read-only. */
export function VersionsPage() {
  const { projectSlug = "", datasetSlug = "" } = useParams();
  const versions = useInfiniteQuery({
    queryKey: ["versions", projectSlug, datasetSlug],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      api.datasets.listVersions(projectSlug, datasetSlug, {
        limit: 100,
        ...(pageParam ? { cursor: pageParam } : {}),
      }),
    getNextPageParam: (page) => (page.hasMore && page.nextCursor ? page.nextCursor : undefined),
  });
  const items = versions.data?.pages.flatMap((page) => page.items) ?? [];
  const base = `/projects/${projectSlug}/datasets/${datasetSlug}`;
  return (
    <>
      <PageHeader
        title="Versions"
        crumbs={[
          { label: "Projects", to: "/projects" },
          { label: projectSlug, to: `/projects/${projectSlug}` },
          { label: datasetSlug, to: base },
        ]}
      />
      {versions.error ? <ErrorMessage error={versions.error} /> : null}
      {versions.isPending ? (
        <p className="page-status" role="status">
          Loading versions…
        </p>
      ) : items.length === 0 ? (
        <div className="empty">
          <p>No versions yet: the dataset is as it was created, empty.</p>
        </div>
      ) : (
        <table className="table">
          <caption className="visually-hidden">Versions, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">When</th>
              <th scope="col">Operation</th>
              <th scope="col">Inserted</th>
              <th scope="col">Updated</th>
              <th scope="col">Deleted</th>
              <th scope="col">By</th>
            </tr>
          </thead>
          <tbody>
            {items.map((version) => (
              <tr key={version.versionId}>
                <th scope="row">
                  <Link to={`${base}?version=${version.version}`}>{version.version}</Link>
                </th>
                <td>{new Date(version.createdAt).toLocaleString()}</td>
                <td>{version.operation}</td>
                <td>{version.rowsInserted}</td>
                <td>{version.rowsUpdated}</td>
                <td>{version.rowsDeleted}</td>
                <td>
                  <span className="actor">
                    {version.actor.kind === "apiKey"
                      ? "API key"
                      : version.actor.kind === "oauth"
                        ? "Agent"
                        : "Session"}{" "}
                    <code>{version.actor.id.slice(0, 8)}</code>
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {versions.hasNextPage ? (
        <button
          type="button"
          className="button"
          onClick={() => void versions.fetchNextPage()}
          disabled={versions.isFetchingNextPage}
        >
          {versions.isFetchingNextPage ? "Loading…" : "Older versions"}
        </button>
      ) : null}
    </>
  );
}
