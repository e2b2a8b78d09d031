import * as apiKeys from "../../../services/auth/src/repositories/api-keys";
import * as browserSessions from "../../../services/auth/src/repositories/browser-sessions";
import * as members from "../../../services/auth/src/repositories/members";
import * as oauthClients from "../../../services/auth/src/repositories/oauth-clients";
import * as oauthCodes from "../../../services/auth/src/repositories/oauth-codes";
import * as oauthGrants from "../../../services/auth/src/repositories/oauth-grants";
import * as organizations from "../../../services/auth/src/repositories/organizations";
import * as projects from "../../../services/auth/src/repositories/projects";
import * as users from "../../../services/auth/src/repositories/users";
import { snapshotOf } from "../render";
import { apiKeyRow, at, inTransaction, later, memberRow, projectRow, userRow } from "./values";

export const auth = [
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
      updateApiKeyCreator: [{ run: (db) => apiKeys.updateApiKeyCreator(db, "key_1", "usr_1") }],
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
      listOpenBrowserSessionIdsOfMember: [
        { run: (db) => browserSessions.listOpenBrowserSessionIdsOfMember(db, "mem_1") },
      ],
      insertSignInCode: [
        {
          variant: "for a key",
          run: (db) =>
            browserSessions.insertSignInCode(db, {
              codeHash: "hash_2",
              apiKeyId: "key_1",
              createdAt: at,
              expiresAt: later,
            }),
        },
        {
          variant: "mailed to a member",
          run: (db) =>
            browserSessions.insertSignInCode(db, {
              codeHash: "hash_2",
              memberId: "mem_1",
              email: "ada@example.com",
              createdAt: at,
              expiresAt: later,
            }),
        },
      ],
      updateSignInCodeUsed: [{ run: (db) => browserSessions.updateSignInCodeUsed(db, "hash_2", at) }],
      findOptionalSignInCodeState: [
        { run: (db) => browserSessions.findOptionalSignInCodeState(db, "hash_2") },
      ],
      deleteExpiredSignInCodes: [{ run: (db) => browserSessions.deleteExpiredSignInCodes(db, at) }],
    },
  }),
  snapshotOf({
    source: "services/auth/src/repositories/members.ts",
    module: members,
    statements: {
      insertMemberIfNew: [
        {
          run: (db) =>
            members.insertMemberIfNew(db, {
              id: "mem_1",
              organizationId: "org_1",
              userId: "usr_1",
              role: "member",
              status: "invited",
              createdAt: at,
              updatedAt: at,
            }),
        },
      ],
      findMember: [{ run: (db) => members.findMember(db, "org_1", "mem_1"), answers: [[memberRow]] }],
      findOptionalMemberById: [{ run: (db) => members.findOptionalMemberById(db, "mem_1") }],
      findOptionalMemberOfUser: [{ run: (db) => members.findOptionalMemberOfUser(db, "org_1", "usr_1") }],
      listMembershipsOfEmail: [{ run: (db) => members.listMembershipsOfEmail(db, "ada@example.com") }],
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
      updateMemberRole: [{ run: (db) => members.updateMemberRole(db, "mem_1", "admin", at) }],
      updateMemberActive: [{ run: (db) => members.updateMemberActive(db, "mem_1", at) }],
      deleteMemberRecord: [{ run: (db) => members.deleteMemberRecord(db, "mem_1") }],
    },
  }),
  snapshotOf({
    source: "services/auth/src/repositories/users.ts",
    module: users,
    statements: {
      insertUser: [
        {
          run: (db) => users.insertUser(db, { id: "usr_1", email: null, name: "Owner" }, at),
          answers: [[userRow]],
        },
      ],
      upsertUserByEmail: [
        {
          run: (db) =>
            users.upsertUserByEmail(db, { id: "usr_1", email: "ada@example.com", name: "Ada" }, at),
          answers: [[], [userRow]],
        },
      ],
      findOptionalUser: [{ run: (db) => users.findOptionalUser(db, "usr_1") }],
      findOptionalUserByEmail: [{ run: (db) => users.findOptionalUserByEmail(db, "ada@example.com") }],
      updateUser: [
        {
          run: (db) => users.updateUser(db, "usr_1", { name: "Ada Lovelace", email: "ada@example.com" }, at),
          answers: [[], [userRow]],
        },
      ],
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
