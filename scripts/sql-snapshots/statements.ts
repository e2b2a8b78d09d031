/*
 * The repository functions whose SQL is kept in committed snapshots (`npm run sql` writes them, a test
 * fails when one is stale), each called with fixed representative arguments. Every exported function
 * of a listed file is here, or in its `noStatement` with the reason: a new function cannot be missed.
 */
import type { Database } from "@svc/db";
import type { Kysely, Transaction } from "kysely";
import * as apiKeys from "../../services/auth/src/repositories/api-keys";
import * as browserSessions from "../../services/auth/src/repositories/browser-sessions";
import * as members from "../../services/auth/src/repositories/members";
import * as oauthClients from "../../services/auth/src/repositories/oauth-clients";
import * as oauthCodes from "../../services/auth/src/repositories/oauth-codes";
import * as oauthGrants from "../../services/auth/src/repositories/oauth-grants";
import * as organizations from "../../services/auth/src/repositories/organizations";
import * as projects from "../../services/auth/src/repositories/projects";
import * as writerColumns from "../../services/dataset-writer/src/repositories/columns";
import * as writerDatasets from "../../services/dataset-writer/src/repositories/datasets";
import * as writerImports from "../../services/dataset-writer/src/repositories/imports";
import * as restore from "../../services/dataset-writer/src/repositories/restore";
import * as rowChanges from "../../services/dataset-writer/src/repositories/row-changes";
import * as rowCopies from "../../services/dataset-writer/src/repositories/row-copies";
import * as rowEdits from "../../services/dataset-writer/src/repositories/row-edits";
import * as writerRows from "../../services/dataset-writer/src/repositories/rows";
import * as readerColumns from "../../services/reader/src/repositories/columns";
import * as readerDatasets from "../../services/reader/src/repositories/datasets";
import * as diff from "../../services/reader/src/repositories/diff";
import * as readerImports from "../../services/reader/src/repositories/imports";
import * as readerRows from "../../services/reader/src/repositories/rows";
import * as spans from "../../services/reader/src/repositories/spans";
import * as versions from "../../services/reader/src/repositories/versions";
import * as ingestSpans from "../../services/trace-ingest/src/repositories/spans";
import * as ingestTraces from "../../services/trace-ingest/src/repositories/traces";
import * as sharedDatasets from "../../shared/db/src/datasets";
import * as idempotency from "../../shared/db/src/idempotency";
import * as sharedTraces from "../../shared/db/src/traces";
import { snapshotOf } from "./render";

// Representative values: short, fixed, and telling in the snapshots' parameter lists.
const ref = { organizationId: "org_1", projectSlug: "support", datasetSlug: "tickets" };
const at = new Date("2025-01-02T03:04:05.000Z");
const later = new Date("2025-01-03T03:04:05.000Z");
const actor = { kind: "apiKey", id: "key_1" } as const;
const search = { text: "refund", fields: ["input", "output"], customIdentifiers: ["c_1"] } as const;
const presence = {
  missing: [{ kind: "builtin", field: "expectedOutput" }],
  present: [{ kind: "custom", identifier: "c_1" }],
  equal: [{ cell: { kind: "builtin", field: "metadata" }, path: ["lang"], value: "en" }],
} as const;
const datasetRow = { id: "ds_1", current_version: 8 };
const apiKeyRow = { id: "key_1", role: "admin" };
const memberRow = { id: "mem_1", role: "member" };
const projectRow = { id: "prj_1", slug: "support" };
const datasetRecordRow = { id: "ds_1", version: 8 };
const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
const spanId = "00f067aa0ba902b7";
const scope = { organizationId: "org_1", key: "idem_1", operationId: "updateRow", request: { rowId: "r_1" } };

/** For the functions that take a transaction: the recorder's transactions send no statement. */
const inTransaction = (db: Kysely<Database>, work: (trx: Transaction<Database>) => Promise<unknown>) =>
  db.transaction().execute(work);

const datasetWriter = [
  snapshotOf({
    source: "services/dataset-writer/src/repositories/columns.ts",
    module: writerColumns,
    statements: {
      insertBuiltinColumns: [{ run: (db) => writerColumns.insertBuiltinColumns(db, "ds_1") }],
      listColumns: [{ run: (db) => writerColumns.listColumns(db, "ds_1") }],
      insertCustomColumn: [
        {
          run: (db) =>
            writerColumns.insertCustomColumn(db, { datasetId: "ds_1", identifier: "c_1", name: "Score" }),
        },
      ],
      updateColumn: [
        {
          variant: "every change at once",
          run: (db) =>
            writerColumns.updateColumn(db, "ds_1", "c_1", { name: "Score", removed: true, position: 2 }),
        },
        {
          variant: "restore",
          run: (db) => writerColumns.updateColumn(db, "ds_1", "c_1", { removed: false }),
        },
      ],
    },
    noStatement: { toContractColumn: "maps a record to the contract's column" },
  }),
  snapshotOf({
    source: "services/dataset-writer/src/repositories/datasets.ts",
    module: writerDatasets,
    statements: {
      takeNextVersion: [
        {
          run: (db) => inTransaction(db, (trx) => writerDatasets.takeNextVersion(trx, ref)),
          answers: [[datasetRow]],
        },
      ],
      existsDatasetSlug: [{ run: (db) => writerDatasets.existsDatasetSlug(db, "prj_1", "tickets") }],
      insertDataset: [
        {
          run: (db) =>
            writerDatasets.insertDataset(db, {
              id: "ds_1",
              organizationId: "org_1",
              projectId: "prj_1",
              slug: "tickets",
              name: "Tickets",
              description: null,
            }),
        },
      ],
      updateDataset: [
        {
          run: (db) =>
            writerDatasets.updateDataset(db, "ds_1", { name: "Tickets", description: "Support tickets" }),
        },
      ],
      touchDataset: [{ run: (db) => writerDatasets.touchDataset(db, "ds_1") }],
      deleteDataset: [{ run: (db) => writerDatasets.deleteDataset(db, "ds_1") }],
      existsDatasetName: [
        { variant: "a new dataset", run: (db) => writerDatasets.existsDatasetName(db, "prj_1", "Tickets") },
        {
          variant: "a rename",
          run: (db) => writerDatasets.existsDatasetName(db, "prj_1", "Tickets", "ds_1"),
        },
      ],
      refreshStatistics: [{ run: (db) => writerDatasets.refreshStatistics(db) }],
    },
    noStatement: { datasetClashOf: "reads a unique violation's constraint" },
  }),
  snapshotOf({
    source: "services/dataset-writer/src/repositories/imports.ts",
    module: writerImports,
    statements: {
      insertImport: [
        {
          run: (db) =>
            writerImports.insertImport(db, {
              id: "imp_1",
              organizationId: "org_1",
              datasetId: "ds_1",
              idempotencyKey: "idem_1",
              format: "jsonl",
              mode: "insert",
            }),
        },
      ],
      findImport: [{ run: (db) => writerImports.findImport(db, "org_1", "imp_1") }],
      findImportByKey: [{ run: (db) => writerImports.findImportByKey(db, "org_1", "idem_1") }],
      releaseInterruptedKey: [{ run: (db) => writerImports.releaseInterruptedKey(db, "org_1", "idem_1") }],
      recordProgress: [
        { run: (db) => writerImports.recordProgress(db, "imp_1", { bytesRead: 4096, rowsRead: 20 }) },
      ],
      finishImport: [
        {
          variant: "succeeded",
          run: (db) =>
            writerImports.finishImport(
              db,
              "imp_1",
              { state: "succeeded", versionId: "ver_1", version: 9, rowsInserted: 20, rowsUpdated: 0 },
              { bytesRead: 4096, rowsRead: 20 },
            ),
        },
        {
          variant: "failed",
          run: (db) =>
            writerImports.finishImport(
              db,
              "imp_1",
              { state: "failed", error: { code: "validation_failed", error: "Line 3 is not JSON" } },
              { bytesRead: 4096, rowsRead: 2 },
            ),
        },
      ],
      failAbandonedImports: [{ run: (db) => writerImports.failAbandonedImports(db, 60_000) }],
      stageRows: [
        {
          run: (db) =>
            writerImports.stageRows(db, "imp_1", [
              { seq: 0, line: 1, rowId: "r_1", cells: { input: "hi" }, custom: { c_1: 5 } },
            ]),
        },
      ],
      deleteStagedRows: [{ run: (db) => writerImports.deleteStagedRows(db, "imp_1") }],
      findRepeatedRowId: [{ run: (db) => writerImports.findRepeatedRowId(db, "imp_1") }],
      findStagedRows: [
        { variant: "existing", run: (db) => writerImports.findStagedRows(db, "imp_1", "ds_1", "existing") },
        { variant: "missing", run: (db) => writerImports.findStagedRows(db, "imp_1", "ds_1", "missing") },
      ],
      insertStagedRows: [{ run: (db) => writerImports.insertStagedRows(db, "imp_1", "ds_1", 9) }],
    },
    noStatement: { copyStagedRows: "a COPY FROM STDIN with a fixed text, sent through the pool" },
  }),
  snapshotOf({
    source: "services/dataset-writer/src/repositories/restore.ts",
    module: restore,
    statements: {
      restoreRows: [
        {
          variant: "a row each to delete, to change back and to bring back",
          run: (db) => restore.restoreRows(db, "ds_1", 5, 9),
          answers: [
            [{ row_id: "r_1" }], // gone
            [], // their live revisions end
            [{ count: 1 }], // their tombstones
            [{ row_id: "r_2" }], // updated
            [], // its live revision ends
            [], // its new revision
            [{ row_id: "r_3" }], // inserted
          ],
        },
      ],
      findOptionalVersionId: [{ run: (db) => restore.findOptionalVersionId(db, "ds_1", 5) }],
    },
  }),
  snapshotOf({
    source: "services/dataset-writer/src/repositories/row-changes.ts",
    module: rowChanges,
    statements: {
      findRowVersions: [{ run: (db) => rowChanges.findRowVersions(db, "ds_1", ["r_1", "r_2"]) }],
      applyRowChanges: [
        {
          run: (db) =>
            rowChanges.applyRowChanges(db, "ds_1", 9, [
              { rowId: "r_1", builtins: { output: "refunded" }, custom: { c_1: 5 } },
            ]),
        },
      ],
      applyStagedChanges: [{ run: (db) => rowChanges.applyStagedChanges(db, "imp_1", "ds_1", 9) }],
    },
  }),
  snapshotOf({
    source: "services/dataset-writer/src/repositories/row-copies.ts",
    module: rowCopies,
    statements: {
      listMissingRowIds: [
        {
          run: (db) =>
            rowCopies.listMissingRowIds(db, { datasetId: "ds_1", version: 8, provenance: {} }, [
              "r_1",
              "r_2",
            ]),
        },
      ],
      copyRows: [
        {
          variant: "selected rows that match a search, without expected output",
          run: (db) =>
            rowCopies.copyRows(db, {
              source: { datasetId: "ds_1", version: 8, provenance: { datasetId: "ds_1", version: 8 } },
              selection: { mode: "selected", rowIds: ["r_1", "r_2"] },
              search: { text: "refund", fields: ["input"], customIdentifiers: [] },
              presence: { missing: [], present: [{ kind: "custom", identifier: "c_1" }] },
              fields: ["input", "output", "metadata"],
              customMap: { c_1: "c_9" },
              target: { datasetId: "ds_2", version: 3 },
              idLimit: 100,
            }),
        },
      ],
    },
  }),
  snapshotOf({
    source: "services/dataset-writer/src/repositories/row-edits.ts",
    module: rowEdits,
    statements: {
      applyEdits: [
        {
          variant: "a batch of two edits, one with If-Match",
          run: (db) =>
            rowEdits.applyEdits(db, [
              {
                ref,
                rowId: "r_1",
                ifMatch: 7,
                builtins: { output: "refunded" },
                custom: {},
                versionId: "ver_1",
                actor,
              },
              {
                ref,
                rowId: "r_2",
                ifMatch: undefined,
                builtins: {},
                custom: { c_1: 5 },
                versionId: "ver_2",
                actor,
              },
            ]),
        },
      ],
    },
  }),
  snapshotOf({
    source: "services/dataset-writer/src/repositories/rows.ts",
    module: writerRows,
    statements: {
      listExistingRowIds: [{ run: (db) => writerRows.listExistingRowIds(db, "ds_1", ["r_1", "r_2"]) }],
      insertRows: [
        {
          run: (db) =>
            writerRows.insertRows(db, "ds_1", 9, [
              {
                rowId: "r_1",
                input: "Where is my refund?",
                output: null,
                expectedOutput: "On its way",
                metadata: { lang: "en" },
                custom: { c_1: 5 },
                createdAt: at,
              },
            ]),
        },
      ],
      closeRevisions: [{ run: (db) => writerRows.closeRevisions(db, "ds_1", ["r_1", "r_2"], 9) }],
      deleteRowsWithTombstones: [
        {
          variant: "selected rows",
          run: (db) =>
            writerRows.deleteRowsWithTombstones(db, "ds_1", { mode: "selected", rowIds: ["r_1", "r_2"] }, 9),
        },
        {
          variant: "all rows but some",
          run: (db) =>
            writerRows.deleteRowsWithTombstones(db, "ds_1", { mode: "allExcept", rowIds: ["r_3"] }, 9),
        },
        {
          variant: "all rows",
          run: (db) => writerRows.deleteRowsWithTombstones(db, "ds_1", { mode: "all" }, 9),
        },
      ],
      insertVersion: [
        {
          run: (db) =>
            writerRows.insertVersion(db, {
              id: "ver_1",
              datasetId: "ds_1",
              version: 9,
              operation: "delete",
              rowsDeleted: 2,
              actor,
            }),
        },
      ],
    },
    noStatement: { selectionFilter: "a condition, snapshotted in deleteRowsWithTombstones and copyRows" },
  }),
];

const reader = [
  snapshotOf({
    source: "services/reader/src/repositories/columns.ts",
    module: readerColumns,
    statements: {
      listColumns: [
        { variant: "active", run: (db) => readerColumns.listColumns(db, "ds_1", { includeRemoved: false }) },
        {
          variant: "removed ones included",
          run: (db) => readerColumns.listColumns(db, "ds_1", { includeRemoved: true }),
        },
      ],
      listActiveColumnsByDataset: [
        { run: (db) => readerColumns.listActiveColumnsByDataset(db, ["ds_1", "ds_2"]) },
      ],
    },
  }),
  snapshotOf({
    source: "services/reader/src/repositories/datasets.ts",
    module: readerDatasets,
    statements: {
      listDatasets: [
        {
          variant: "first page by name",
          run: (db) =>
            readerDatasets.listDatasets(db, {
              projectId: "prj_1",
              sortBy: "name",
              direction: "asc",
              after: undefined,
              limit: 51,
            }),
        },
        {
          variant: "next page by name",
          run: (db) =>
            readerDatasets.listDatasets(db, {
              projectId: "prj_1",
              sortBy: "name",
              direction: "asc",
              after: { value: "tickets", id: "ds_1" },
              limit: 51,
            }),
        },
        {
          variant: "next page, most recently updated first",
          run: (db) =>
            readerDatasets.listDatasets(db, {
              projectId: "prj_1",
              sortBy: "updatedAt",
              direction: "desc",
              after: { value: "2025-01-02T03:04:05.123456Z", id: "ds_1" },
              limit: 51,
            }),
        },
      ],
    },
  }),
  snapshotOf({
    source: "services/reader/src/repositories/diff.ts",
    module: diff,
    statements: {
      listChangedRows: [
        {
          run: (db) =>
            diff.listChangedRows(db, { datasetId: "ds_1", from: 5, to: 9, afterRowId: "r_1", limit: 101 }),
        },
      ],
    },
  }),
  snapshotOf({
    source: "services/reader/src/repositories/imports.ts",
    module: readerImports,
    statements: { findImport: [{ run: (db) => readerImports.findImport(db, "ds_1", "imp_1") }] },
  }),
  snapshotOf({
    source: "services/reader/src/repositories/rows.ts",
    module: readerRows,
    statements: {
      listCurrentRows: [
        {
          variant: "first page",
          run: (db) =>
            readerRows.listCurrentRows(db, {
              datasetId: "ds_1",
              direction: "asc",
              after: undefined,
              limit: 51,
              search: undefined,
            }),
        },
        {
          variant: "next page of a search",
          run: (db) =>
            readerRows.listCurrentRows(db, {
              datasetId: "ds_1",
              direction: "asc",
              after: { createdAt: "2025-01-02T03:04:05.123456Z", rowId: "r_1" },
              limit: 51,
              search,
            }),
        },
        {
          variant: "a jump to a position, newest first, with cell conditions",
          run: (db) =>
            readerRows.listCurrentRows(db, {
              datasetId: "ds_1",
              direction: "desc",
              after: undefined,
              offset: 500,
              limit: 51,
              search: undefined,
              presence,
            }),
        },
      ],
      listRowsAtVersion: [
        {
          variant: "next page of a search",
          run: (db) =>
            readerRows.listRowsAtVersion(db, {
              datasetId: "ds_1",
              version: 5,
              direction: "asc",
              after: { createdAt: "2025-01-02T03:04:05.123456Z", rowId: "r_1" },
              limit: 51,
              search,
            }),
        },
        {
          variant: "a jump to a position, with cell conditions",
          run: (db) =>
            readerRows.listRowsAtVersion(db, {
              datasetId: "ds_1",
              version: 5,
              direction: "asc",
              after: undefined,
              offset: 500,
              limit: 51,
              search: undefined,
              presence,
            }),
        },
      ],
      findOptionalCurrentRow: [{ run: (db) => readerRows.findOptionalCurrentRow(db, "ds_1", "r_1") }],
      findOptionalRowAtVersion: [{ run: (db) => readerRows.findOptionalRowAtVersion(db, "ds_1", "r_1", 5) }],
      listRowRevisions: [
        {
          run: (db) =>
            readerRows.listRowRevisions(db, { datasetId: "ds_1", rowId: "r_1", before: 9, limit: 21 }),
        },
      ],
    },
  }),
  snapshotOf({
    source: "services/reader/src/repositories/spans.ts",
    module: spans,
    statements: {
      listSpans: [{ run: (db) => spans.listSpans(db, "prj_1", "4bf92f3577b34da6a3ce929d0e0e4736") }],
    },
  }),
  snapshotOf({
    source: "services/reader/src/repositories/versions.ts",
    module: versions,
    statements: {
      listVersions: [{ run: (db) => versions.listVersions(db, { datasetId: "ds_1", before: 9, limit: 21 }) }],
      findOptionalVersion: [{ run: (db) => versions.findOptionalVersion(db, "ds_1", 5) }],
    },
  }),
];

const auth = [
  snapshotOf({
    source: "services/auth/src/repositories/api-keys.ts",
    module: apiKeys,
    statements: {
      insertApiKey: [
        {
          run: (db) =>
            apiKeys.insertApiKey(db, {
              id: "key_1",
              organizationId: "org_1",
              name: "CI",
              role: "admin",
              tokenHash: "hash_1",
              tokenLast4: "a1b2",
              createdAt: at,
            }),
          answers: [[apiKeyRow]],
        },
      ],
      listActiveApiKeys: [{ run: (db) => apiKeys.listActiveApiKeys(db, "org_1") }],
      findActiveApiKey: [
        { run: (db) => apiKeys.findActiveApiKey(db, "org_1", "key_1"), answers: [[apiKeyRow]] },
      ],
      findOptionalActiveApiKeyById: [{ run: (db) => apiKeys.findOptionalActiveApiKeyById(db, "key_1") }],
      findOptionalActiveApiKeyByHash: [{ run: (db) => apiKeys.findOptionalActiveApiKeyByHash(db, "hash_1") }],
      existsApiKeyHash: [{ run: (db) => apiKeys.existsApiKeyHash(db, "hash_1") }],
      countActiveOwnerKeys: [
        { run: (db) => apiKeys.countActiveOwnerKeys(db, "org_1"), answers: [[{ count: "1" }]] },
      ],
      updateApiKeyName: [
        { run: (db) => apiKeys.updateApiKeyName(db, "org_1", "key_1", "Deploys"), answers: [[apiKeyRow]] },
      ],
      updateApiKeyRevoked: [{ run: (db) => apiKeys.updateApiKeyRevoked(db, "key_1", at) }],
      updateApiKeyLastUsed: [{ run: (db) => apiKeys.updateApiKeyLastUsed(db, "key_1") }],
    },
  }),
  snapshotOf({
    source: "services/auth/src/repositories/browser-sessions.ts",
    module: browserSessions,
    statements: {
      insertBrowserSession: [
        {
          run: (db) =>
            browserSessions.insertBrowserSession(db, {
              id: "ses_1",
              tokenHash: "hash_1",
              organizationId: "org_1",
              apiKeyId: "key_1",
              createdAt: at,
              expiresAt: later,
            }),
        },
      ],
      findOptionalActiveBrowserSession: [
        { run: (db) => browserSessions.findOptionalActiveBrowserSession(db, "hash_1", later, at) },
      ],
      updateBrowserSessionLastSeen: [
        { run: (db) => browserSessions.updateBrowserSessionLastSeen(db, "ses_1", at) },
      ],
      updateBrowserSessionEnded: [
        { run: (db) => browserSessions.updateBrowserSessionEnded(db, "hash_1", at) },
      ],
      listOpenBrowserSessionIdsOfApiKey: [
        { run: (db) => browserSessions.listOpenBrowserSessionIdsOfApiKey(db, "key_1") },
      ],
      insertSignInCode: [
        {
          run: (db) =>
            browserSessions.insertSignInCode(db, {
              codeHash: "hash_2",
              apiKeyId: "key_1",
              createdAt: at,
              expiresAt: later,
            }),
        },
      ],
      updateSignInCodeUsed: [{ run: (db) => browserSessions.updateSignInCodeUsed(db, "hash_2", at) }],
      deleteExpiredSignInCodes: [{ run: (db) => browserSessions.deleteExpiredSignInCodes(db, at) }],
    },
  }),
  snapshotOf({
    source: "services/auth/src/repositories/members.ts",
    module: members,
    statements: {
      insertMemberIfEmailFree: [
        {
          run: (db) =>
            members.insertMemberIfEmailFree(db, {
              id: "mem_1",
              organizationId: "org_1",
              email: "ada@example.com",
              role: "member",
              createdAt: at,
              updatedAt: at,
            }),
        },
      ],
      findMember: [{ run: (db) => members.findMember(db, "org_1", "mem_1"), answers: [[memberRow]] }],
      listMembers: [
        { variant: "first page", run: (db) => members.listMembers(db, "org_1", undefined, 51) },
        {
          variant: "next page",
          run: (db) => members.listMembers(db, "org_1", { createdAt: at, id: "mem_1" }, 51),
        },
      ],
      countOwnerMembers: [
        { run: (db) => members.countOwnerMembers(db, "org_1"), answers: [[{ count: "1" }]] },
      ],
      updateMemberRole: [
        { run: (db) => members.updateMemberRole(db, "mem_1", "admin", at), answers: [[memberRow]] },
      ],
      deleteMemberRecord: [{ run: (db) => members.deleteMemberRecord(db, "mem_1") }],
    },
  }),
  snapshotOf({
    source: "services/auth/src/repositories/oauth-clients.ts",
    module: oauthClients,
    statements: {
      insertOAuthClient: [
        {
          run: (db) =>
            oauthClients.insertOAuthClient(db, {
              id: "cli_1",
              name: "Agent",
              uri: null,
              scope: null,
              redirectUris: ["http://127.0.0.1:33418/callback"],
              grantTypes: ["authorization_code", "refresh_token"],
              createdAt: at,
            }),
          answers: [[{ id: "cli_1" }]],
        },
      ],
      findOptionalOAuthClient: [{ run: (db) => oauthClients.findOptionalOAuthClient(db, "cli_1") }],
    },
  }),
  snapshotOf({
    source: "services/auth/src/repositories/oauth-codes.ts",
    module: oauthCodes,
    statements: {
      insertOAuthCode: [
        {
          run: (db) =>
            oauthCodes.insertOAuthCode(db, {
              codeHash: "hash_3",
              clientId: "cli_1",
              organizationId: "org_1",
              apiKeyId: "key_1",
              role: "member",
              redirectUri: "http://127.0.0.1:33418/callback",
              codeChallenge: "challenge_1",
              scope: null,
              resource: null,
              createdAt: at,
              expiresAt: later,
            }),
        },
      ],
      findOptionalOAuthCodeForUpdate: [
        { run: (db) => oauthCodes.findOptionalOAuthCodeForUpdate(db, "hash_3") },
      ],
      updateOAuthCodeUsed: [{ run: (db) => oauthCodes.updateOAuthCodeUsed(db, "hash_3", "grant_1", at) }],
    },
  }),
  snapshotOf({
    source: "services/auth/src/repositories/oauth-grants.ts",
    module: oauthGrants,
    statements: {
      insertOAuthGrant: [
        {
          run: (db) =>
            oauthGrants.insertOAuthGrant(db, {
              id: "grant_1",
              organizationId: "org_1",
              clientId: "cli_1",
              apiKeyId: "key_1",
              role: "member",
              scope: null,
              resource: null,
              createdAt: at,
            }),
        },
      ],
      insertOAuthTokens: [
        {
          run: (db) =>
            oauthGrants.insertOAuthTokens(db, [
              { tokenHash: "hash_4", grantId: "grant_1", kind: "access", createdAt: at, expiresAt: later },
              { tokenHash: "hash_5", grantId: "grant_1", kind: "refresh", createdAt: at, expiresAt: later },
            ]),
        },
      ],
      findOptionalActiveAccessToken: [
        { run: (db) => oauthGrants.findOptionalActiveAccessToken(db, "hash_4", at) },
      ],
      findUnrevokedOAuthGrantIdsOfApiKey: [
        { run: (db) => oauthGrants.findUnrevokedOAuthGrantIdsOfApiKey(db, "org_1", "key_1") },
      ],
      findOptionalOAuthToken: [{ run: (db) => oauthGrants.findOptionalOAuthToken(db, "hash_4") }],
      findOptionalOAuthTokenForUpdate: [
        { run: (db) => oauthGrants.findOptionalOAuthTokenForUpdate(db, "hash_5") },
      ],
      updateOAuthTokenRevoked: [{ run: (db) => oauthGrants.updateOAuthTokenRevoked(db, "hash_5", at) }],
      updateOAuthGrantRevoked: [{ run: (db) => oauthGrants.updateOAuthGrantRevoked(db, "grant_1", at) }],
    },
  }),
  snapshotOf({
    source: "services/auth/src/repositories/organizations.ts",
    module: organizations,
    statements: {
      listOrganizationSlugsLike: [{ run: (db) => organizations.listOrganizationSlugsLike(db, "acme") }],
      insertOrganizationIfSlugFree: [
        {
          run: (db) =>
            organizations.insertOrganizationIfSlugFree(db, {
              id: "org_1",
              name: "Acme",
              slug: "acme",
              createdAt: at,
            }),
        },
      ],
      findOptionalOrganization: [{ run: (db) => organizations.findOptionalOrganization(db, "org_1") }],
      findOptionalOldestOrganization: [{ run: (db) => organizations.findOptionalOldestOrganization(db) }],
      lockOrganization: [
        { run: (db) => inTransaction(db, (trx) => organizations.lockOrganization(trx, "org_1")) },
      ],
      lockBootstrap: [{ run: (db) => inTransaction(db, (trx) => organizations.lockBootstrap(trx)) }],
    },
  }),
  snapshotOf({
    source: "services/auth/src/repositories/projects.ts",
    module: projects,
    statements: {
      insertProjectIfFree: [
        {
          run: (db) =>
            projects.insertProjectIfFree(db, {
              id: "prj_1",
              organizationId: "org_1",
              slug: "support",
              name: "Support",
              createdAt: at,
              updatedAt: at,
            }),
        },
      ],
      existsProjectName: [
        { variant: "a new project", run: (db) => projects.existsProjectName(db, "org_1", "Support") },
        { variant: "a rename", run: (db) => projects.existsProjectName(db, "org_1", "Support", "prj_1") },
      ],
      findProject: [{ run: (db) => projects.findProject(db, "org_1", "support"), answers: [[projectRow]] }],
      findProjectForUpdate: [
        { run: (db) => projects.findProjectForUpdate(db, "org_1", "support"), answers: [[projectRow]] },
      ],
      listProjects: [
        { variant: "first page", run: (db) => projects.listProjects(db, "org_1", undefined, 51) },
        {
          variant: "next page",
          run: (db) => projects.listProjects(db, "org_1", { createdAt: at, id: "prj_1" }, 51),
        },
      ],
      updateProjectName: [
        { run: (db) => projects.updateProjectName(db, "prj_1", "Helpdesk", at), answers: [[projectRow]] },
      ],
      deleteProjectRecord: [{ run: (db) => projects.deleteProjectRecord(db, "prj_1") }],
    },
    noStatement: { projectNameTaken: "builds the conflict error" },
  }),
];

const traceIngest = [
  snapshotOf({
    source: "services/trace-ingest/src/repositories/spans.ts",
    module: ingestSpans,
    statements: {
      upsertSpans: [
        {
          run: (db) =>
            ingestSpans.upsertSpans(db, "prj_1", [
              {
                traceId,
                spanId,
                parentSpanId: null,
                name: "chat",
                kind: 3,
                startNs: "1735787045000000000",
                endNs: "1735787046000000000",
                statusCode: 1,
                statusMessage: null,
                attributes: { "gen_ai.request.model": "small" },
                resourceAttributes: { "service.name": "support-bot" },
                scope: { name: "agent", version: null },
                events: [],
                links: [],
                sessionId: "s_1",
                userId: null,
                tags: ["beta"],
                models: ["small"],
                tokensInput: 12,
                tokensOutput: 30,
                costMicrocents: 4,
                input: "Where is my refund?",
                output: "On its way",
              },
            ]),
        },
      ],
      listSpanOutlines: [{ run: (db) => ingestSpans.listSpanOutlines(db, "prj_1", [traceId]) }],
      listSpanMessages: [{ run: (db) => ingestSpans.listSpanMessages(db, "prj_1", [{ traceId, spanId }]) }],
    },
  }),
  snapshotOf({
    source: "services/trace-ingest/src/repositories/traces.ts",
    module: ingestTraces,
    statements: {
      lockTraces: [{ run: (db) => ingestTraces.lockTraces(db, "prj_1", [traceId]) }],
      updateTraceSummaries: [
        {
          run: (db) =>
            ingestTraces.updateTraceSummaries(db, "prj_1", [
              {
                traceId,
                spanCount: 1,
                errorCount: 0,
                startNs: "1735787045000000000",
                endNs: "1735787046000000000",
                durationNs: "1000000000",
                rootSpanId: spanId,
                rootSpanName: "chat",
                sessionId: "s_1",
                userId: null,
                tags: ["beta"],
                models: ["small"],
                tokensInput: 12,
                tokensOutput: 30,
                tokensTotal: 42,
                costTotalMicrocents: 4,
                input: "Where is my refund?",
                output: "On its way",
              },
            ]),
        },
      ],
    },
  }),
];

const sharedDb = [
  snapshotOf({
    source: "shared/db/src/datasets.ts",
    module: sharedDatasets,
    statements: {
      findOptionalProjectId: [{ run: (db) => sharedDatasets.findOptionalProjectId(db, "org_1", "support") }],
      findProjectId: [
        { run: (db) => sharedDatasets.findProjectId(db, "org_1", "support"), answers: [[{ id: "prj_1" }]] },
      ],
      findDataset: [{ run: (db) => sharedDatasets.findDataset(db, ref), answers: [[datasetRecordRow]] }],
      findDatasetForUpdate: [
        {
          run: (db) => inTransaction(db, (trx) => sharedDatasets.findDatasetForUpdate(trx, ref)),
          answers: [[datasetRecordRow]],
        },
      ],
    },
    noStatement: { datasetNotFound: "builds the not-found error" },
  }),
  snapshotOf({
    source: "shared/db/src/idempotency.ts",
    module: idempotency,
    statements: {
      claimIdempotencyKeys: [
        {
          variant: "one key claimed, one taken before",
          run: (db) =>
            inTransaction(db, (trx) =>
              idempotency.claimIdempotencyKeys(trx, [
                scope,
                { ...scope, key: "idem_2", request: { rowId: "r_2" } },
              ]),
            ),
          answers: [[{ organization_id: "org_1", key: "idem_1" }]],
        },
      ],
      storeIdempotentResponses: [
        {
          run: (db) =>
            inTransaction(db, (trx) =>
              idempotency.storeIdempotentResponses(trx, [
                { organizationId: "org_1", key: "idem_1", response: { version: 9 } },
              ]),
            ),
        },
      ],
      releaseIdempotencyKeys: [
        {
          run: (db) =>
            inTransaction(db, (trx) =>
              idempotency.releaseIdempotencyKeys(trx, [{ organizationId: "org_1", key: "idem_1" }]),
            ),
        },
      ],
      runIdempotent: [
        {
          variant: "a new key: claimed, the mutation runs, its answer is stored",
          run: (db) => idempotency.runIdempotent(db, scope, async () => ({ version: 9 })),
          answers: [[{ key: "idem_1" }]],
        },
        {
          variant: "a key used before with another request",
          run: (db) => idempotency.runIdempotent(db, scope, async () => ({ version: 9 })),
          answers: [[], [{ request_hash: "another request", response: null, created_at: at }]],
          throws: true,
        },
      ],
      pruneIdempotencyRecords: [{ run: (db) => idempotency.pruneIdempotencyRecords(db, later) }],
    },
    noStatement: {
      idempotencyOf: "builds a scope from a request",
      idempotencyKeyReused: "builds the conflict error",
    },
  }),
  snapshotOf({
    source: "shared/db/src/traces.ts",
    module: sharedTraces,
    statements: {
      listTraceRecords: [
        {
          variant: "first page, newest first",
          run: (db) => sharedTraces.listTraceRecords(db, { projectId: "prj_1", limit: 51 }),
        },
        {
          variant: "next page of some traces, with a filter of each kind, by cost",
          run: (db) =>
            sharedTraces.listTraceRecords(db, {
              projectId: "prj_1",
              traceIds: [traceId],
              filters: [
                { field: "traceId", op: "in", value: [traceId] },
                { field: "startTime", op: "gte", value: "1735787045000000000" },
                { field: "errorCount", op: "gt", value: 0 },
                { field: "sessionId", op: "neq", value: "s_1" },
                { field: "rootSpanName", op: "contains", value: "chat" },
                { field: "tags", op: "contains", value: "beta" },
                { field: "models", op: "containsAny", value: ["small", "large"] },
              ],
              sortBy: "costTotalMicrocents",
              sortDirection: "asc",
              after: { value: "4", traceId },
              limit: 51,
            }),
        },
      ],
    },
  }),
];

export const snapshotFiles = [...datasetWriter, ...reader, ...auth, ...traceIngest, ...sharedDb];
