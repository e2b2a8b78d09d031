import type { Database } from "@svc/db";
import type { Kysely, Transaction } from "kysely";

// Representative values: short, fixed, and telling in the snapshots' parameter lists.
export const ref = { organizationId: "org_1", projectSlug: "support", datasetSlug: "tickets" };
export const at = new Date("2025-01-02T03:04:05.000Z");
export const later = new Date("2025-01-03T03:04:05.000Z");
export const actor = { kind: "apiKey", id: "key_1" } as const;
export const search = { text: "refund", fields: ["input", "output"], customIdentifiers: ["c_1"] } as const;
export const presence = {
  missing: [{ kind: "builtin", field: "expectedOutput" }],
  present: [{ kind: "custom", identifier: "c_1" }],
  equal: [{ cell: { kind: "builtin", field: "metadata" }, path: ["lang"], value: "en" }],
} as const;
export const datasetRow = { id: "ds_1", current_version: 8 };
export const apiKeyRow = { id: "key_1", role: "admin", createdByUserId: null, createdByName: null };
export const memberRow = { id: "mem_1", role: "member", status: "active" };
export const userRow = { id: "usr_1", email: "ada@example.com", name: "Ada" };
export const projectRow = { id: "prj_1", slug: "support" };
export const datasetRecordRow = { id: "ds_1", version: 8 };
export const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
export const spanId = "00f067aa0ba902b7";
export const scope = {
  organizationId: "org_1",
  key: "idem_1",
  operationId: "updateRow",
  request: { rowId: "r_1" },
};

/** For the functions that take a transaction: the recorder's transactions send no statement. */
export const inTransaction = (db: Kysely<Database>, work: (trx: Transaction<Database>) => Promise<unknown>) =>
  db.transaction().execute(work);

/** What the one span says of its turn, which its trace's summary repeats. */
export const turn = {
  sessionId: "s_1",
  userId: null,
  tags: ["beta"],
  models: ["small"],
  tokensInput: 12,
  tokensOutput: 30,
  input: "Where is my refund?",
  output: "On its way",
};
