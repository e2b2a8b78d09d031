import type { MailMessage } from "./mailer";

/** Where a sign-in code is redeemed: the web application's sign-in page reads it from the fragment. */
export const signInLink = (publicUrl: string, code: string): string =>
  `${publicUrl.replace(/\/+$/, "")}/sign-in#code=${code}`;

export function invitationMessage(invite: {
  to: string;
  organizationName: string;
  inviterName: string | undefined;
  link: string;
}): MailMessage {
  const by = invite.inviterName === undefined ? "" : ` by ${invite.inviterName}`;
  return {
    to: invite.to,
    subject: `You are invited to ${invite.organizationName} on svc`,
    text: [
      `You have been invited${by} to the organisation "${invite.organizationName}" on svc.`,
      "",
      "Open this link to sign in; it works once, within 7 days:",
      invite.link,
      "",
      "If you did not expect this, ignore this message.",
    ].join("\n"),
  };
}

export function signInLinksMessage(
  to: string,
  links: { organizationName: string; link: string }[],
): MailMessage {
  return {
    to,
    subject: "Your svc sign-in link",
    text: [
      links.length === 1
        ? "Open this link to sign in to svc. It works once, within 15 minutes:"
        : "Open the link of the organisation you want to sign in to. Each works once, within 15 minutes:",
      "",
      ...links.flatMap(({ organizationName, link }) => [`${organizationName}:`, link, ""]),
      "If you did not ask to sign in, ignore this message: nobody can use these links without reading this mailbox.",
    ].join("\n"),
  };
}
