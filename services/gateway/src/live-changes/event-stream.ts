/** Where a stream's bytes go: the HTTP response, or a test's stand-in. */
export interface StreamSink {
  write(text: string): void;
  /** Bytes written and not yet taken by the client (the response's `writableLength`). */
  buffered(): number;
  /** Resolves when the buffered bytes have been taken, or the sink closed. */
  drained(): Promise<void>;
  /** Ends the response; `abort` when the client is not reading, whose buffers must not be kept. */
  end(abort: boolean): void;
}

/** An event as every stream of a dataset sends it: its version, and its text, made once for all. */
export interface OutgoingEvent {
  version: number;
  text: string;
}

export type Offer = "sent" | "duplicate" | "gap" | "closed";

/** Why a stream ended, for the log line and the metrics. */
export type EndReason = "client" | "slow" | "shutdown" | "dataset_gone" | "revoked" | "failed";

/**
 * One client's Server-Sent Events stream of one dataset: what it was last sent, so that each version
 * goes out once and in order whatever way it arrives (a live announcement, a catch-up page, both).
 * A client that does not take its bytes is disconnected, not buffered for: beyond `maxBuffered`
 * bytes it is closed, and it reconnects with Last-Event-ID.
 */
export class EventStream {
  private ended: EndReason | undefined;
  private readonly endListeners: ((reason: EndReason) => void)[] = [];

  constructor(
    private readonly sink: StreamSink,
    /** The version the client has: the stream sends the versions after it. */
    public lastSent: number,
    private readonly maxBuffered: number,
    /** Who holds it open: the credential's actor, for the per-key cap and revocation. */
    readonly holder: string,
  ) {}

  get closed(): boolean {
    return this.ended !== undefined;
  }

  /**
   * Sends the event if it is the next version; says why not otherwise. A live event past the bound
   * drops the client; a replay's page is bounded by its size, and waited on with `caughtUp`.
   */
  offer(event: OutgoingEvent, { replay = false }: { replay?: boolean } = {}): Offer {
    if (this.ended) return "closed";
    if (event.version <= this.lastSent) return "duplicate";
    if (event.version !== this.lastSent + 1) return "gap";
    this.sink.write(event.text);
    this.lastSent = event.version;
    if (!replay && this.sink.buffered() > this.maxBuffered) this.end("slow");
    return "sent";
  }

  /** A comment line: proxies see traffic on a quiet stream and keep it open. */
  keepAlive(): void {
    if (this.ended) return;
    this.sink.write(": keep-alive\n\n");
    if (this.sink.buffered() > this.maxBuffered) this.end("slow");
  }

  /**
   * Waits while the client is behind on what it was sent (a replay writes pages as fast as they come);
   * closes the stream when it stays behind for `timeoutMs`.
   */
  async caughtUp(timeoutMs: number): Promise<boolean> {
    if (this.ended) return false;
    if (this.sink.buffered() <= this.maxBuffered / 2) return true;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<"late">((resolve) => {
      timer = setTimeout(() => resolve("late"), timeoutMs);
    });
    const outcome = await Promise.race([this.sink.drained().then(() => "drained" as const), late]);
    clearTimeout(timer);
    if (outcome === "late" && !this.ended) this.end("slow");
    return !this.ended;
  }

  onEnd(listener: (reason: EndReason) => void): void {
    if (this.ended) listener(this.ended);
    else this.endListeners.push(listener);
  }

  /** Ends the stream (once): the response ends, and whoever tracks it is told why. */
  end(reason: EndReason): void {
    if (this.ended) return;
    this.ended = reason;
    if (reason !== "client") this.sink.end(reason === "slow");
    for (const listener of this.endListeners.splice(0)) listener(reason);
  }
}

/** The Server-Sent Event of one dataset version. */
export function eventText(version: number, data: unknown): string {
  return `id: ${version}\nevent: version\ndata: ${JSON.stringify(data)}\n\n`;
}
