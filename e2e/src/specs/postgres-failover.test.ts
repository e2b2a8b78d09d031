import { realInfra } from "@svc/testing";
import { PostgresPair, postgresPairAvailable } from "@svc/testing/postgres-pair";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditVersions, changesOfEdits, revisionsByValue } from "../audit";
import { EditLoad, type EditTarget, makeEditTargets } from "../edit-load";
import { client } from "../http";
import { type Platform, startPlatform, waitFor } from "../platform";

const infra = realInfra();

/** What the issue asks of a failover: writers take edits again within this of the primary's loss. */
const RESUMED_WITHIN_MS = 10_000;

describe.runIf(infra && postgresPairAvailable())(
  "the PostgreSQL primary lost under a 16-client edit load, its synchronous standby promoted",
  () => {
    let pair: PostgresPair;
    let platform: Platform;
    let scratchUrl: string;
    let workers: EditTarget[][];
    beforeAll(async () => {
      pair = await PostgresPair.start();
      await pair.replicateSynchronously();
      platform = await startPlatform({
        databaseServerUrl: pair.primaryUrl,
        // Every service is given both servers, as libpq takes them, and connects to the writable one.
        serviceDatabaseUrl: (url) => {
          scratchUrl = url;
          return pair.onBoth(url, "read-write");
        },
        readyTimeoutMs: 90_000,
      });
      const api = client(platform.baseUrl, platform.ownerKey);
      const project = await api.post<{ slug: string }>("/v1/projects", { name: "Failover" });
      expect(project.status).toBe(201);
      workers = await makeEditTargets(api, project.body.slug, { datasets: 4, rows: 16, workers: 16 });
    }, 180_000);
    afterAll(async () => {
      // The scratch database was on the lost primary: dropping it there cannot work, and the pair's
      // data directories go with the pair.
      await platform?.stop().catch(() => undefined);
      await pair?.stop();
    });

    it("takes edits again within ten seconds, on the promoted standby, with every acknowledged edit there", async () => {
      const load = new EditLoad(
        {
          baseUrl: platform.baseUrl,
          apiKey: platform.ownerKey,
          requestTimeoutMs: 20_000,
          maxDurationMs: 60_000,
          idempotencyKeys: true,
        },
        workers,
      );
      const acknowledged = (n: number, what: string, timeoutMs = 15_000) =>
        waitFor(what, async () => (load.acknowledged.length > n ? true : undefined), timeoutMs);
      await acknowledged(200, "edits acknowledged before the loss");

      await pair.killPrimary();
      // From here on the primary is gone (pg_ctl waited for it): an edit sent later and acknowledged
      // was written on the promoted standby.
      const lostAt = Date.now();
      const beforeLoss = load.acknowledged.length;
      // What an operator's tooling does on seeing the primary gone; the services are not told.
      await pair.promoteStandby();
      const promotedMs = Date.now() - lostAt;
      const firstAck = await waitFor(
        "an edit sent after the loss and acknowledged",
        async () => load.answers.find((a) => a.status === 200 && a.startedAt > lostAt),
        30_000,
      );
      await acknowledged(load.acknowledged.length + 300, "edits acknowledged on the new primary");
      await load.stop();

      const resumedMs = firstAck.answeredAt - lostAt;
      const afterLoss = load.answers.filter((a) => a.answeredAt >= lostAt);
      const refusals = load.answers.filter((a) => a.status !== 200);
      const newPrimary = pair.onStandby(scratchUrl, "failover-audit");
      const applied = await revisionsByValue(newPrimary);
      const lost = load.acknowledged.filter((edit) => applied.get(edit.value) !== 1);
      console.info(
        `PostgreSQL failover under 16 clients: ${beforeLoss} edits acknowledged before the loss, ` +
          `${load.acknowledged.length} in all; standby promoted ${promotedMs} ms after the primary died, ` +
          `first acknowledged edit ${resumedMs} ms after it; ${refusals.length} refused meanwhile ` +
          `(${JSON.stringify([...new Set(refusals.map((a) => `${a.status} ${a.code}`))])}), ` +
          `${afterLoss.length} answers after the loss; ${lost.length} acknowledged edits lost`,
      );
      expect(resumedMs).toBeLessThan(RESUMED_WITHIN_MS);
      // Not compared with promotedMs: the standby takes writes a little before the promotion's
      // script returns (once 108 against 152 ms in CI). That the edits after the loss were written on
      // the promoted standby is shown below, where every acknowledged edit is found there.
      expect(load.count(0)).toBe(0);
      // A refusal is retryable and says so: 503 with Retry-After; never a 500.
      expect([...new Set(refusals.map((a) => a.status))].filter((s) => s !== 503)).toEqual([]);
      expect(refusals.filter((a) => a.retryAfter === undefined)).toEqual([]);
      // Synchronous replication: every acknowledged edit is on the new primary, once, at the version
      // it was acknowledged with, and versions are gapless.
      expect(lost).toEqual([]);
      await auditVersions(newPrimary, changesOfEdits(load.acknowledged));
      expect(platform.processes.every((p) => p.child.exitCode === null && p.child.signalCode === null)).toBe(
        true,
      );
    }, 150_000);
  },
);
