import { SMTPServer } from "smtp-server";

export interface Mailbox {
  port: number;
  /** Every message received, as sent. */
  messages: string[];
  close(): Promise<void>;
}

/** A real SMTP server on a loopback port, keeping every message it receives. */
export function startMailbox(): Promise<Mailbox> {
  const messages: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        messages.push(Buffer.concat(chunks).toString("utf8"));
        callback();
      });
    },
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const address = server.server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      resolve({ port, messages, close: () => new Promise((done) => server.close(() => done())) });
    });
  });
}

/** The sign-in codes in a message's links, with quoted-printable soft breaks and escapes undone. */
export function signInCodesIn(message: string): string[] {
  const text = message
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_all, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return [...text.matchAll(/\/sign-in#code=(svc_sc_[A-Za-z0-9_-]+)/g)].map((match) => match[1] ?? "");
}

export const recipientOf = (message: string): string | undefined => /^To: (.+)$/im.exec(message)?.[1]?.trim();
