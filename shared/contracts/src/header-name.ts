/**
 * The HTTP header an operation's header input travels in: `ifMatch` → `If-Match`. Operations name
 * header inputs in camel case; the OpenAPI document and error paths name the header a client sends.
 */
export function headerName(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .split("-")
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase())
    .join("-");
}
