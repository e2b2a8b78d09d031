import { DomainError } from "@svc/contracts";
import type { z } from "zod";
import { invalidUtf8Body } from "../errors";
import { parseUrlEncoded, placeOf, reasonOf, type UrlEncodedFields } from "../url-encoded";
import { decodeUtf8 } from "../utf8";

/**
 * The protocol's parameters, each a single string: RFC 6749 §3.1 forbids repeating one, so a repeated
 * or non-string parameter is an `invalid_request`, and parameters this server does not know are ignored.
 */
export function fields<S extends z.ZodObject>(schema: S, source: unknown): z.output<S> {
  const result = schema.safeParse(pick(source, schema));
  if (!result.success) {
    const names = [...new Set(result.error.issues.map((issue) => String(issue.path[0] ?? "request")))];
    throw new DomainError("validation_failed", `Invalid or repeated parameter: ${names.join(", ")}`, {
      oauthError: "invalid_request",
      redirect: false,
    });
  }
  return result.data;
}

export function pick(source: unknown, schema: z.ZodObject): Record<string, unknown> {
  if (typeof source !== "object" || source === null) return {};
  const values: Record<string, unknown> = {};
  for (const key of Object.keys(schema.shape)) {
    const value = (source as Record<string, unknown>)[key];
    if (value !== undefined && value !== "") values[key] = value;
  }
  return values;
}

/** `a=1&b=2&b=3` → `{a: "1", b: ["2", "3"]}`; bytes or escapes that are not UTF-8 are refused, not replaced. */
export function formFields(body: Buffer): UrlEncodedFields | DomainError {
  const decoded = decodeUtf8(body);
  if ("invalidAt" in decoded) return invalidUtf8Body(decoded.invalidAt, "the form");
  const parsed = parseUrlEncoded(decoded.text);
  if ("fields" in parsed) return parsed.fields;
  const reason = reasonOf(parsed.undecodable);
  return new DomainError(
    "validation_failed",
    `The form body is not percent-encoded UTF-8 ${placeOf(parsed.undecodable)}: ${reason}`,
    { issues: [{ path: "body", message: `is not percent-encoded UTF-8: ${reason}`, code: "invalid_utf8" }] },
  );
}
