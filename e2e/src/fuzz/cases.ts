import { gzipSync } from "node:zlib";
import fc from "fast-check";
import type { Document, FuzzOperation, JsonSchema, Parameter } from "./document";
import { resolverOf } from "./document";
import type { Fixtures } from "./fixtures";
import {
  CONTENT_TYPES,
  NASTY_BODIES,
  NASTY_KEYS,
  NASTY_QUERY_VALUES,
  NASTY_SEGMENTS,
  NASTY_STRINGS,
  nastyBody,
  nastyValue,
  Raw,
  serialize,
} from "./nasty";
import { arbitraryOf } from "./schema-arbitrary";

/*
 * A fuzz case says what to send in terms of the fixtures ("the dataset's slug", "a row's id"), so that
 * it stays meaningful when a case before it deleted and the suite re-created them: `requestOf` turns
 * it into bytes against the fixtures of the moment.
 */

/** A value: one of the fixtures' (by parameter name), or text as it goes on the wire. */
type Piece = { fixture: string } | { wire: string };

/** One change to a JSON body: which node (an index into its nodes, modulo their count), and what to do. */
type Mutation =
  | { at: number; kind: "replace"; value: unknown }
  | { at: number; kind: "remove" }
  | { at: number; kind: "add"; key: string; value: unknown };

type BodyCase =
  | { kind: "none" }
  | { kind: "example"; mutations: Mutation[] }
  | { kind: "generated"; value: unknown; mutations: Mutation[] }
  | { kind: "bytes"; label: string; bytes: Uint8Array }
  | { kind: "file"; label: string; text: string };

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

/** A file upload takes several media types (CSV, JSONL, JSON, Parquet); a JSON operation takes one. */
const isUpload = (op: FuzzOperation) => (op.body?.mediaTypes.length ?? 0) > 1;

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

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({ at: fc.nat(), kind: fc.constant("replace" as const), value: nastyValue }),
  },
  { weight: 2, arbitrary: fc.record({ at: fc.nat(), kind: fc.constant("remove" as const) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      at: fc.nat(),
      kind: fc.constant("add" as const),
      key: fc.constantFrom(...NASTY_KEYS),
      value: fc.oneof(nastyValue, fc.constant("x")),
    }),
  },
);

function bodyArbitrary(op: FuzzOperation, resolve: (s: JsonSchema) => JsonSchema): fc.Arbitrary<BodyCase> {
  if (!op.body) {
    return fc.oneof(
      { weight: 15, arbitrary: fc.constant<BodyCase>({ kind: "none" }) },
      { weight: 1, arbitrary: nastyBody.map((b): BodyCase => ({ kind: "bytes", ...b })) },
    );
  }
  if (isUpload(op)) return fileArbitrary;
  const mutations = fc.array(mutation, { minLength: 0, maxLength: 3 });
  return fc.oneof(
    { weight: 6, arbitrary: mutations.map((m): BodyCase => ({ kind: "example", mutations: m })) },
    {
      weight: 3,
      arbitrary: fc
        .tuple(op.body.schema ? arbitraryOf(op.body.schema, resolve) : fc.jsonValue(), mutations)
        .map(([value, m]): BodyCase => ({ kind: "generated", value, mutations: m })),
    },
    { weight: 2, arbitrary: nastyBody.map((b): BodyCase => ({ kind: "bytes", ...b })) },
  );
}

/** Files for an import, in each format it takes, with the same kinds of trouble as the JSON bodies. */
const fileArbitrary: fc.Arbitrary<BodyCase> = fc.oneof(
  fc.constantFrom(
    ...(
      [
        ["a CSV", "input,output\nq,a\n"],
        ["a CSV with a __proto__ header", "__proto__,constructor,input\n1,2,3\n"],
        ["a CSV with U+0000", 'input\n"a\u0000b"\n'],
        ["a CSV with an open quote", 'input\n"never closed\n'],
        ["a CSV with ragged lines", "input,output\n1\n1,2,3\n"],
        ["a CSV of SQL", "input\n'; DROP TABLE datasets; --\n"],
        ["JSONL", '{"input":"q","output":"a"}\n'],
        ["JSONL with __proto__", '{"input":1,"__proto__":{"polluted":true}}\n'],
        ["JSONL with a lone surrogate", '{"input":"\\ud800"}\n'],
        ["JSONL nested 10,000 deep", `{"input":${"[".repeat(10_000)}${"]".repeat(10_000)}}\n`],
        ["JSONL not JSON", "{nope\n"],
        ["a JSON array", '[{"input":"q"},{"input":1e400}]'],
        ["a JSON object", '{"input":"q"}'],
        ["parquet that is not parquet", "PAR1garbagePAR1"],
        ["an empty file", ""],
      ] as const
    ).map(([label, text]): BodyCase => ({ kind: "file", label, text })),
  ),
  // Not a 1.2 MB one-row file: such a row is imported and would weigh on every later read of the
  // dataset; fuzz.test.ts imports one once and reads it back.
  fc
    .constantFrom(...NASTY_BODIES.filter((b) => b.label !== "a huge string"))
    .map((b): BodyCase => ({ kind: "bytes", ...b })),
);

/** The example body with the fixtures' names in place of the document's sample ones. */
function exampleBody(op: FuzzOperation, fixtures: Fixtures): unknown {
  if (op.operationId === "reorderDatasetColumns") {
    return { order: ["input", "output", "expectedOutput", "metadata", fixtures.values.identifier] };
  }
  const substitutes: Record<string, string> = {
    "q-001": "r0",
    "q-002": "r1",
    "golden-answers": fixtures.values.targetDatasetSlug as string,
    "4bf92f3577b34da6a3ce929d0e0e4736": fixtures.values.traceId as string,
  };
  return JSON.parse(JSON.stringify(op.body?.example ?? {}), (_key, value: unknown) =>
    typeof value === "string" && value in substitutes ? substitutes[value] : value,
  );
}

/** Every node of a JSON value, as [parent, key] pairs (the root's parent is a holder). */
function nodesOf(holder: { root: unknown }): [Record<string, unknown> | unknown[], string | number][] {
  const out: [Record<string, unknown> | unknown[], string | number][] = [[holder as never, "root"]];
  for (let i = 0; i < out.length && out.length < 200; i++) {
    const [parent, key] = out[i] as [Record<string | number, unknown>, string | number];
    const node = parent[key];
    if (Array.isArray(node)) for (let index = 0; index < node.length; index++) out.push([node, index]);
    else if (node !== null && typeof node === "object" && !(node instanceof Raw))
      for (const k of Object.keys(node)) out.push([node as Record<string, unknown>, k]);
  }
  return out;
}

/** A copy to change: the nasty values are shared between cases. `Raw` text is a leaf, and stays. */
function copy(value: unknown): unknown {
  if (value instanceof Raw || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(copy);
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, copy(inner)]));
}

function applyMutations(value: unknown, mutations: Mutation[]): { body: unknown; labels: string[] } {
  const holder = { root: copy(value) };
  const labels: string[] = [];
  for (const m of mutations) {
    const nodes = nodesOf(holder);
    const [parent, key] = nodes[m.at % nodes.length] as [Record<string | number, unknown>, string | number];
    const where = key === "root" && parent === (holder as never) ? "the body" : JSON.stringify(key);
    if (m.kind === "replace") {
      Object.defineProperty(parent, key, {
        value: copy(m.value),
        enumerable: true,
        writable: true,
        configurable: true,
      });
      labels.push(`${where} := ${describe(m.value)}`);
    } else if (m.kind === "remove" && !(parent === (holder as never))) {
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else delete parent[key];
      labels.push(`${where} removed`);
    } else if (m.kind === "add") {
      const target = parent[key];
      if (
        target !== null &&
        typeof target === "object" &&
        !Array.isArray(target) &&
        !(target instanceof Raw)
      ) {
        Object.defineProperty(target, m.key, {
          value: copy(m.value),
          enumerable: true,
          writable: true,
          configurable: true,
        });
        labels.push(`${where} gets ${JSON.stringify(m.key)}: ${describe(m.value)}`);
      }
    }
  }
  return { body: holder.root, labels };
}

const describe = (value: unknown): string => {
  const text = serialize(value);
  return text.length > 60 ? `${text.slice(0, 40)}… (${text.length} characters)` : text;
};

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

  let body: Buffer | undefined;
  let usualType: string | undefined;
  switch (c.body.kind) {
    case "example":
    case "generated": {
      const base = c.body.kind === "example" ? exampleBody(op, fixtures) : c.body.value;
      const mutated = applyMutations(base, c.body.mutations);
      labels.push(c.body.kind === "example" ? "the example body" : "a generated body", ...mutated.labels);
      body = Buffer.from(serialize(mutated.body));
      usualType = "application/json";
      break;
    }
    case "bytes":
      labels.push(`body: ${c.body.label}`);
      body = Buffer.from(c.body.bytes);
      usualType = isUpload(op) ? "application/x-ndjson" : "application/json";
      break;
    case "file":
      labels.push(`file: ${c.body.label}`);
      body = Buffer.from(c.body.text);
      usualType = fileTypeOf(c.body.label);
      break;
    case "none":
      break;
  }
  const contentType = c.contentType === "usual" ? usualType : c.contentType.given;
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

function fileTypeOf(label: string): string {
  if (label.includes("CSV")) return "text/csv";
  if (label.includes("JSONL")) return "application/x-ndjson";
  if (label.includes("JSON")) return "application/json";
  if (label.includes("parquet")) return "application/vnd.apache.parquet";
  return "application/x-ndjson";
}
