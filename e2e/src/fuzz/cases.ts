import { gzipSync } from "node:zlib";
import fc from "fast-check";
import { type BodyCase, bodyArbitrary, bodyOf } from "./bodies";
import type { Document, FuzzOperation, JsonSchema, Parameter } from "./document";
import { resolverOf } from "./document";
import type { Fixtures } from "./fixtures";
import { CONTENT_TYPES, NASTY_QUERY_VALUES, NASTY_SEGMENTS, NASTY_STRINGS } from "./nasty";
import { arbitraryOf } from "./schema-arbitrary";

/*
 * A fuzz case says what to send in terms of the fixtures ("the dataset's slug", "a row's id"), so that
 * it stays meaningful when a case before it deleted and the suite re-created them: `requestOf` turns
 * it into bytes against the fixtures of the moment.
 */

/** A value: one of the fixtures' (by parameter name), or text as it goes on the wire. */
type Piece = { fixture: string } | { wire: string };

export interface FuzzCase {
  operationId: string;
  method: string;
  path: Record<string, Piece>;
  query: [string, Piece][];
  headers: Record<string, Piece>;
  /** "usual": the one the operation takes (none without a body); else this one, or none. */
  contentType: "usual" | { given: string | undefined };
  encoding: "none" | "gzip" | "not gzip" | "br";
  auth: "key" | "none" | "malformed" | "unknown key" | "operator";
  body: BodyCase;
}

export interface WireRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: Buffer | undefined;
  /** What was changed from a valid request, for a person reading a failure. */
  label: string;
}

/** Query and header parameters whose valid value comes from the fixtures, not from the schema. */
const FIXTURE_QUERY = new Set(["version", "from", "to"]);

const piece = (fixture: string, nasty: readonly string[], weight = 6): fc.Arbitrary<Piece> =>
  fc.oneof(
    { weight, arbitrary: fc.constant({ fixture }) },
    { weight: 1, arbitrary: fc.constantFrom(...nasty).map((wire) => ({ wire })) },
  );

export function caseArbitrary(op: FuzzOperation, document: Document): fc.Arbitrary<FuzzCase> {
  const resolve = resolverOf(document);
  const params = (where: Parameter["in"]) => op.parameters.filter((p) => p.in === where);
  const path = fc.record(
    Object.fromEntries(params("path").map((p) => [p.name, piece(p.name, NASTY_SEGMENTS, 10)])),
  ) as fc.Arbitrary<Record<string, Piece>>;
  const query = fc
    .tuple(
      ...params("query").map((p) => queryEntries(p, resolve)),
      fc.oneof(
        { weight: 8, arbitrary: fc.constant<[string, Piece][]>([]) },
        {
          weight: 1,
          arbitrary: fc
            .tuple(
              fc.constantFrom("zzUnknown", "__proto__", "constructor", "limit[]", "a%FF"),
              fc.constantFrom(...NASTY_QUERY_VALUES),
            )
            .map(([name, wire]): [string, Piece][] => [[name, { wire }]]),
        },
      ),
    )
    .map((lists) => lists.flat());
  const headers = fc
    .record({
      ifMatch: fc.oneof(
        { weight: op.operationId === "updateDatasetRow" ? 2 : 10, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.constant<Piece>({ fixture: "If-Match" }) },
        {
          weight: 1,
          arbitrary: fc
            .constantFrom('W/"1"', '"1"', "*", "-1", "1e400", "abc", "", "1, 2", "99999999999999999999")
            .map((wire) => ({ wire })),
        },
      ),
      idempotencyKey: fc.oneof(
        { weight: 12, arbitrary: fc.constant(undefined) },
        { weight: 2, arbitrary: fc.constantFrom("fuzz-key-1", "fuzz-key-2").map((wire) => ({ wire })) },
        {
          weight: 1,
          arbitrary: fc.constantFrom("", " ", "é", "k".repeat(300), "a b", "%FF").map((wire) => ({ wire })),
        },
      ),
      requestId: fc.oneof(
        { weight: 12, arbitrary: fc.constant(undefined) },
        {
          weight: 1,
          arbitrary: fc
            .constantFrom("", "x".repeat(200), "a b", "é", "../..", "req_1")
            .map((wire) => ({ wire })),
        },
      ),
      project: params("header").some((p) => p.name === "X-Svc-Project")
        ? piece(
            "X-Svc-Project",
            NASTY_STRINGS.filter((s) => [...s].every((ch) => ch >= " ")),
            8,
          )
        : fc.constant(undefined),
    })
    .map((h) => {
      const out: Record<string, Piece> = {};
      if (h.ifMatch) out["If-Match"] = h.ifMatch;
      if (h.idempotencyKey) out["Idempotency-Key"] = h.idempotencyKey;
      if (h.requestId) out["X-Request-Id"] = h.requestId;
      if (h.project) out["X-Svc-Project"] = h.project;
      return out;
    });
  const contentType = fc.oneof(
    { weight: 12, arbitrary: fc.constant("usual" as const) },
    { weight: 2, arbitrary: fc.constantFrom(...CONTENT_TYPES, undefined).map((given) => ({ given })) },
  );
  return fc.record({
    operationId: fc.constant(op.operationId),
    method: fc.oneof(
      { weight: 30, arbitrary: fc.constant(op.method) },
      { weight: 1, arbitrary: fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD") },
    ),
    path,
    query,
    headers,
    contentType,
    encoding: fc.oneof(
      { weight: 30, arbitrary: fc.constant("none" as const) },
      { weight: 1, arbitrary: fc.constantFrom("gzip" as const, "not gzip" as const, "br" as const) },
    ),
    auth: op.operator
      ? fc.oneof(
          { weight: 10, arbitrary: fc.constant("operator" as const) },
          { weight: 1, arbitrary: fc.constantFrom("key" as const, "none" as const, "malformed" as const) },
        )
      : fc.oneof(
          { weight: 30, arbitrary: fc.constant("key" as const) },
          {
            weight: 1,
            arbitrary: fc.constantFrom(
              "none" as const,
              "malformed" as const,
              "unknown key" as const,
              "operator" as const,
            ),
          },
        ),
    body: bodyArbitrary(op, resolve),
  });
}

function queryEntries(
  parameter: Parameter,
  resolve: (s: JsonSchema) => JsonSchema,
): fc.Arbitrary<[string, Piece][]> {
  const valid: fc.Arbitrary<Piece> = FIXTURE_QUERY.has(parameter.name)
    ? fc.constant({ fixture: parameter.name })
    : arbitraryOf(parameter.schema, resolve).map((value) => ({
        wire: encodeURIComponent(typeof value === "string" ? value : JSON.stringify(value)),
      }));
  const nasty = fc.constantFrom(...NASTY_QUERY_VALUES).map((wire): Piece => ({ wire }));
  const one = fc.oneof({ weight: 5, arbitrary: valid }, { weight: 1, arbitrary: nasty });
  return fc.oneof(
    { weight: parameter.required ? 1 : 6, arbitrary: fc.constant<[string, Piece][]>([]) },
    { weight: 6, arbitrary: one.map((value): [string, Piece][] => [[parameter.name, value]]) },
    {
      weight: 1,
      arbitrary: fc.tuple(one, one).map(([a, b]): [string, Piece][] => [
        [parameter.name, a],
        [parameter.name, b],
      ]),
    },
  );
}

/** The bytes to send for a case, against the fixtures as they are now. */
export function requestOf(op: FuzzOperation, c: FuzzCase, fixtures: Fixtures): WireRequest {
  const value = (p: Piece, encode: (s: string) => string) =>
    "fixture" in p ? encode(String(fixtures.valueOf(p.fixture, op))) : p.wire;
  const labels: string[] = [];
  const url =
    op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const p = c.path[name] as Piece;
      if ("wire" in p) labels.push(`path ${name} = ${p.wire.slice(0, 40)}`);
      return value(p, encodeURIComponent);
    }) +
    (c.query.length > 0
      ? `?${c.query
          .map(([name, p]) => {
            if ("wire" in p) labels.push(`query ${name} = ${p.wire.slice(0, 40)}`);
            return `${name}=${value(p, encodeURIComponent)}`;
          })
          .join("&")}`
      : "");
  const headers: Record<string, string> = {};
  for (const [name, p] of Object.entries(c.headers)) {
    if ("wire" in p) labels.push(`header ${name} = ${p.wire.slice(0, 40)}`);
    // Node sends header text as Latin-1: UTF-8 bytes go through as they are.
    headers[name] = Buffer.from(value(p, (s) => s)).toString("latin1");
  }
  if (c.auth !== "none") headers.Authorization = fixtures.authorization(c.auth);
  if (c.auth !== "key" && c.auth !== "operator") labels.push(`auth ${c.auth}`);
  if (c.method !== op.method) labels.push(`method ${c.method}`);

  const wireBody = bodyOf(op, c.body, fixtures);
  labels.push(...wireBody.labels);
  let body = wireBody.body;
  const contentType = c.contentType === "usual" ? wireBody.usualType : c.contentType.given;
  if (c.contentType !== "usual")
    labels.push(`Content-Type ${contentType === undefined ? "(none)" : JSON.stringify(contentType)}`);
  if (contentType !== undefined) headers["Content-Type"] = contentType;
  if (body !== undefined && c.encoding !== "none") {
    labels.push(`Content-Encoding ${c.encoding}`);
    headers["Content-Encoding"] = c.encoding === "not gzip" ? "gzip" : c.encoding;
    if (c.encoding === "gzip") body = gzipSync(body);
  }
  return { method: c.method, url, headers, body, label: labels.join("; ") || "valid" };
}
