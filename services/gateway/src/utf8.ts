import { firstInvalidByte } from "@svc/contracts";

const strict = new TextDecoder("utf-8", { fatal: true });

/**
 * The body as text, or an explanation naming the first byte that is not UTF-8. Decoding leniently
 * would turn such bytes into U+FFFD and store something the client never sent.
 */
export function decodeUtf8(bytes: Uint8Array): { text: string } | { invalidAt: number } {
  try {
    return { text: strict.decode(bytes) };
  } catch {
    return { invalidAt: firstInvalidByte(bytes) };
  }
}
