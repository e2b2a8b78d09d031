import type { Bus } from "@svc/bus";
import { datasetEventsSubject } from "@svc/contracts";
import type { DatasetRef } from "@svc/db";
import type { Logger } from "@svc/telemetry";

/** Says, after its commit, that a dataset has a new version; see `announcer`. */
export type AnnounceVersion = (ref: DatasetRef, version: number) => void;

/**
 * Publishes a dataset's new version on its events subject, for the gateways that hold streams of it
 * open. A hint, sent once the version is committed: the gateways read the version itself from the
 * reader, and catch up on a hint that never arrives, so a failed publish is logged and nothing more.
 */
export function announcer(bus: Bus, logger: Logger): AnnounceVersion {
  return (ref, version) => {
    const written = {
      organizationId: ref.organizationId,
      projectSlug: ref.projectSlug,
      datasetSlug: ref.datasetSlug,
      version,
    };
    try {
      bus.publish(datasetEventsSubject(written), written);
    } catch (error) {
      logger.warn({ err: error, version }, "could not announce a dataset's new version");
    }
  };
}

/** The result of a mutation, once announced when it made a version (`versionId` null: it made none). */
export function announced<R extends { version: number; versionId: string | null }>(
  announce: AnnounceVersion,
  ref: DatasetRef,
  result: R,
): R {
  if (result.versionId !== null) announce(ref, result.version);
  return result;
}
