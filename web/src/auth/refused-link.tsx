import { SvcError } from "../api";

/** What a sign-in link that did not work is, in a few words, from the platform's reason; else undefined. */
export function refusedLinkTitle(error: unknown): string | undefined {
  if (!(error instanceof SvcError) || error.status !== 401) return undefined;
  switch (error.details?.reason) {
    case "used":
      return "This link was already used";
    case "expired":
      return "This link has expired";
    case "revoked":
      return "This link no longer works";
    case "unknown":
      return "This link does not work";
    default:
      return undefined;
  }
}

/** The heading a refused sign-in link gets on the sign-in page, over the platform's explanation. */
export function RefusedLink({ error }: { error: unknown }) {
  const title = refusedLinkTitle(error);
  return title ? (
    <h2 className="refused-link" role="alert">
      {title}
    </h2>
  ) : null;
}
