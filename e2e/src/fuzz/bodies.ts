import fc from "fast-check";
import type { FuzzOperation, JsonSchema } from "./document";
import type { Fixtures } from "./fixtures";
import { NASTY_BODIES, NASTY_KEYS, nastyBody, nastyValue, Raw, serialize } from "./nasty";
import { arbitraryOf } from "./schema-arbitrary";

/*
 * The body of a fuzz case: none, the document's example or a generated value with up to three
 * changes to its JSON, bytes that are not what the operation takes, or a file for an import.
 */

/** One change to a JSON body: which node (an index into its nodes, modulo their count), and what to do. */
type Mutation =
  | { at: number; kind: "replace"; value: unknown }
  | { at: number; kind: "remove" }
  | { at: number; kind: "add"; key: string; value: unknown };

export type BodyCase =
  | { kind: "none" }
  | { kind: "example"; mutations: Mutation[] }
  | { kind: "generated"; value: unknown; mutations: Mutation[] }
  | { kind: "bytes"; label: string; bytes: Uint8Array }
  | { kind: "file"; label: string; text: string };

/** A file upload takes several media types (CSV, JSONL, JSON, Parquet); a JSON operation takes one. */
const isUpload = (op: FuzzOperation) => (op.body?.mediaTypes.length ?? 0) > 1;

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

export function bodyArbitrary(
  op: FuzzOperation,
  resolve: (s: JsonSchema) => JsonSchema,
): fc.Arbitrary<BodyCase> {
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

/** A body as it goes on the wire, the Content-Type it usually goes with, and what it changed. */
export interface WireBody {
  body: Buffer | undefined;
  usualType: string | undefined;
  labels: string[];
}

/** The bytes of a case's body, against the fixtures as they are now. */
export function bodyOf(op: FuzzOperation, body: BodyCase, fixtures: Fixtures): WireBody {
  switch (body.kind) {
    case "example":
    case "generated": {
      const base = body.kind === "example" ? exampleBody(op, fixtures) : body.value;
      const mutated = applyMutations(base, body.mutations);
      return {
        body: Buffer.from(serialize(mutated.body)),
        usualType: "application/json",
        labels: [body.kind === "example" ? "the example body" : "a generated body", ...mutated.labels],
      };
    }
    case "bytes":
      return {
        body: Buffer.from(body.bytes),
        usualType: isUpload(op) ? "application/x-ndjson" : "application/json",
        labels: [`body: ${body.label}`],
      };
    case "file":
      return {
        body: Buffer.from(body.text),
        usualType: fileTypeOf(body.label),
        labels: [`file: ${body.label}`],
      };
    case "none":
      return { body: undefined, usualType: undefined, labels: [] };
  }
}

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
      labels.push(`${where} := ${preview(m.value)}`);
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
        labels.push(`${where} gets ${JSON.stringify(m.key)}: ${preview(m.value)}`);
      }
    }
  }
  return { body: holder.root, labels };
}

/** A value's JSON text as a failure names it: whole when short, else its start and its length. */
const preview = (value: unknown): string => {
  const text = serialize(value);
  return text.length > 60 ? `${text.slice(0, 40)}… (${text.length} characters)` : text;
};

function fileTypeOf(label: string): string {
  if (label.includes("CSV")) return "text/csv";
  if (label.includes("JSONL")) return "application/x-ndjson";
  if (label.includes("JSON")) return "application/json";
  if (label.includes("parquet")) return "application/vnd.apache.parquet";
  return "application/x-ndjson";
}
