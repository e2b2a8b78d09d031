import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../api";
import { ConfirmDialog } from "../components/dialog";
import { useToasts } from "../components/toasts";
import { afterRestore } from "./queries";

/**
 * "Restore version N?": the dataset becomes equal to version N again as one new version, which the
 * toast names; history keeps everything in between.
 */
export function RestoreDialog({
  projectSlug,
  datasetSlug,
  version,
  currentVersion,
  onClose,
  onRestored,
}: {
  projectSlug: string;
  datasetSlug: string;
  /** The version to restore; the dialog is open while it is set. */
  version: number | undefined;
  /** The dataset's version now: a restore that answers it made no version. */
  currentVersion: number | undefined;
  onClose(): void;
  onRestored(newVersion: number): void | Promise<void>;
}) {
  const toasts = useToasts();
  const queryClient = useQueryClient();
  const restore = useMutation({
    mutationFn: (chosen: number) => api.datasets.restoreVersion(projectSlug, datasetSlug, chosen),
    onSuccess: async (result, chosen) => {
      toasts.show({
        kind: "success",
        message:
          result.version === currentVersion
            ? `The dataset already equals version ${chosen}; nothing changed`
            : `Restored version ${chosen} as version ${result.version}`,
      });
      await afterRestore(queryClient, projectSlug, datasetSlug);
      await onRestored(result.version);
    },
  });
  return (
    <ConfirmDialog
      title={`Restore version ${version ?? ""}?`}
      open={version !== undefined}
      confirmLabel={`Restore version ${version ?? ""}`}
      busy={restore.isPending}
      body={
        <p>
          The dataset becomes exactly as it was at version {version}, as one new version. Nothing is lost: the
          versions in between stay in the history, and can be restored in turn.
        </p>
      }
      error={restore.error}
      onClose={onClose}
      onConfirm={() => {
        if (version !== undefined) restore.mutate(version);
      }}
    />
  );
}
