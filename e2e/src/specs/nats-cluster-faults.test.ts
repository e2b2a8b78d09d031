import { openDatabase } from "@svc/db";
import { realInfra } from "@svc/testing";
import { NatsCluster, type NatsNode } from "@svc/testing/nats-cluster";
import { sql } from "kysely";
import { connect, type JetStreamManager } from "nats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditVersions, changesOfEdits, revisionsByValue, storedRows } from "../audit";
import { type Answer, EditLoad, type EditTarget, makeEditTargets } from "../edit-load";
import { client } from "../http";
import { privateNatsAvailable } from "../nats-server";
import { type Platform, startPlatform, waitFor } from "../platform";

const infra = realInfra();

/** What the issue asks of a lost node: every request caught by it answered within this of the loss. */
const ANSWERED_WITHIN_MS = 2_000;

/** One node lost: when, which, and what the load saw of it. */
interface Loss {
  role: string;
  node: string;
  killedAt: number;
  /** The longest any answer given after the kill took, counted from the kill or its own sending. */
  worstMs: number;
  /** From the kill to the first edit sent after it and acknowledged. */
  firstAckMs: number;
  caught: number;
  refused: number;
  rejoinMs: number;
}

describe.runIf(infra && privateNatsAvailable())(
  "a NATS cluster of three, each node lost in turn under a 16-client edit load",
  () => {
    let cluster: NatsCluster;
    let platform: Platform;
    let workers: EditTarget[][];
    beforeAll(async () => {
      cluster = await NatsCluster.start(3);
      platform = await startPlatform({ natsUrl: cluster.natsUrl, env: { SVC_JETSTREAM_REPLICAS: "3" } });
      const api = client(platform.baseUrl, platform.ownerKey);
      const project = await api.post<{ slug: string }>("/v1/projects", { name: "Cluster" });
      expect(project.status).toBe(201);
      workers = await makeEditTargets(api, project.body.slug, { datasets: 4, rows: 16, workers: 16 });
    }, 60_000);
    afterAll(async () => {
      await platform?.stop();
      await cluster?.stop();
    });

    /** A JetStream manager on the cluster, to see the buckets' streams as the services made them. */
    async function withJetStream<T>(use: (jsm: JetStreamManager) => Promise<T>): Promise<T> {
      const nc = await connect({ servers: cluster.nodes.filter((n) => n.running).map((n) => n.url) });
      try {
        return await use(await nc.jetstreamManager());
      } finally {
        await nc.close();
      }
    }

    it("answers within two seconds of each loss, loses no acknowledged edit, and takes the node back by itself", async () => {
      const load = new EditLoad(
        {
          baseUrl: platform.baseUrl,
          apiKey: platform.ownerKey,
          requestTimeoutMs: 20_000,
          maxDurationMs: 50_000,
        },
        workers,
      );
      const acknowledged = (n: number, what: string) =>
        waitFor(what, async () => (load.acknowledged.length > n ? true : undefined), 15_000);
      await acknowledged(200, "edits acknowledged before any loss");

      // The gateways' rate-limit bucket is a stream of three copies, one on each node.
      const rateLimits = `KV_${platform.busPrefix}_rate_limits`;
      const info = await withJetStream((jsm) => jsm.streams.info(rateLimits));
      expect(info.config.num_replicas).toBe(3);

      const losses: Loss[] = [];
      // The node the gateway is on (its requests in flight lose their way back), then the dataset-writer's
      // (the edits it holds lose theirs), then whichever one is left.
      for (const role of ["gateway", "dataset-writer", "any"]) {
        const victim: NatsNode =
          (role === "any"
            ? cluster.nodes.find((n) => !losses.some((l) => l.node === n.name))
            : await cluster.nodeOf(role)) ?? (cluster.nodes[0] as NatsNode);
        const killedAt = Date.now();
        await cluster.kill(victim);
        const firstAck = await waitFor(
          "an edit sent after the loss and acknowledged",
          async () => load.answers.find((a) => a.status === 200 && a.startedAt > killedAt),
          15_000,
        );
        await acknowledged(load.acknowledged.length + 200, "edits acknowledged on the nodes left");
        const restartedAt = Date.now();
        await cluster.restart(victim);
        await cluster.waitFormed();
        // The bucket's copy on the node that came back catches up with no operator.
        await waitFor(
          `${victim.name}'s copy of the rate-limit bucket to be current`,
          async () => {
            const stream = await withJetStream((jsm) => jsm.streams.info(rateLimits));
            const copies = [stream.cluster?.leader, ...(stream.cluster?.replicas ?? []).map((r) => r.name)];
            const current = (stream.cluster?.replicas ?? []).every((r) => r.current && !r.offline);
            return copies.includes(victim.name) && current ? true : undefined;
          },
          20_000,
        );
        const rejoinMs = Date.now() - restartedAt;
        const afterKill = load.answers.filter((a: Answer) => a.answeredAt >= killedAt);
        const caught = afterKill.filter((a) => a.startedAt < killedAt);
        losses.push({
          role,
          node: victim.name,
          killedAt,
          worstMs: Math.max(...afterKill.map((a) => a.answeredAt - Math.max(a.startedAt, killedAt))),
          firstAckMs: firstAck.answeredAt - killedAt,
          caught: caught.length,
          refused: afterKill.filter((a) => a.status !== 200).length,
          rejoinMs,
        });
        await acknowledged(load.acknowledged.length + 100, "edits acknowledged with every node back");
      }
      await load.stop();

      const applied = await revisionsByValue(platform.databaseUrl);
      const lost = load.acknowledged.filter((edit) => applied.get(edit.value) !== 1);
      console.info(
        `NATS cluster of 3 under 16 clients: ${load.acknowledged.length} edits acknowledged, ${load.failed.length} ` +
          `refused (${JSON.stringify([...new Set(load.failed.map((f) => `${f.status} ${f.code}`))])}), ` +
          `${lost.length} acknowledged edits lost; per loss: ` +
          losses
            .map(
              (l) =>
                `${l.role} node ${l.node}: ${l.caught} in flight, worst answer ${l.worstMs} ms after the kill, ` +
                `first acknowledged edit after ${l.firstAckMs} ms, ${l.refused} refused, rejoined in ${l.rejoinMs} ms`,
            )
            .join("; "),
      );
      expect(losses.map((l) => l.node).sort()).toEqual(cluster.nodes.map((n) => n.name).sort());
      expect(load.count(0)).toBe(0);
      for (const loss of losses) {
        expect(loss.worstMs).toBeLessThan(ANSWERED_WITHIN_MS);
      }
      // A refusal is retryable and says so: 503 with Retry-After; never a 500 or a 504.
      const refusals = load.answers.filter((a) => a.status !== 200);
      expect([...new Set(refusals.map((a) => a.status))].filter((s) => s !== 503)).toEqual([]);
      expect(refusals.filter((a) => a.retryAfter === undefined)).toEqual([]);
      // Nothing acknowledged is lost, each acknowledged edit applied once, and versions are gapless.
      expect(lost).toEqual([]);
      await auditVersions(platform.databaseUrl, changesOfEdits(load.acknowledged));
      expect(platform.processes.every((p) => p.child.exitCode === null && p.child.signalCode === null)).toBe(
        true,
      );
    }, 120_000);

    it("finishes or clearly refuses every upload in progress when a node is lost, and stores no part of any", async () => {
      const api = client(platform.baseUrl, platform.ownerKey);
      const project = await api.post<{ slug: string }>("/v1/projects", { name: "Cluster uploads" });
      const rows = 20_000;
      const file = Buffer.from(
        Array.from({ length: rows }, (_, i) =>
          JSON.stringify({ id: `r${i}`, input: { q: i, text: "x".repeat(100) } }),
        ).join("\n"),
      );
      const makeTargets = (phase: string) =>
        Promise.all(
          Array.from({ length: UPLOADS }, async (_, i) => {
            const dataset = await api.post<{ slug: string; id: string }>(
              `/v1/projects/${project.body.slug}/datasets`,
              { name: `Upload ${phase} ${i}` },
            );
            expect(dataset.status).toBe(201);
            return {
              base: `/v1/projects/${project.body.slug}/datasets/${dataset.body.slug}`,
              datasetId: dataset.body.id,
              key: `cluster-upload-${phase}-${i}-${Date.now()}`,
            };
          }),
        );
      type Target = Awaited<ReturnType<typeof makeTargets>>[number];
      const uploads = await makeTargets("gateway");
      /** The file sent slowly, so that every upload is still arriving when the node dies. */
      const send = (upload: Target) => {
        const startedAt = Date.now();
        return fetch(`${platform.baseUrl}${upload.base}/imports`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${platform.ownerKey}`,
            "content-type": "application/x-ndjson",
            "idempotency-key": upload.key,
          },
          body: paced(file, UPLOAD_PIECE_BYTES, UPLOAD_PIECE_EVERY_MS),
          duplex: "half",
        } as RequestInit)
          .then(async (response) => ({
            status: response.status,
            retryAfter: response.headers.get("retry-after") ?? undefined,
            body: (await response.json()) as Partial<Import> & { code?: string; error?: unknown },
            tookMs: Date.now() - startedAt,
          }))
          .catch((error: unknown) => ({
            status: 0,
            retryAfter: undefined,
            body: { error: `${String(error)} (${String((error as Error).cause)})` } as Partial<Import> & {
              code?: string;
              error?: unknown;
            },
            tookMs: Date.now() - startedAt,
          }));
      };
      /**
       * Where an import ended: succeeded or failed, never left running. A wait that runs out says
       * what the import and the database were doing (an import's last step, ANALYZE, once took over
       * 30 s on a machine loaded by other work).
       */
      const settled = (upload: Target, importId: string) => {
        let last = "no answer yet";
        return waitFor(
          `import ${importId} to end`,
          async () => {
            const now = await api.get<Import>(`${upload.base}/imports/${importId}`);
            last = `${now.status} ${JSON.stringify(now.body)}`;
            return now.body.state === "succeeded" || now.body.state === "failed" ? now.body : undefined;
          },
          IMPORT_ENDS_WITHIN_MS,
        ).catch(async (error: unknown) => {
          throw new Error(
            `${String(error)}; its last state: ${last}; the database was running: ${await databaseActivity(platform.databaseUrl)}`,
          );
        });
      };

      // The gateway's node dies while every file is part-way up.
      const answers = uploads.map(send);
      await new Promise((resolve) => setTimeout(resolve, UPLOAD_PIECE_EVERY_MS * 8));
      const victim = (await cluster.nodeOf("gateway")) ?? (cluster.nodes[0] as NatsNode);
      await cluster.kill(victim);
      const first = await Promise.all(answers);
      const ends = await Promise.all(
        first.map(async (answer, i) => {
          const upload = uploads[i] as Target;
          if (answer.status !== 202) return { answer, end: undefined };
          return { answer, end: await settled(upload, answer.body.importId ?? "") };
        }),
      );
      console.info(
        `${UPLOADS} uploads of ${file.length} bytes, gateway's node ${victim.name} killed part-way: ` +
          ends
            .map(({ answer, end }) =>
              end
                ? `202 after ${answer.tookMs} ms, then ${end.state}${end.error ? ` (${end.error.code})` : ""}`
                : `${answer.status} ${answer.body.code ?? ""} after ${answer.tookMs} ms`,
            )
            .join("; "),
      );
      for (const { answer, end } of ends) {
        // Each upload is answered (no hang, no dropped connection), and a refusal is retryable and says so.
        expect(answer.status === 202 || answer.status === 503, JSON.stringify(answer)).toBe(true);
        if (answer.status === 503) expect(answer.retryAfter).toBeDefined();
        expect(answer.tookMs).toBeLessThan(ANSWERED_WITHIN_UPLOAD_MS);
        if (end?.state === "failed") expect(end.error?.code).toBe("service_unavailable");
      }
      // Nothing half-stored: each dataset holds the whole file or nothing.
      for (const [i, upload] of uploads.entries()) {
        const stored = await storedRows(platform.databaseUrl, upload.datasetId);
        const succeeded = ends[i]?.end?.state === "succeeded";
        expect(stored).toEqual(succeeded ? { rows, version: 1 } : { rows: 0, version: 0 });
      }

      // With the node back, each upload sent again with its key ends with the file imported once. A
      // client sends a refused file again after the Retry-After it was given, as the SDKs do.
      await cluster.restart(victim);
      await cluster.waitFormed();
      /** Sends each file again with its key, after each Retry-After, until it is taken and imported. */
      const refusalsAgain: number[] = [];
      const importAgain = (targets: Target[]) =>
        Promise.all(
          targets.map(async (upload) => {
            let again = await send(upload);
            for (let attempt = 1; again.status === 503 && attempt < 10; attempt++) {
              await new Promise((resolve) => setTimeout(resolve, Number(again.retryAfter ?? 1) * 1_000));
              again = await send(upload);
              refusalsAgain.push(attempt);
            }
            expect(again.status, JSON.stringify(again)).toBe(202);
            const end = await settled(upload, again.body.importId ?? "");
            expect(end, JSON.stringify(end)).toMatchObject({ state: "succeeded" });
            expect(await storedRows(platform.databaseUrl, upload.datasetId)).toEqual({ rows, version: 1 });
          }),
        );
      await importAgain(uploads);

      // The dataset-writer's node dies while it reads the files back from the bucket: each import
      // ends, imported whole or failed saying that nothing was written, and is imported once when sent again.
      const reads = await makeTargets("writer");
      const taken = await Promise.all(reads.map(send));
      for (const answer of taken) expect(answer.status, JSON.stringify(answer)).toBe(202);
      await waitFor(
        "every import part-way",
        async () => {
          const states = await Promise.all(
            reads.map((upload, i) => api.get<Import>(`${upload.base}/imports/${taken[i]?.body.importId}`)),
          );
          return states.every((now) => (now.body.rowsRead ?? 0) > 0 || now.body.state !== "running")
            ? true
            : undefined;
        },
        30_000,
      );
      const writerNode = (await cluster.nodeOf("dataset-writer")) ?? (cluster.nodes[1] as NatsNode);
      await cluster.kill(writerNode);
      const readEnds = await Promise.all(
        reads.map((upload, i) => settled(upload, taken[i]?.body.importId ?? "")),
      );
      console.info(
        `${UPLOADS} imports read back while the writer's node ${writerNode.name} was killed: ` +
          readEnds
            .map((end) => `${end.state}${end.error ? ` (${end.error.code}: ${end.error.error})` : ""}`)
            .join("; "),
      );
      for (const [i, upload] of reads.entries()) {
        const end = readEnds[i] as Import;
        if (end.state === "failed") expect(end.error?.code).toBe("service_unavailable");
        expect(await storedRows(platform.databaseUrl, upload.datasetId)).toEqual(
          end.state === "succeeded" ? { rows, version: 1 } : { rows: 0, version: 0 },
        );
      }
      await cluster.restart(writerNode);
      await cluster.waitFormed();
      await importAgain(reads.filter((_, i) => readEnds[i]?.state !== "succeeded"));
      console.info(
        `Sent again with the nodes back: ${refusalsAgain.length} more refusals before the files were taken`,
      );
      await auditVersions(platform.databaseUrl);
    }, 300_000);
  },
);

/** How long an import of the test's file may take to end, on a loaded machine. */
const IMPORT_ENDS_WITHIN_MS = 90_000;

/** Uploads in progress when a node dies. */
const UPLOADS = 4;
/**
 * The most an upload caught by a lost node may take from its first byte to its answer: sending the
 * file (about 2 s here), then at most the store's wait for an acknowledgement and its cleanup.
 */
const ANSWERED_WITHIN_UPLOAD_MS = 12_000;
const UPLOAD_PIECE_BYTES = 128 * 1024;
const UPLOAD_PIECE_EVERY_MS = 40;

interface Import {
  importId: string;
  state: string;
  rowsRead?: number;
  rowsInserted?: number;
  error?: { code: string; error: string };
}

/** `bytes` as a request body that arrives `size` bytes at a time, one piece every `everyMs`. */
function paced(bytes: Buffer, size: number, everyMs: number): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    async pull(controller) {
      if (offset >= bytes.length) return controller.close();
      if (offset > 0) await new Promise((resolve) => setTimeout(resolve, everyMs));
      controller.enqueue(new Uint8Array(bytes.subarray(offset, offset + size)));
      offset += size;
    },
  });
}

/** What each other session of the platform's database is doing, and for how long. */
async function databaseActivity(databaseUrl: string): Promise<string> {
  const handle = await openDatabase({ url: databaseUrl, poolSize: 1 });
  try {
    const { rows } = await sql<{ state: string; seconds: number; query: string }>`
      SELECT state, extract(epoch FROM now() - query_start)::int AS seconds, left(query, 100) AS query
      FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid() AND state <> 'idle'`.execute(handle.db);
    return JSON.stringify(rows);
  } finally {
    await handle.close();
  }
}
