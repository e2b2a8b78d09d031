import { readFileSync } from "node:fs";
import { CliError, exitCodes, usageError } from "../errors";
import type { ApiCommand, CommandTree, Input } from "../spec/command-tree";
import { type JsonSchema, resolveSchema, type SchemaIssue, validateSchema } from "../spec/json-schema";
import { USER_AGENT } from "../version";

/** A request ready to send, except for its credential. */
export interface PreparedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /**
   * A file sent as the body instead, read afresh by each attempt; `sent` hears of each piece sent.
   * `-` is standard input, which can be read once: a request that sends it is not retried.
   */
  file?: { path: string; sent?: (bytes: number) => void };
}

export interface RequestInput {
  /** Flag values as typed, by input. `true` for a bare switch. */
  values: Map<Input, string | true>;
  /** The `--json` flag: an object, `@file` or `-` for standard input. */
  json: string | undefined;
  baseUrl: string;
  projectSlug: string | undefined;
  readStdin: () => string;
}

const MUTATING = new Set(["POST", "PATCH", "PUT", "DELETE"]);

/** Turns flags into the HTTP request of an operation, checking everything that can be checked locally. */
export function prepareRequest(tree: CommandTree, command: ApiCommand, input: RequestInput): PreparedRequest {
  const helpHint = `see \`svc ${command.resource} ${command.name} --help\``;
  const params = new Map<Input, unknown>();
  for (const [spec, raw] of input.values) {
    if (spec.location !== "body") params.set(spec, parseValue(spec, raw));
  }
  const projectSlug = command.inputs.find((spec) => spec.location === "path" && spec.name === "projectSlug");
  if (projectSlug && !params.has(projectSlug) && input.projectSlug !== undefined) {
    params.set(projectSlug, input.projectSlug);
  }

  const issues: string[] = [];
  for (const spec of command.inputs) {
    if (spec.location === "body") continue;
    const value = params.get(spec);
    if (value === undefined) {
      if (spec.required) issues.push(`missing required flag --${spec.flag}${envHint(spec)}`);
      continue;
    }
    for (const issue of validateSchema(spec.schema, value, tree.components)) {
      issues.push(`--${spec.flag} ${issue.message}`);
    }
  }

  const body = command.body ? buildBody(tree, command, input, issues) : undefined;
  if (issues.length > 0) {
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more: ${issues.slice(1).join("; ")})` : "";
    throw new CliError(`${issues[0]}${more}`, {
      exit: exitCodes.usage,
      code: "validation_failed",
      hint: helpHint,
      details: { issues },
    });
  }

  const url = new URL(input.baseUrl + expandPath(command, params));
  const headers: Record<string, string> = { accept: "application/json", "user-agent": USER_AGENT };
  for (const spec of command.inputs) {
    const value = params.get(spec);
    if (value === undefined) continue;
    if (spec.location === "query") url.searchParams.append(spec.name, asText(value));
    if (spec.location === "header") headers[spec.name.toLowerCase()] = asText(value);
  }
  if (MUTATING.has(command.method)) headers["idempotency-key"] = newIdempotencyKey();
  const request: PreparedRequest = { method: command.method, url: url.toString(), headers };
  if (body !== undefined) {
    headers["content-type"] = "application/json";
    request.body = JSON.stringify(body);
  }
  return request;
}

const envHint = (spec: Input): string =>
  spec.location === "path" && spec.name === "projectSlug" ? " (or set SVC_PROJECT_SLUG)" : "";

function expandPath(command: ApiCommand, params: Map<Input, unknown>): string {
  return command.path.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    const spec = command.inputs.find((candidate) => candidate.location === "path" && candidate.name === name);
    const value = spec ? params.get(spec) : undefined;
    return encodeURIComponent(asText(value ?? ""));
  });
}

const asText = (value: unknown): string => (typeof value === "string" ? value : JSON.stringify(value));

function buildBody(tree: CommandTree, command: ApiCommand, input: RequestInput, issues: string[]): unknown {
  const schema = command.body?.schema ?? {};
  const base = input.json === undefined ? undefined : readJsonFlag(input.json, input.readStdin);
  const fields = command.inputs.filter((spec) => spec.location === "body");
  const hasFieldFlags = fields.some((spec) => input.values.has(spec));
  if (base !== undefined && hasFieldFlags && !isObject(base)) {
    throw usageError("--json must be a JSON object when body flags are given too", undefined, "invalid_json");
  }
  const body: unknown = base ?? (fields.length > 0 || hasFieldFlags ? {} : undefined);
  if (isObject(body)) {
    for (const spec of fields) {
      const raw = input.values.get(spec);
      if (raw !== undefined) body[spec.name] = parseValue(spec, raw);
    }
    for (const spec of fields) {
      if (spec.required && !(spec.name in body)) {
        issues.push(`missing required flag --${spec.flag} (or a "${spec.name}" field in --json)`);
      }
    }
  }
  if (body === undefined) return undefined;
  const flagOf = new Map(fields.map((spec) => [spec.name, spec.flag]));
  // A required field that is missing was reported above, by its flag; a field that a rule of the body
  // asks for (one of several, or under a condition) was not.
  const reported = new Set(fields.filter((spec) => spec.required).map((spec) => spec.name));
  for (const issue of validateSchema(schema, body, tree.components)) {
    if (issue.message === "is required" && reported.has(issue.path)) continue;
    issues.push(describeBodyIssue(issue, flagOf, resolveSchema(schema, tree.components)));
  }
  return body;
}

function describeBodyIssue(issue: SchemaIssue, flagOf: Map<string, string>, schema: JsonSchema): string {
  const [top, ...rest] = issue.path.split(".");
  const flag = top ? flagOf.get(top) : undefined;
  if (issue.path === "") return `the body ${issue.message}`;
  if (flag && schema.properties?.[top ?? ""]) {
    return `--${flag}${rest.length > 0 ? ` (at ${rest.join(".")})` : ""} ${issue.message}`;
  }
  return `body field "${issue.path}" ${issue.message}`;
}

/** `--json`: literal JSON, `@file`, or `-` for standard input. */
export function readJsonFlag(raw: string, readStdin: () => string): unknown {
  let text = raw;
  let source = "--json";
  if (raw === "-") {
    text = readStdin();
    source = "--json - (standard input)";
  } else if (raw.startsWith("@")) {
    const path = raw.slice(1);
    try {
      text = readFileSync(path, "utf8");
    } catch (error) {
      throw usageError(
        `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? "error"}`,
        undefined,
        "invalid_json",
      );
    }
    source = `--json @${path}`;
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw usageError(
      `${source} is not valid JSON: ${(error as Error).message}`,
      "give a JSON object, @file or - for standard input",
      "invalid_json",
    );
  }
}

/** A flag's text as the value its input takes. */
export function parseValue(spec: Input, raw: string | true): unknown {
  if (raw === true) {
    if (spec.kind === "boolean") return true;
    throw usageError(`--${spec.flag} needs a value`);
  }
  if (spec.nullable && raw === "null") return null;
  switch (spec.kind) {
    case "string":
      return raw;
    case "boolean":
      if (raw === "true" || raw === "false") return raw === "true";
      throw usageError(`--${spec.flag} must be true or false, not "${raw}"`);
    case "integer":
    case "number": {
      const value = raw.trim() === "" ? Number.NaN : Number(raw);
      if (!Number.isFinite(value) || (spec.kind === "integer" && !Number.isInteger(value))) {
        throw usageError(
          `--${spec.flag} must be ${spec.kind === "integer" ? "an integer" : "a number"}, not "${raw}"`,
        );
      }
      return value;
    }
    default:
      try {
        return JSON.parse(raw);
      } catch (error) {
        if (spec.acceptsString && !/^\s*[[{"]/.test(raw)) return raw;
        throw usageError(
          `--${spec.flag} is not valid JSON: ${(error as Error).message}`,
          `quote it for the shell, for example --${spec.flag} '{"key":"value"}'`,
          "invalid_json",
        );
      }
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** A fresh Idempotency-Key. node:crypto is loaded on first use: a read needs none, and it takes 4 ms. */
export function newIdempotencyKey(): string {
  return (require("node:crypto") as typeof import("node:crypto")).randomUUID();
}
