import packageJson from "../package.json" with { type: "json" };

/** Bus subjects: versioned constants, never literals in services. */
export const subjects = {
  auth: {
    verify: "svc.v1.auth.verify",
    credentialRevoked: "svc.v1.auth.events.credential-revoked",
  },
  organizations: { create: "svc.v1.organizations.create" },
  account: { get: "svc.v1.account.get", updateUser: "svc.v1.account.user.update" },
  apiKeys: {
    list: "svc.v1.api-keys.list",
    create: "svc.v1.api-keys.create",
    get: "svc.v1.api-keys.get",
    rename: "svc.v1.api-keys.rename",
    revoke: "svc.v1.api-keys.revoke",
  },
  projects: {
    list: "svc.v1.projects.list",
    create: "svc.v1.projects.create",
    get: "svc.v1.projects.get",
    update: "svc.v1.projects.update",
    delete: "svc.v1.projects.delete",
  },
  members: {
    list: "svc.v1.members.list",
    add: "svc.v1.members.add",
    update: "svc.v1.members.update",
    remove: "svc.v1.members.remove",
    leave: "svc.v1.members.leave",
  },
  datasets: {
    list: "svc.v1.datasets.list",
    get: "svc.v1.datasets.get",
    create: "svc.v1.datasets.create",
    update: "svc.v1.datasets.update",
    delete: "svc.v1.datasets.delete",
  },
  rows: {
    list: "svc.v1.datasets.rows.list",
    count: "svc.v1.datasets.rows.count",
    get: "svc.v1.datasets.rows.get",
    history: "svc.v1.datasets.rows.history",
    insert: "svc.v1.datasets.rows.insert",
    update: "svc.v1.datasets.rows.update",
    updateMany: "svc.v1.datasets.rows.update-many",
    copy: "svc.v1.datasets.rows.copy",
    delete: "svc.v1.datasets.rows.delete",
    importTraces: "svc.v1.datasets.rows.import-traces",
  },
  /** Internal: a page of a dataset's versions as live-change events, for the gateway's streams. */
  datasetEvents: { page: "svc.v1.datasets.events.page" },
  exports: { chunk: "svc.v1.datasets.export.chunk" },
  imports: { start: "svc.v1.datasets.imports.start", get: "svc.v1.datasets.imports.get" },
  columns: {
    list: "svc.v1.datasets.columns.list",
    create: "svc.v1.datasets.columns.create",
    rename: "svc.v1.datasets.columns.rename",
    remove: "svc.v1.datasets.columns.remove",
    restore: "svc.v1.datasets.columns.restore",
    reorder: "svc.v1.datasets.columns.reorder",
  },
  versions: {
    list: "svc.v1.datasets.versions.list",
    get: "svc.v1.datasets.versions.get",
    diff: "svc.v1.datasets.versions.diff",
    restore: "svc.v1.datasets.versions.restore",
  },
  /** Internal: the OAuth authorization server that lets MCP agents in; `auth` answers, the gateway speaks HTTP. */
  oauth: {
    registerClient: "svc.v1.auth.oauth.clients.register",
    checkAuthorization: "svc.v1.auth.oauth.authorization.check",
    approveAuthorization: "svc.v1.auth.oauth.authorization.approve",
    token: "svc.v1.auth.oauth.token",
    revoke: "svc.v1.auth.oauth.revoke",
  },
  /** Internal: browser sessions of the web application; `auth` answers, the gateway keeps the cookie. */
  sessions: {
    create: "svc.v1.auth.sessions.create",
    end: "svc.v1.auth.sessions.end",
    issueSignInCode: "svc.v1.auth.sessions.sign-in-codes.issue",
    emailSignInLink: "svc.v1.auth.sessions.sign-in-codes.email",
    /** A person whose address an identity provider has verified (single sign-on) signs in. */
    verifiedEmail: "svc.v1.auth.sessions.verified-email",
  },
  experiments: {
    create: "svc.v1.experiments.create",
    list: "svc.v1.experiments.list",
    get: "svc.v1.experiments.get",
    update: "svc.v1.experiments.update",
    delete: "svc.v1.experiments.delete",
    pending: "svc.v1.experiments.pending",
    recordResults: "svc.v1.experiments.results.record",
    recordScores: "svc.v1.experiments.scores.record",
    results: "svc.v1.experiments.results.list",
    compare: "svc.v1.experiments.compare",
  },
  traces: {
    ingest: "svc.v1.traces.ingest",
    list: "svc.v1.traces.list",
    get: "svc.v1.traces.get",
    metrics: "svc.v1.traces.metrics",
    sessions: "svc.v1.traces.sessions",
    users: "svc.v1.traces.users",
  },
  modelPrices: {
    list: "svc.v1.model-prices.list",
    set: "svc.v1.model-prices.set",
    delete: "svc.v1.model-prices.delete",
  },
} as const;

/**
 * The platform's services, with what `nats micro ls` says of them: each announces itself on the bus
 * when it runs, and the gateway's `/readyz` pings each.
 */
export const platformServices = {
  auth: "API keys, organisations, members, projects, sign-in and OAuth",
  "dataset-writer": "Every change of a dataset: rows, columns, versions and imports",
  reader: "Every query of datasets, rows, columns, versions and traces",
  "trace-ingest": "Traces received over OTLP/HTTP, and the model prices that cost them",
  experiments: "Experiments: results recorded over dataset versions, their scores and comparisons",
} as const;
export type PlatformService = keyof typeof platformServices;

/** The version every service reports: they are released together. */
export const platformVersion: string = packageJson.version;
