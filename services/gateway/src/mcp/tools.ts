import type { RawInput } from "@svc/bus";
import { type Operation, operationList } from "@svc/contracts";
import { z } from "zod";

/** An MCP tool as `tools/list` shows it. */
export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: "object"; [key: string]: unknown };
  annotations: {
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
    openWorldHint: false;
  };
}

/** One tool per operation, and how its flat arguments become the operation's raw input. */
export interface OperationTool {
  op: Operation;
  definition: ToolDefinition;
  toRawInput(args: Record<string, unknown>): RawInput;
}

type Part = "params" | "query" | "headers" | "body";

/** The object inside wrappers that do not change the fields (default, prefault, optional, pipe input). */
function objectShapeOf(schema: z.ZodType): Record<string, z.ZodType> | undefined {
  let current: unknown = schema;
  for (let depth = 0; depth < 8; depth++) {
    if (current instanceof z.ZodObject) return current.shape as Record<string, z.ZodType>;
    const def = (current as { _zod?: { def?: { innerType?: unknown; in?: unknown } } })._zod?.def;
    current = def?.innerType ?? def?.in;
    if (current === undefined) return undefined;
  }
  return undefined;
}

/** A part's fields as tool arguments; a body that is not an object is one argument, `body`. */
function fieldsOf(op: Operation, part: Part): Record<string, z.ZodType> {
  const schema = op[part];
  if (schema === null) return {};
  const shape = objectShapeOf(schema);
  if (shape) return shape;
  if (part === "body") return { body: schema };
  throw new Error(
    `${op.operationId}: its ${part} schema is not an object, so it cannot become tool arguments`,
  );
}

/**
 * A tool's arguments are the operation's path parameters, query parameters, header inputs (If-Match as
 * `ifMatch`) and body fields side by side. Names are unique across the parts (checked here, once), so
 * that each argument goes back to the part it came from.
 */
export function operationTool(op: Operation): OperationTool {
  const owner = new Map<string, Part>();
  const shape: Record<string, z.ZodType> = {};
  for (const part of ["params", "query", "headers", "body"] as const) {
    for (const [name, field] of Object.entries(fieldsOf(op, part))) {
      const taken = owner.get(name);
      if (taken) throw new Error(`${op.operationId}: "${name}" is both a ${taken} and a ${part} field`);
      owner.set(name, part);
      shape[name] = field;
    }
  }
  const { $schema: _dialect, ...inputSchema } = z.toJSONSchema(z.strictObject(shape), {
    io: "input",
    unrepresentable: "any",
  });
  const definition: ToolDefinition = {
    name: op.operationId,
    title: op.summary,
    description: op.description ? `${op.summary}.\n\n${op.description}` : `${op.summary}.`,
    inputSchema: { ...inputSchema, type: "object" },
    annotations: {
      readOnlyHint: op.effect.readOnly,
      destructiveHint: op.effect.destructive,
      idempotentHint: op.effect.idempotent,
      openWorldHint: false,
    },
  };
  const wholeBody = op.body !== null && objectShapeOf(op.body) === undefined;
  return { op, definition, toRawInput: (args) => toRawInput(op, owner, wholeBody, args) };
}

/**
 * Splits the arguments back into the parts the HTTP route would have received. Query values are
 * strings on the wire, so numbers and booleans become strings and the same schemas parse them. An
 * argument the tool does not have goes to the body (or the query), whose strict schema refuses it by name.
 */
function toRawInput(
  op: Operation,
  owner: ReadonlyMap<string, Part>,
  wholeBody: boolean,
  args: Record<string, unknown>,
): RawInput {
  // Each part is built from its entries, never by assignment: an argument named `__proto__` would set
  // the part's prototype, so that the schema read its fields as if sent and never saw the name.
  const entries: Record<Part, [string, unknown][]> = { params: [], query: [], headers: [], body: [] };
  for (const [name, value] of Object.entries(args)) {
    const part = owner.get(name) ?? (op.body === null ? "query" : "body");
    const sent = part === "query" && (typeof value === "number" || typeof value === "boolean");
    entries[part].push([name, sent ? String(value) : value]);
  }
  const body = Object.fromEntries(entries.body);
  return {
    params: Object.fromEntries(entries.params),
    query: Object.fromEntries(entries.query),
    body: op.body === null ? undefined : wholeBody ? body.body : body,
    headers: Object.fromEntries(entries.headers),
  };
}

/**
 * Every operation an organisation's credential may call; operator-only ones are not tools, nor are
 * file downloads or uploads (an agent reads rows page by page, and writes them as JSON), nor a
 * stream that never ends (an agent lists a dataset's versions instead), nor the browser's session.
 */
export function operationTools(operations: readonly Operation[] = operationList): OperationTool[] {
  return operations
    .filter((op) => op.access !== "operator" && !op.file && !op.upload && !op.events && !op.browserSession)
    .map(operationTool);
}
