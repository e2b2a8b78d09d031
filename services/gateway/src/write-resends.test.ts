import { randomBytes } from "node:crypto";
import {
  type BusReply,
  type BusRequest,
  connectionLost,
  InProcessBus,
  NatsBus,
  notSent,
  type RequestOptions,
  WORKING_EVERY_MS,
} from "@svc/bus";
import { silentLogger } from "@svc/telemetry";
import { realInfra } from "@svc/testing";
import { connect } from "nats";
import { afterEach, describe, expect, it } from "vitest";
import { type ResendPolicy, requestWrite, withIdempotencyKey } from "./write-resends";

const SUBJECT = "svc.v1.datasets.rows.update";
const policy: ResendPolicy = { silenceMs: 400, resendForMs: 600 };
const infra = realInfra();

const edit = (): BusRequest => ({
  context: withIdempotencyKey({
    organizationId: "o",
    role: "member",
    actor: { kind: "apiKey", id: "k" },
    requestId: "r",
  }),
  input: { rowId: "r1" },
});

const answered = (version: number): BusReply => ({ ok: true, data: { version } });

describe("the key a write is sent with", () => {
  it("is the client's Idempotency-Key when it sent one", () => {
    const context = withIdempotencyKey({
      organizationId: "o",
      role: null,
      actor: null,
      requestId: "r",
      idempotencyKey: "k-1",
    });
    expect(context.idempotencyKey).toBe("k-1");
  });

  it("is otherwise one of the gateway's own, new for each request, which no client key can equal", () => {
    const keys = [edit(), edit()].map((request) => request.context.idempotencyKey as string);
    for (const key of keys) expect(key).toMatch(/^gateway [0-9a-f-]{36}$/);
    expect(keys[0]).not.toBe(keys[1]);
    // What the gateway takes from clients: 1-255 visible ASCII characters, so never a space.
    for (const key of keys) expect(key).not.toMatch(/^[\x21-\x7e]{1,255}$/);
  });
});

/** A bus that answers each request with the next of `replies`, and records what it was sent. */
class ScriptedBus extends InProcessBus {
  readonly sent: { request: BusRequest; options: RequestOptions | undefined }[] = [];
  constructor(private readonly replies: BusReply[]) {
    super();
  }
  override async request(_subject: string, request: BusRequest, options?: RequestOptions): Promise<BusReply> {
    this.sent.push({ request, options });
    const reply = this.replies.shift();
    if (!reply) throw new Error("asked more often than scripted");
    return reply;
  }
}

describe("a write whose outcome is unknown", () => {
  it("is sent again, with the same key, until an answer says what became of it", async () => {
    // The connection dropped with the write on its way; while it comes back the retry is not sent.
    const bus = new ScriptedBus([connectionLost(SUBJECT), notSent(SUBJECT), answered(7)]);
    const request = edit();
    expect(await requestWrite(bus, SUBJECT, request, 5_000, policy)).toEqual(answered(7));
    expect(bus.sent).toHaveLength(3);
    for (const { request: sent, options } of bus.sent) {
      expect(sent.input).toBe(request.input);
      expect(sent.context.idempotencyKey).toBe(request.context.idempotencyKey);
      expect(options?.silenceMs).toBe(policy.silenceMs);
    }
    // The first try is the request as it came; each later one says it is a resend, which a writer
    // behind on its work takes all the same (see GroupCommit.submit).
    expect(bus.sent.map(({ request: sent }) => sent.context.resend)).toEqual([undefined, true, true]);
    expect(request.context.resend).toBeUndefined();
  });

  it("is answered outcome_unknown, never a plain 503, when no answer comes within resendForMs", async () => {
    const bus = new ScriptedBus([connectionLost(SUBJECT), ...Array(20).fill(notSent(SUBJECT))]);
    const started = Date.now();
    const told: (readonly string[])[] = [];
    const reply = await requestWrite(bus, SUBJECT, edit(), 5_000, policy, (tries) => told.push(tries));
    const elapsed = Date.now() - started;
    expect(reply).toMatchObject({ ok: false, error: { code: "outcome_unknown" } });
    expect(reply.ok ? "" : reply.error.message).toMatch(/may|whether it was applied/);
    expect(elapsed).toBeGreaterThanOrEqual(policy.resendForMs - 5);
    expect(elapsed).toBeLessThan(policy.resendForMs + 300);
    // Told once, with how each try ended: what an operator reads to learn why no answer came.
    expect(told).toHaveLength(1);
    expect(told[0]?.[0]).toMatch(/^service_unavailable: The connection to the /);
    expect(told[0]?.slice(1).every((line) => line.startsWith("service_unavailable: "))).toBe(true);
    expect(told[0]).toHaveLength(bus.sent.length);
  });

  it("takes a service's own refusal after a resend as the answer: the resend was judged under the same key", async () => {
    const mismatch: BusReply = { ok: false, error: { code: "version_mismatch", message: "changed" } };
    const bus = new ScriptedBus([connectionLost(SUBJECT), mismatch]);
    expect(await requestWrite(bus, SUBJECT, edit(), 5_000, policy)).toEqual(mismatch);
    expect(bus.sent).toHaveLength(2);
  });
});

describe("a write whose outcome is known", () => {
  it("is not sent again when it reached no service: a plain 503, nothing was written", async () => {
    const bus = new ScriptedBus([notSent(SUBJECT)]);
    expect(await requestWrite(bus, SUBJECT, edit(), 5_000, policy)).toEqual(notSent(SUBJECT));
    expect(bus.sent).toHaveLength(1);
  });

  it("is answered once in one process, where a handler cannot die without its requester", async () => {
    const bus = new InProcessBus();
    let calls = 0;
    bus.serve(SUBJECT, async () => {
      calls++;
      await new Promise((resolve) => setTimeout(resolve, policy.silenceMs * 2));
      return answered(3);
    });
    expect(await requestWrite(bus, SUBJECT, edit(), 5_000, policy)).toEqual(answered(3));
    expect(calls).toBe(1);
    await bus.close();
  });
});

describe.runIf(infra)("a write over NATS when the replica that took it dies", () => {
  const prefix = `resend${randomBytes(4).toString("hex")}`;
  const open: NatsBus[] = [];
  const connect_ = async () => {
    const bus = await NatsBus.connect({
      url: infra?.natsUrl as string,
      name: "write-resends-test",
      prefix,
      logger: silentLogger(),
    });
    open.push(bus);
    return bus;
  };
  afterEach(async () => {
    await Promise.all(open.splice(0).map((bus) => bus.close()));
  });

  /** A replica that takes the first request it gets and dies with it, as one SIGKILLed would. */
  async function dyingReplica(): Promise<{ took: Promise<BusRequest> }> {
    const nc = await connect({ servers: infra?.natsUrl as string });
    let took: (request: BusRequest) => void = () => undefined;
    const tookPromise = new Promise<BusRequest>((resolve) => {
      took = resolve;
    });
    nc.subscribe(`${prefix}.${SUBJECT}`, {
      queue: "svc",
      callback: (_error, msg) => {
        took(JSON.parse(new TextDecoder().decode(msg.data)) as BusRequest);
        void nc.close();
      },
    });
    await nc.flush();
    return { took: tookPromise };
  }

  it("sends it again to a replica that answers, under the same key, within silenceMs and a little", async () => {
    const client = await connect_();
    const survivor = await connect_();
    const dying = await dyingReplica();
    const keys: (string | undefined)[] = [];
    const request = edit();
    const sending = requestWrite(client, SUBJECT, request, 5_000, policy);
    const first = await dying.took;
    // The survivor subscribes once the victim has the write: the resend can go only to it.
    survivor.serve(SUBJECT, async (received) => {
      keys.push(received.context.idempotencyKey);
      return answered(5);
    });
    const started = Date.now();
    const reply = await sending;
    expect(reply).toEqual(answered(5));
    expect(Date.now() - started).toBeLessThan(policy.silenceMs + 300);
    expect(first.context.idempotencyKey).toBe(request.context.idempotencyKey);
    expect(keys).toEqual([request.context.idempotencyKey]);
  });

  it("waits, without sending again, for a replica that takes longer but says it still works", async () => {
    const client = await connect_();
    const slow = await connect_();
    let calls = 0;
    // The replica's signs of work come every WORKING_EVERY_MS from this same busy test process: a
    // silence five times that long leaves room for its timers to run late on a loaded machine.
    const patient: ResendPolicy = { ...policy, silenceMs: 5 * WORKING_EVERY_MS };
    slow.serve(SUBJECT, async () => {
      calls++;
      await new Promise((resolve) => setTimeout(resolve, patient.silenceMs * 3));
      return answered(9);
    });
    await slow.connection.flush();
    expect(await requestWrite(client, SUBJECT, edit(), 10_000, patient)).toEqual(answered(9));
    expect(calls).toBe(1);
  });

  it("answers outcome_unknown when no replica is left to ask", async () => {
    const client = await connect_();
    const dying = await dyingReplica();
    const started = Date.now();
    const sending = requestWrite(client, SUBJECT, edit(), 5_000, policy);
    await dying.took;
    const reply = await sending;
    const elapsed = Date.now() - started;
    expect(reply).toMatchObject({ ok: false, error: { code: "outcome_unknown" } });
    expect(elapsed).toBeGreaterThanOrEqual(policy.silenceMs + policy.resendForMs - 10);
    expect(elapsed).toBeLessThan(policy.silenceMs + policy.resendForMs + 400);
  });
});
