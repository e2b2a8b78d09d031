import type { FastifyRequest } from "fastify";

/** The MCP endpoint: a protected resource of its own within the API (RFC 9728 §3.1). */
export const MCP_PATH = "/v1/mcp";
/** Where a client learns which authorization server issues tokens for the API (RFC 9728). */
export const RESOURCE_METADATA_PATH = "/.well-known/oauth-protected-resource";

const BEARER_SCHEME = /^Bearer\s+\S/i;

/**
 * The `WWW-Authenticate` challenge of a 401 (RFC 6750 §3), naming the protected resource's metadata
 * (RFC 9728 §5.1) where a client learns how to get a token. `error="invalid_token"` only when a bearer
 * token was sent and refused; a request without one gets the bare challenge. `/v1/mcp` names the
 * metadata of its own resource (`…/oauth-protected-resource/v1/mcp`, RFC 9728 §3.1), so that an agent
 * asks for a token for the MCP endpoint; the rest of the API names the whole API's.
 */
export function bearerChallenge(request: FastifyRequest, publicUrl: string, resourcePath = ""): string {
  const metadata = `${publicUrl}${RESOURCE_METADATA_PATH}${resourcePath}`;
  const header = request.headers.authorization;
  const presented = typeof header === "string" && BEARER_SCHEME.test(header);
  return presented
    ? `Bearer resource_metadata="${metadata}", error="invalid_token", error_description="The access token is not valid; it may have expired or been revoked"`
    : `Bearer resource_metadata="${metadata}"`;
}
