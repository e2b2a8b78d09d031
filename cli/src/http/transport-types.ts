import type { IncomingHttpHeaders } from "node:http";
import type { Readable } from "node:stream";

/* What a transport is, apart from how each is made (transport.ts, and transport-bun.ts in the single executable). */

/** One request as the transport sends it. */
export interface Outgoing {
  method: string;
  headers: Record<string, string>;
  body: string | Readable | null;
  signal: AbortSignal;
}

/** The head of an answer; its body streams (aborted with the request's signal). */
export interface Incoming {
  statusCode: number;
  statusText: string;
  headers: IncomingHttpHeaders;
  body: Readable;
}

export interface Transport {
  exchange(url: string, outgoing: Outgoing): Promise<Incoming>;
  /** The proxy in use for the base address, if any (credentials stripped). */
  proxy: string | undefined;
  close(): Promise<void>;
}

export interface TlsOptions {
  ca?: string[];
  rejectUnauthorized?: boolean;
}
