import { type DatasetEventsPage, DomainError, MAX_EVENTS_PAGE } from "@svc/contracts";
import type { Logger } from "@svc/telemetry";
import { type EventStream, eventText, type OutgoingEvent } from "./event-stream";

/** Asks the reader for the dataset's versions after `after`, as events (oldest first, a page at most). */
export type FetchEvents = (after: number) => Promise<DatasetEventsPage>;

export interface FeedOptions {
  /** How long a replaying client may stay behind on what it was sent before it is dropped. */
  drainTimeoutMs: number;
}

/**
 * The live changes of one dataset in this gateway: one bus subscription, whatever the number of
 * streams, and one reader request per announced version (or per burst of them) for all its streams.
 *
 * Announcements are hints: they may come late, out of order, twice or never (core NATS keeps no
 * message). The feed keeps `delivered`, the last version it sent its live streams, and on any hint
 * of a later one asks the reader for every version after it, so that its streams get each version
 * once and in order; a stream that finds a gap behind an event (it was behind) catches up from the
 * reader on its own before it is live again. `check` (every keep-alive) asks even without a hint,
 * so that a lost announcement delays a version by one interval at most, and finds a deleted dataset.
 */
export class DatasetFeed {
  private readonly live = new Set<EventStream>();
  private readonly catchingUp = new Set<EventStream>();
  private delivered: number;
  private fetching = false;
  private again = false;
  private closed = false;

  constructor(
    readonly datasetId: string,
    /** The dataset's current version when the feed began: the versions before are not its to send. */
    startVersion: number,
    private readonly fetchEvents: FetchEvents,
    private readonly options: FeedOptions,
    private readonly logger: Logger,
    /** Called once the feed has no stream left or is closed: its subscription ends. */
    private readonly onIdle: () => void,
  ) {
    this.delivered = startVersion;
  }

  get streamCount(): number {
    return this.live.size + this.catchingUp.size;
  }

  /** Takes a stream: live at once when it has what the feed sent, after catching up otherwise. */
  attach(stream: EventStream): void {
    stream.onEnd(() => {
      this.live.delete(stream);
      this.catchingUp.delete(stream);
      if (this.streamCount === 0) this.close();
    });
    if (stream.closed) return;
    void this.catchUp(stream);
  }

  /** An announcement: the dataset has reached `version`. */
  heard(version: number): void {
    if (version > this.delivered) this.pump();
  }

  /**
   * Asks the reader whether anything was missed (and whether the dataset still exists): once the
   * subscription is there (a version committed before it was announced to nobody), then now and then.
   */
  check(): void {
    this.pump();
  }

  /** Ends every stream (the gateway shuts down, the dataset is gone) and the subscription. */
  close(reason?: Parameters<EventStream["end"]>[0]): void {
    if (reason) for (const stream of [...this.live, ...this.catchingUp]) stream.end(reason);
    if (this.closed) return;
    this.closed = true;
    this.onIdle();
  }

  /**
   * Brings a stream from its last version to the feed's, page by page from the reader, waiting for
   * the client to take each page (a replay is bounded by a page, not by the client's pace); then it is
   * live. Joining follows the last comparison with no wait between, so no delivery can fall between.
   */
  private async catchUp(stream: EventStream): Promise<void> {
    this.catchingUp.add(stream);
    try {
      while (await stream.caughtUp(this.options.drainTimeoutMs)) {
        if (stream.lastSent >= this.delivered) break;
        const page = await this.fetchEvents(stream.lastSent);
        for (const event of page.events) stream.offer(outgoing(event), { replay: true });
        // The reader has nothing after what was sent: the feed's version is not there (yet).
        if (page.events.length === 0) break;
      }
    } catch (error) {
      this.failed(error, [stream]);
      return;
    } finally {
      this.catchingUp.delete(stream);
    }
    if (!stream.closed) this.live.add(stream);
  }

  /** One reader request at a time; hints that come meanwhile make one more when it is done. */
  private pump(): void {
    if (this.closed) return;
    if (this.fetching) {
      this.again = true;
      return;
    }
    this.fetching = true;
    void this.fetchAll().finally(() => {
      this.fetching = false;
    });
  }

  /** Until the reader has nothing newer: a full page, or a hint that came meanwhile, asks again. */
  private async fetchAll(): Promise<void> {
    do {
      this.again = false;
      let page: DatasetEventsPage;
      try {
        page = await this.fetchEvents(this.delivered);
      } catch (error) {
        this.failed(error, []);
        return;
      }
      for (const event of page.events) this.deliver(outgoing(event));
      if (page.events.length >= MAX_EVENTS_PAGE) this.again = true;
    } while (this.again && !this.closed);
  }

  private deliver(event: OutgoingEvent): void {
    if (event.version <= this.delivered) return;
    this.delivered = event.version;
    for (const stream of this.live) {
      if (stream.offer(event) !== "gap") continue;
      this.live.delete(stream);
      void this.catchUp(stream);
    }
  }

  /**
   * The dataset is gone: its streams end. Anything else (the reader did not answer): the streams that
   * waited for that answer end, to reconnect; live streams wait for the next hint or check.
   */
  private failed(error: unknown, streams: EventStream[]): void {
    if (error instanceof DomainError && error.code === "not_found") {
      this.close("dataset_gone");
      return;
    }
    this.logger.warn({ err: error, datasetId: this.datasetId }, "live changes: could not read versions");
    for (const stream of streams) stream.end("failed");
  }
}

function outgoing(event: DatasetEventsPage["events"][number]): OutgoingEvent {
  return { version: event.version, text: eventText(event.version, event) };
}
