import { Link } from "react-router";

/** Over an earlier version: it is read-only, with the ways back, to what changed since, and to restore it. */
export function VersionBanner({
  base,
  version,
  currentVersion,
  canRestore,
  onRestore,
}: {
  /** The dataset's address in the application. */
  base: string;
  version: number;
  currentVersion: number | undefined;
  canRestore: boolean;
  onRestore(): void;
}) {
  return (
    <div className="banner" role="status">
      You are looking at version {version}, read-only. <Link to={base}>Back to the current version</Link>
      {currentVersion !== undefined && version < currentVersion ? (
        <>
          {" · "}
          <Link to={`${base}/diff?from=${version}&to=${currentVersion}`}>What changed since</Link>
          {canRestore ? (
            <>
              {" · "}
              <button type="button" className="link-button" onClick={onRestore}>
                Restore this version
              </button>
            </>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
