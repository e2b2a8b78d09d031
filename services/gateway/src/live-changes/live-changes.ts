import { type Bus, callSubject, type Subscription } from "@svc/bus";
import {
  credentialRevokedEventSchema,
  type DatasetEventsPage,
  DomainError,
  datasetEventsPageSchema,
  datasetEventsSubject,
  datasetVersionWrittenSchema,
  operations,
  type RequestContext,
  subjects,
} from "@svc/contracts";
import type { Logger } from "@svc/telemetry";
import { DatasetFeed } from "./dataset-feed";
import { type EndReason, EventStream, eventText, type StreamSink } from "./event-stream";

export interface LiveChangesOptions {
  /** Streams one credential may hold open on this gateway; one more is 429. */
  perKey: number;
  /** Streams this gateway holds open at once, all credentials together; one more is 503. */
  maxStreams: number;
  /** How often every stream gets a comment line, and every feed asks whether it missed a version. */
  keepAliveMs: number;
  /** Bytes a client may leave untaken before it is dropped. */
  maxBufferedBytes: number;
  /** How long a replaying client may stay behind before it is dropped. */
  drainTimeoutMs: number;
}

export interface DatasetKey {
  organizationId: string;
  projectSlug: string;
  datasetSlug: string;
}

interface OpenFeed {
  feed: DatasetFeed;
  subscription: Subscription;
}

/** What a new stream starts from: the reader's first answer, asked with the client's credential. */
export interface StreamStart {
  dataset: DatasetKey;
  context: RequestContext;
  /** The reader's answer to the stream's first request, whose events are sent first. */
  first: DatasetEventsPage;
  /** The version the client has: its Last-Event-ID, or the current version for a new stream. */
  after: number;
  sink: StreamSink;
}

/**
 * The live-changes streams of this gateway: one feed (one bus subscription) per dataset with open
 * streams, the per-credential cap, keep-alives, and the end of every stream on shutdown or when the
 * credential holding it is revoked.
 */
export class LiveChanges {
  private readonly feeds = new Map<string, OpenFeed>();
  private readonly byHolder = new Map<string, Set<EventStream>>();
  private readonly timer: NodeJS.Timeout;
  private readonly revocations: Subscription;
  private closed = false;

  constructor(
    private readonly bus: Bus,
    private readonly options: LiveChangesOptions,
    private readonly logger: Logger,
    private readonly timeoutMs: number,
  ) {
    this.timer = setInterval(() => this.keepAlive(), options.keepAliveMs);
    this.timer.unref();
    this.revocations = bus.subscribe(subjects.auth.credentialRevoked, (payload) => {
      const event = credentialRevokedEventSchema.safeParse(payload);
      if (event.success) this.endHolder(event.data.actor.id, "revoked");
    });
  }

  get streamCount(): number {
    let count = 0;
    for (const streams of this.byHolder.values()) count += streams.size;
    return count;
  }

  /** Refuses a new stream of this credential when it, or the gateway, holds as many as it may. */
  admit(context: RequestContext): void {
    if (this.closed) {
      throw new DomainError("service_unavailable", "The gateway is shutting down; reconnect in a moment");
    }
    const held = this.byHolder.get(holderOf(context))?.size ?? 0;
    if (held >= this.options.perKey) {
      throw new DomainError(
        "rate_limited",
        `This credential already holds ${held} live-change streams open on this gateway, the most it may (${this.options.perKey}); close one before opening another`,
        { scope: "streams", limit: this.options.perKey, retryAfterSeconds: 5 },
      );
    }
    if (this.streamCount >= this.options.maxStreams) {
      throw new DomainError(
        "service_unavailable",
        `The gateway holds as many live-change streams as it takes (${this.options.maxStreams}); retry after the Retry-After delay`,
      );
    }
  }

  /** Asks the reader for a page of the dataset's versions after `after`, as `context`'s caller. */
  fetcher(context: RequestContext, dataset: DatasetKey, datasetId?: string) {
    return async (after?: number): Promise<DatasetEventsPage> => {
      const data = await callSubject(
        this.bus,
        operations.watchDataset.subject,
        {
          context,
          input: {
            params: { projectSlug: dataset.projectSlug, datasetSlug: dataset.datasetSlug },
            ...(datasetId === undefined ? {} : { datasetId }),
            ...(after === undefined ? {} : { after }),
          },
        },
        { timeoutMs: this.timeoutMs },
      );
      return datasetEventsPageSchema.parse(data);
    };
  }

  /** Sends the first page, then hands the stream to its dataset's feed. */
  open(start: StreamStart): EventStream {
    this.admit(start.context);
    const holder = holderOf(start.context);
    const stream = new EventStream(start.sink, start.after, this.options.maxBufferedBytes, holder);
    for (const event of start.first.events) {
      stream.offer({ version: event.version, text: eventText(event.version, event) }, { replay: true });
    }
    const held = this.byHolder.get(holder) ?? new Set<EventStream>();
    held.add(stream);
    this.byHolder.set(holder, held);
    stream.onEnd(() => {
      held.delete(stream);
      if (held.size === 0 && this.byHolder.get(holder) === held) this.byHolder.delete(holder);
    });
    if (!stream.closed) this.feedOf(start).attach(stream);
    return stream;
  }

  /** Ends every stream (the gateway shuts down): clients reconnect elsewhere with Last-Event-ID. */
  close(): void {
    this.closed = true;
    clearInterval(this.timer);
    this.revocations.unsubscribe();
    for (const { feed } of [...this.feeds.values()]) feed.close("shutdown");
  }

  private feedOf(start: StreamStart): DatasetFeed {
    const key = datasetEventsSubject(start.dataset);
    const open = this.feeds.get(key);
    if (open && open.feed.datasetId === start.first.datasetId) return open.feed;
    // The same slugs, another dataset: the old one was deleted, and its streams end.
    open?.feed.close("dataset_gone");
    const fetchEvents = this.fetcher(start.context, start.dataset, start.first.datasetId);
    const entry: Partial<OpenFeed> = {};
    const feed = new DatasetFeed(
      start.first.datasetId,
      start.first.version,
      fetchEvents,
      { drainTimeoutMs: this.options.drainTimeoutMs },
      this.logger,
      () => {
        entry.subscription?.unsubscribe();
        if (this.feeds.get(key)?.feed === feed) this.feeds.delete(key);
      },
    );
    entry.feed = feed;
    entry.subscription = this.bus.subscribe(key, (payload) => {
      const written = datasetVersionWrittenSchema.safeParse(payload);
      if (written.success) feed.heard(written.data.version);
    });
    this.feeds.set(key, entry as OpenFeed);
    feed.check();
    return feed;
  }

  private keepAlive(): void {
    for (const streams of this.byHolder.values()) for (const stream of streams) stream.keepAlive();
    for (const { feed } of this.feeds.values()) feed.check();
  }

  private endHolder(actorId: string, reason: EndReason): void {
    for (const stream of [...(this.byHolder.get(actorId) ?? [])]) stream.end(reason);
  }
}

/**
 * Streams are counted per credential: an API key, an OAuth grant, a browser session (a person's own
 * session acts as the user, but ends on its own: it is held by the session).
 */
const holderOf = (context: RequestContext): string => context.sessionId ?? context.actor?.id ?? "operator";
