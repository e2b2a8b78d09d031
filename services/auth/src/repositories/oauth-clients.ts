import type { Database } from "@svc/db";
import type { Kysely } from "kysely";

export interface OAuthClientRecord {
  id: string;
  name: string | null;
  uri: string | null;
  scope: string | null;
  redirectUris: string[];
  grantTypes: string[];
  createdAt: Date;
}

const columns = [
  "id",
  "name",
  "uri",
  "scope",
  "redirect_uris as redirectUris",
  "grant_types as grantTypes",
  "created_at as createdAt",
] as const;

export async function insertOAuthClient(
  db: Kysely<Database>,
  client: OAuthClientRecord,
): Promise<OAuthClientRecord> {
  return db
    .insertInto("oauth_clients")
    .values({
      id: client.id,
      name: client.name,
      uri: client.uri,
      scope: client.scope,
      redirect_uris: JSON.stringify(client.redirectUris),
      grant_types: JSON.stringify(client.grantTypes),
      created_at: client.createdAt,
    })
    .returning(columns)
    .executeTakeFirstOrThrow();
}

export async function findOptionalOAuthClient(
  db: Kysely<Database>,
  id: string,
): Promise<OAuthClientRecord | undefined> {
  return db.selectFrom("oauth_clients").select(columns).where("id", "=", id).executeTakeFirst();
}
