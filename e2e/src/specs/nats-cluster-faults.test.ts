import { realInfra } from "@svc/testing";
import { NatsCluster, type NatsNode } from "@svc/testing/nats-cluster";
import { connect, type JetStreamManager } from "nats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditVersions, changesOfEdits, revisionsByValue } from "../audit";
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
  },
);
