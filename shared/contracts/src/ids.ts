import { createHash, randomBytes, randomInt, randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { z } from "zod";

/**
 * Identifiers of projects, datasets, versions, custom columns and keys: CUID2, 24 characters. The
 * algorithm of the CUID2 reference (a random letter, then the base-36 SHA3-512 of time, entropy, a
 * counter and a host fingerprint), with Node's native SHA3 and random source: the reference package
 * spends about 250 µs an id in JavaScript big-number code, and a row edit makes one.
 */
const ID_LENGTH = 24;
const fingerprint = sha3Base36(`${hostname()}${process.pid}${randomBytes(32).toString("hex")}`);
let counter = randomInt(476_782_367);

function sha3Base36(input: string): string {
  return BigInt(`0x${createHash("sha3-512").update(input).digest("hex")}`)
    .toString(36)
    .slice(1);
}

export function newId(): string {
  const letter = String.fromCharCode(97 + randomInt(26));
  const input = `${Date.now().toString(36)}${randomBytes(ID_LENGTH).toString("hex")}${(counter++).toString(36)}${fingerprint}`;
  return `${letter}${sha3Base36(input).slice(1, ID_LENGTH)}`;
}

/**
 * The start of the Idempotency-Key the gateway gives a write that came without one, so that it can
 * send the write again when the service that took it stops answering (docs/decisions/0033). A
 * client's key is 1-255 visible ASCII characters; this one holds a space, so the two never meet, and
 * the records it leaves can be told apart, to be forgotten within minutes.
 */
export const GATEWAY_KEY_PREFIX = "gateway ";

export const gatewayIdempotencyKey = (): string => `${GATEWAY_KEY_PREFIX}${randomUUID()}`;

const CUID_PATTERN = /^[a-z][0-9a-z]{23}$/;

export const cuidSchema = z
  .string()
  .length(ID_LENGTH, "must be a 24-character identifier")
  .regex(CUID_PATTERN, "must be a CUID2 identifier: a lowercase letter, then lowercase letters and digits");

export const ROW_ID_PATTERN = /^[A-Za-z0-9_.~-]{1,128}$/;
export const rowIdSchema = z
  .string()
  .regex(ROW_ID_PATTERN, "must be 1-128 characters of letters, digits, '_', '.', '~' or '-'");

export const slugSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "must be a slug: lowercase letters, digits and single hyphens");

/** URL-safe slug derived from a name; never empty. */
export function slugify(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/g, "");
  return slug.length > 0 ? slug : "item";
}
