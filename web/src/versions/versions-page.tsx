import type { DatasetVersion } from "@svc/sdk";
import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useParams } from "react-router";
import { mayCall } from "../access";
import { ownActorIdOf } from "../api";
import { ActionButton } from "../components/action-button";
import { ErrorMessage } from "../components/errors";
import { PageHeader } from "../components/layout";
import { LoadMore } from "../components/load-more";
import { numeric, Table } from "../components/table";
import { useSignedIn } from "../session";
import { actorLabel } from "./changes";
import { afterVersionsWrite, versionsQuery } from "./queries";
import { RestoreDialog } from "./restore-dialog";

/**
 * The dataset's timeline, newest first: each version opens the dataset as it was (read-only), shows
 * what it changed, and can be restored as a new version.
 */
export function VersionsPage() {
  const { projectSlug = "", datasetSlug = "" } = useParams();
  const session = useSignedIn();
  const queryClient = useQueryClient();
  const [restoring, setRestoring] = useState<number | undefined>();
  const versions = useInfiniteQuery(versionsQuery(projectSlug, datasetSlug));
  const items = versions.data?.pages.flatMap((page) => page.items) ?? [];
  const latest = items[0]?.version;
  const base = `/projects/${projectSlug}/datasets/${datasetSlug}`;
  const writable = mayCall(session.role, "restoreDatasetVersion");
  return (
    <>
      <PageHeader
        title="Versions"
        crumbs={[
          { label: "Projects", to: "/projects" },
          { label: projectSlug, to: `/projects/${projectSlug}` },
          { label: datasetSlug, to: base },
        ]}
        actions={
          latest !== undefined && latest > 0 ? (
            <Link to={`${base}/diff?from=${Math.max(0, latest - 1)}&to=${latest}`} className="button">
              Compare versions
            </Link>
          ) : null
        }
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
        <Table
          caption="Versions, newest first"
          className="table versions-table"
          columns={[
            "Version",
            "When",
            "Operation",
            numeric("Inserted"),
            numeric("Updated"),
            numeric("Deleted"),
            numeric("Rows"),
            "By",
          ]}
          actions
        >
          {items.map((version) => (
            <VersionRow
              key={version.versionId}
              version={version}
              base={base}
              latest={version.version === latest}
              ownActorId={ownActorIdOf(session)}
              onRestore={writable ? () => setRestoring(version.version) : undefined}
            />
          ))}
        </Table>
      )}
      <LoadMore pages={versions} label="Older versions" />
      <RestoreDialog
        projectSlug={projectSlug}
        datasetSlug={datasetSlug}
        version={restoring}
        currentVersion={latest}
        onClose={() => setRestoring(undefined)}
        onRestored={async () => {
          setRestoring(undefined);
          await afterVersionsWrite(queryClient, projectSlug, datasetSlug);
        }}
      />
    </>
  );
}

function VersionRow({
  version,
  base,
  latest,
  ownActorId,
  onRestore,
}: {
  version: DatasetVersion;
  base: string;
  latest: boolean;
  ownActorId: string;
  onRestore: (() => void) | undefined;
}) {
  const n = version.version;
  return (
    <tr>
      <th scope="row">
        <Link to={latest ? base : `${base}?version=${n}`} aria-label={`Open version ${n}`}>
          {n}
        </Link>
        {latest ? <span className="badge">current</span> : null}
      </th>
      <td>
        <time dateTime={version.createdAt}>{new Date(version.createdAt).toLocaleString()}</time>
      </td>
      <td>{version.operation}</td>
      <td className="numeric">{version.rowsInserted.toLocaleString()}</td>
      <td className="numeric">{version.rowsUpdated.toLocaleString()}</td>
      <td className="numeric">{version.rowsDeleted.toLocaleString()}</td>
      <td className="numeric">{version.rows.toLocaleString()}</td>
      <td>
        <span className="actor" title={`${version.actor.kind} ${version.actor.id}`}>
          {actorLabel(version.actor, ownActorId)}
        </span>
      </td>
      <td className="row-actions">
        {n > 0 ? (
          <Link
            to={`${base}/diff?from=${n - 1}&to=${n}`}
            className="button button-quiet"
            aria-label={`Changes made by version ${n}`}
          >
            Changes
          </Link>
        ) : null}
        {onRestore && !latest ? (
          <ActionButton label={`Restore version ${n}`} onClick={onRestore}>
            Restore
          </ActionButton>
        ) : null}
      </td>
    </tr>
  );
}
