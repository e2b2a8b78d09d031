import type { OAuthClient, OAuthClientMetadata } from "@svc/contracts";
import type { Database } from "@svc/db";
import type { Kysely } from "kysely";
import { type Clock, newClientId } from "../domain/oauth";
import { insertOAuthClient, type OAuthClientRecord } from "../repositories/oauth-clients";

/**
 * RFC 7591 dynamic registration. Every client is public (`token_endpoint_auth_method: none`), whatever it
 * asked for: an agent on someone's laptop cannot keep a secret, and PKCE binds each code to the client
 * that started the flow. Registration grants nothing by itself; a person still has to approve.
 */
export async function registerOAuthClient(
  db: Kysely<Database>,
  clock: Clock,
  metadata: OAuthClientMetadata,
): Promise<OAuthClient> {
  const client = await insertOAuthClient(db, {
    id: newClientId(),
    name: metadata.client_name ?? null,
    uri: metadata.client_uri ?? null,
    scope: metadata.scope ?? null,
    redirectUris: [...new Set(metadata.redirect_uris)],
    grantTypes: metadata.grant_types ?? ["authorization_code", "refresh_token"],
    createdAt: clock(),
  });
  return toOAuthClient(client);
}

function toOAuthClient(client: OAuthClientRecord): OAuthClient {
  return {
    client_id: client.id,
    client_id_issued_at: Math.floor(client.createdAt.getTime() / 1000),
    ...(client.name === null ? {} : { client_name: client.name }),
    ...(client.uri === null ? {} : { client_uri: client.uri }),
    ...(client.scope === null ? {} : { scope: client.scope }),
    redirect_uris: client.redirectUris,
    grant_types: client.grantTypes,
    response_types: ["code"],
    token_endpoint_auth_method: "none",
  };
}
