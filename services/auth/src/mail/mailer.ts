import { createTransport } from "nodemailer";

/** One message of plain text to one address. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends mail; the only thing the rules know of SMTP. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/**
 * Mail through the SMTP server `url` names: `smtp://` (upgraded with STARTTLS when the server offers
 * it) or `smtps://` (TLS from the start), with `user:password@` when the server wants them, and
 * nodemailer's query options (`?tls.rejectUnauthorized=false` for a server with a private certificate).
 */
export function smtpMailer(url: string, from: string): Mailer & { close(): void } {
  const transport = createTransport(url, { from });
  return {
    async send(message) {
      await transport.sendMail(message);
    },
    close: () => transport.close(),
  };
}
