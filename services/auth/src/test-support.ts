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
import { type BackendName, harnessForSuite, type ServedBackend, serveOnBackend } from "@svc/testing";
import type { Kysely } from "kysely";
import { expect } from "vitest";
import type { AuthDeps } from "./deps";
import { registerAuth } from "./service";

/** A backend with the auth service serving on its bus, as the gateway would find it. */
export interface AuthHarness extends ServedBackend {
  bus: Bus;
  db: Kysely<Database>;
}

type AuthOptions = Pick<AuthDeps, "clock" | "sessionLifetimes" | "oauthLifetimes" | "mailer" | "publicUrl">;

export async function startAuth(name: BackendName, options: AuthOptions = {}): Promise<AuthHarness> {
  const served = await serveOnBackend(name, (deps) => registerAuth({ ...deps, ...options }));
  return { ...served, bus: served.backend.bus, db: served.backend.database.db };
}

/** A suite's auth service, with the fixtures below made on its bus. */
export interface AuthSuite extends AuthHarness {
  /** Sends `input` on `subject` with no credential, as the gateway does for a sign-in or an OAuth call. */
  ask(subject: string, input: unknown): Promise<unknown>;
  makeOrganization(name?: string): Promise<OrganizationFixture>;
  makeKey(by: RequestContext, role: Role): Promise<KeyFixture>;
  makeMember(by: RequestContext, role: Role, email?: string): ReturnType<typeof makeMember>;
  verify(token: unknown): ReturnType<typeof verify>;
}

/**
 * The auth service for one suite: started on its own backend before the suite's tests and stopped
 * after them. Its fields are set once `beforeAll` has run; its fixtures can be called from then on.
 */
export function authSuite(name: BackendName, options: AuthOptions = {}): AuthSuite {
  const harness = harnessForSuite(() => startAuth(name, options));
  return Object.assign(harness, {
    ask: (subject: string, input: unknown) =>
      callSubject(harness.bus, subject, { context: anonymousContext(), input }),
    makeOrganization: (organizationName?: string) => makeOrganization(harness.bus, organizationName),
    makeKey: (by: RequestContext, role: Role) => makeKey(harness.bus, by, role),
    makeMember: (by: RequestContext, role: Role, email?: string) => makeMember(harness.bus, by, role, email),
    verify: (token: unknown) => verify(harness.bus, token),
  });
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
export async function contextFor(bus: Bus, token: string): Promise<RequestContext> {
  const credential = await verify(bus, token);
  return { ...credential, requestId: requestId() };
}

/** A key as its creation first answers it, with its token. */
export type IssuedKey = CreatedApiKey & { token: string };

/** The key of a first answer: its token is there (a replay's is not). */
export function issued(key: CreatedApiKey): IssuedKey {
  const { token } = key;
  if (token === null) throw new Error(`key ${key.id} was answered without its token`);
  return { ...key, token };
}

export interface OrganizationFixture {
  organization: Organization;
  ownerKey: IssuedKey;
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
  const ownerKey = issued(created.apiKey);
  return { ...created, ownerKey, owner: await contextFor(bus, ownerKey.token) };
}

export interface KeyFixture {
  key: IssuedKey;
  context: RequestContext;
}

export async function makeKey(bus: Bus, by: RequestContext, role: Role): Promise<KeyFixture> {
  const key = issued(
    await callOperation(bus, operations.createApiKey, by, raw({ body: { name: `${role} key`, role } })),
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
  const { inviteUrl: _shownOnce, ...member } = await callOperation(
    bus,
    operations.addMember,
    by,
    raw({ body: { email, role } }),
  );
  return member;
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

/**
 * Checks a resource an organisation just created: a new id, the organisation's id, `fields`, and one
 * ISO instant for both its creation and its last update.
 */
export function expectCreatedIn(
  organizationId: string,
  resource: { createdAt: string },
  fields: Record<string, unknown>,
): void {
  expect(resource).toEqual({
    id: expect.stringMatching(/^[a-z0-9]{24}$/),
    organizationId,
    ...fields,
    createdAt: resource.createdAt,
    updatedAt: resource.createdAt,
  });
  expect(new Date(resource.createdAt).toISOString()).toBe(resource.createdAt);
}
