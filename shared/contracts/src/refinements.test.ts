import { describe, expect, it } from "vitest";
import { z } from "zod";
import { operationList } from "./operations/index";

/*
 * A `.refine` is invisible to JSON Schema: the OpenAPI document, and every client that checks a
 * request against it (svc --dry-run, the SDKs' users), would accept what the server refuses. So each
 * refine of an operation's input sits on a schema that states the same rule in JSON Schema keywords
 * (`.meta({...})`), or is one of the few rules no JSON Schema can state, listed here with the reason.
 */
const UNSTATABLE: Record<string, string> = {
  "diffDatasetVersions query": "from <= to compares two parameters; the operation's description says it",
  "createExperiment body.evaluators": "names unique across items; the operation's description says it",
  "recordExperimentResults body.results": "row ids unique across items; the operation's description says it",
  // A filter's value as a count of nanoseconds: a string of up to 20 digits, at most 2^63 - 1.
  "listTraces body.filters[].value": "at most 2^63 - 1, of a string of up to 20 digits",
  "importDatasetRowsFromTraces body.traces.filters[].value":
    "at most 2^63 - 1, of a string of up to 20 digits",
  "setModelPrice body.inputUsdPerMillionTokens":
    "at most 8 decimal places: JSON Schema's multipleOf is inexact on binary fractions; the description says it",
  "ingestTraces body.resourceSpans[].scopeSpans[].spans[]":
    "endTimeUnixNano >= startTimeUnixNano compares two fields",
  // One schema for every time of a span (end, events), found here first.
  "ingestTraces body.resourceSpans[].scopeSpans[].spans[].startTimeUnixNano":
    "at most 2^63 - 1, of a string of up to 20 digits (the year 2262)",
};

/** Metadata that documents a schema without saying what it accepts. */
const ANNOTATIONS = new Set(["id", "title", "description", "examples", "deprecated"]);

interface Found {
  where: string;
  stated: boolean;
}

/** Every refine under `schema`, with where it is and whether JSON Schema keywords state it. */
function refinements(schema: z.ZodType, where: string, seen = new Set<unknown>()): Found[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  const found: Found[] = [];
  const checks = (def.checks ?? []) as { _zod: { def: { check: string } } }[];
  if (checks.some((check) => check._zod.def.check === "custom")) {
    const meta = z.globalRegistry.get(schema) ?? {};
    found.push({ where, stated: Object.keys(meta).some((key) => !ANNOTATIONS.has(key)) });
  }
  const inner = (child: unknown, at = where) =>
    child instanceof z.ZodType ? found.push(...refinements(child, at, seen)) : undefined;
  switch (def.type) {
    case "object":
      for (const [key, child] of Object.entries(def.shape as Record<string, unknown>))
        inner(child, `${where}.${key}`);
      break;
    case "array":
      inner(def.element, `${where}[]`);
      break;
    case "union":
      for (const option of def.options as unknown[]) inner(option);
      break;
    case "record":
      inner(def.valueType, `${where}{}`);
      break;
    case "pipe":
      inner(def.in);
      inner(def.out);
      break;
    case "lazy":
      inner((def.getter as () => unknown)());
      break;
    default:
      inner(def.innerType);
  }
  return found;
}

const inputs = operationList.flatMap((op) =>
  (["params", "query", "body", "headers"] as const).flatMap((part) => {
    const schema = op[part];
    const name = part === "params" ? "path" : part;
    return schema
      ? refinements(schema, name).map((found) => ({ ...found, where: `${op.operationId} ${found.where}` }))
      : [];
  }),
);

describe("the rules of every operation's input", () => {
  it("are stated in the document: each refine has JSON Schema keywords, or no JSON Schema can say it", () => {
    const unstated = inputs.filter((found) => !found.stated && !(found.where in UNSTATABLE));
    expect(unstated.map((found) => found.where)).toEqual([]);
  });

  it("finds the refines it looks for, stated and not", () => {
    expect(inputs.filter((found) => found.stated).map((found) => found.where)).toEqual(
      expect.arrayContaining([
        "updateDatasetRow body",
        "updateDatasetRows body.edits[]",
        "updateDataset body",
      ]),
    );
    // An entry of UNSTATABLE that no longer names a refine is a rule that moved: say where it went.
    const unstatedWhere = new Set(inputs.filter((found) => !found.stated).map((found) => found.where));
    expect(Object.keys(UNSTATABLE).filter((where) => !unstatedWhere.has(where))).toEqual([]);
  });
});
