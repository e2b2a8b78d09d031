import { SvcError } from "../api";

/**
 * Sends a write made with If-Match. When someone else changed a row meanwhile (version_mismatch),
 * `onConflict` takes over, to show what they saved; any other failure, or one of `onConflict`'s, is the
 * write's.
 */
export async function writeIfUnchanged(
  write: () => Promise<void>,
  onConflict: (mismatch: SvcError) => Promise<void>,
): Promise<void> {
  try {
    await write();
  } catch (failure) {
    if (failure instanceof SvcError && failure.code === "version_mismatch") await onConflict(failure);
    else throw failure;
  }
}
