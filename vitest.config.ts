import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

const INFRA_SETUP = "shared/testing/src/global-setup.ts";

export default defineConfig({
  resolve: { conditions: ["source"] },
  ssr: { resolve: { conditions: ["source"] } },
  test: {
    // PostgreSQL and NATS from containers when the environment names none and Docker is there.
    globalSetup: [INFRA_SETUP],
    // Two files at a time for the unit and service projects (Vitest would take one on two cores);
    // the browser and end-to-end projects then run alone, one file at a time, in that order.
    maxWorkers: 2,
    // These ship TypeScript under the "source" condition that the workspace uses for its own packages:
    // Vite must transform them, as Node cannot load .ts from node_modules.
    server: { deps: { inline: ["@modelcontextprotocol/sdk", "eventsource-parser", "eventsource"] } },
    projects: [
      {
        extends: true,
        test: {
          name: "services",
          include: [
            "shared/**/src/**/*.test.ts",
            "services/**/src/**/*.test.ts",
            "scripts/**/*.test.ts",
            "bench/src/**/*.test.ts",
          ],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The web application's components, in a simulated DOM; its browser tests are in e2e/src/specs/web.
        plugins: [react()],
        resolve: {
          alias: { "@svc/sdk": fileURLToPath(new URL("sdks/typescript/src/index.ts", import.meta.url)) },
        },
        test: {
          name: "web",
          include: ["web/src/**/*.test.{ts,tsx}"],
          environment: "happy-dom",
        },
      },
      {
        extends: true,
        test: {
          name: "infra",
          include: ["infra/**/*.test.ts"],
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: "browser",
          include: ["e2e/src/specs/web/**/*.test.ts"],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["e2e/**/*.test.ts"],
          exclude: ["e2e/src/specs/web/**"],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          sequence: { groupOrder: 2 },
        },
      },
      {
        // End-to-end suites that reach every kind of statement the services send (group-committed
        // edits, COPY imports, transactions, cursors, the search index, migrations from six processes at
        // once), run again with PgBouncer in
        // transaction mode between the services and PostgreSQL. The whole e2e project passes that way
        // too (SVC_E2E_PGBOUNCER=1 npx vitest run --project e2e); these keep it so in every run.
        extends: true,
        test: {
          name: "pgbouncer",
          include: [
            "e2e/src/specs/imports.test.ts",
            "e2e/src/specs/versions.test.ts",
            "e2e/src/specs/experiments.test.ts",
            "e2e/src/specs/monitoring.test.ts",
          ],
          env: { SVC_E2E_PGBOUNCER: "1" },
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          sequence: { groupOrder: 3 },
        },
      },
      {
        extends: true,
        test: {
          name: "cli",
          include: ["cli/**/*.test.ts"],
          globalSetup: [INFRA_SETUP, "cli/test/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 240_000,
        },
      },
      {
        // The same tests with the single executable (which runs on Bun) in place of the built script
        // (which runs on Node), but for those that test the executable or the release themselves.
        extends: true,
        test: {
          name: "cli-executable",
          include: ["cli/test/**/*.test.ts"],
          exclude: ["cli/test/binary.test.ts", "cli/test/release.test.ts", "cli/test/root-build.test.ts"],
          env: { SVC_TEST_EXECUTABLE: "1" },
          globalSetup: [INFRA_SETUP, "cli/test/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 240_000,
        },
      },
      {
        extends: true,
        test: {
          name: "sdks",
          include: ["sdks/**/*.test.ts"],
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
