import { randomBytes } from "node:crypto";
import { type Bus, callOperation, callSubject, type RawInput } from "@svc/bus";
import {
  type CreatedApiKey,
  DomainError,
  type Organization,
  operations,
  type RequestContext,
  type Role,
  subjects,
  verifiedCredentialSchema,
} from "@svc/contracts";
import type { Database } from "@svc/db";
import { type BackendName, type ServedBackend, serveOnBackend } from "@svc/testing";
import type { Kysely } from "kysely";
import { type AuthDeps, registerAuth } from "./service";

/** A backend with the auth service serving on its bus, as the gateway would find it. */
export interface AuthHarness extends ServedBackend {
  bus: Bus;
  db: Kysely<Database>;
}

export async function startAuth(
  name: BackendName,
  options: Pick<AuthDeps, "clock" | "sessionLifetimes" | "oauthLifetimes"> = {},
): Promise<AuthHarness> {
  const served = await serveOnBackend(name, (deps) => registerAuth({ ...deps, ...options }));
  return { ...served, bus: served.backend.bus, db: served.backend.database.db };
}

export const uniqueSuffix = (): string => randomBytes(4).toString("hex");

const requestId = (): string => `test-${uniqueSuffix()}`;

export const raw = (input: Partial<RawInput> = {}): RawInput => ({
  params: {},
  query: {},
  body: undefined,
  headers: {},
  ...input,
});

/** What the gateway sends for the operator token, and for the credential check itself. */
export const anonymousContext = (): RequestContext => ({
  organizationId: null,
  role: null,
  actor: null,
  requestId: requestId(),
});

export async function verify(bus: Bus, token: unknown) {
  const data = await callSubject(bus, subjects.auth.verify, {
    context: anonymousContext(),
    input: { token },
  });
  return verifiedCredentialSchema.parse(data);
}

/** The context the gateway builds after verifying `token`. */
async function contextFor(bus: Bus, token: string): Promise<RequestContext> {
  const credential = await verify(bus, token);
  return { ...credential, requestId: requestId() };
}

export interface OrganizationFixture {
  organization: Organization;
  ownerKey: CreatedApiKey;
  owner: RequestContext;
}

export async function makeOrganization(
  bus: Bus,
  name = `Org ${uniqueSuffix()}`,
): Promise<OrganizationFixture> {
  const created = await callOperation(
    bus,
    operations.createOrganization,
    anonymousContext(),
    raw({ body: { name } }),
  );
  return { ...created, ownerKey: created.apiKey, owner: await contextFor(bus, created.apiKey.token) };
}

export interface KeyFixture {
  key: CreatedApiKey;
  context: RequestContext;
}

export async function makeKey(bus: Bus, by: RequestContext, role: Role): Promise<KeyFixture> {
  const key = await callOperation(
    bus,
    operations.createApiKey,
    by,
    raw({ body: { name: `${role} key`, role } }),
  );
  return { key, context: await contextFor(bus, key.token) };
}

/** The same caller, sending an Idempotency-Key as the gateway passes it on. */
export const withIdempotencyKey = (context: RequestContext, key: string): RequestContext => ({
  ...context,
  idempotencyKey: key,
});

export async function makeMember(
  bus: Bus,
  by: RequestContext,
  role: Role,
  email = `${uniqueSuffix()}@example.com`,
) {
  return callOperation(bus, operations.addMember, by, raw({ body: { email, role } }));
}

/** The domain error a call ended with, as data, so that a test can assert all of it at once. */
export async function failureOf(call: Promise<unknown>) {
  try {
    await call;
  } catch (error) {
    if (error instanceof DomainError) return { status: error.status, ...error.toData() };
    throw error;
  }
  throw new Error("expected the call to fail, but it succeeded");
}
