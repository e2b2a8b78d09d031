import { newId } from "@svc/contracts";
import { type Kysely, sql } from "kysely";

/**
 * People (docs/decisions/0038): a user exists once across organisations; a member is a user with a
 * role in one organisation, invited until their first sign-in. Browser sessions and sign-in codes
 * belong to an API key, as before, or to a member: removing the member ends them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("users")
    .addColumn("id", "text", (c) => c.primaryKey())
    // Lower-case; null for the first owner of a fresh installation until they give one.
    .addColumn("email", "text", (c) => c.unique())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  // Every member so far was an address with a role: each address becomes one user.
  const emails = await sql<{ email: string }>`SELECT DISTINCT email FROM members`.execute(db);
  for (const { email } of emails.rows) {
    await sql`INSERT INTO users (id, email, name) VALUES (${newId()}, ${email}, ${email})`.execute(db);
  }
  await sql`ALTER TABLE members ADD COLUMN user_id text REFERENCES users (id) ON DELETE CASCADE`.execute(db);
  await sql`UPDATE members m SET user_id = u.id FROM users u WHERE u.email = m.email`.execute(db);
  await sql`ALTER TABLE members ALTER COLUMN user_id SET NOT NULL`.execute(db);
  // Members added before this release were never asked to sign in: they count as active.
  await sql`ALTER TABLE members ADD COLUMN status text NOT NULL DEFAULT 'active'`.execute(db);
  await sql`ALTER TABLE members DROP CONSTRAINT members_organization_email`.execute(db);
  await sql`ALTER TABLE members DROP COLUMN email`.execute(db);
  await sql`ALTER TABLE members ADD CONSTRAINT members_organization_user UNIQUE (organization_id, user_id)`.execute(
    db,
  );
  await sql`CREATE INDEX members_user ON members (user_id)`.execute(db);

  await sql`ALTER TABLE api_keys ADD COLUMN created_by_user_id text REFERENCES users (id) ON DELETE SET NULL`.execute(
    db,
  );

  for (const table of ["browser_sessions", "sign_in_codes"]) {
    await sql`ALTER TABLE ${sql.table(table)} ALTER COLUMN api_key_id DROP NOT NULL`.execute(db);
    await sql`ALTER TABLE ${sql.table(table)} ADD COLUMN member_id text REFERENCES members (id) ON DELETE CASCADE`.execute(
      db,
    );
    await sql`ALTER TABLE ${sql.table(table)} ADD CONSTRAINT ${sql.ref(`${table}_one_holder`)} CHECK (num_nonnulls(api_key_id, member_id) = 1)`.execute(
      db,
    );
  }
  await sql`CREATE INDEX browser_sessions_member ON browser_sessions (member_id) WHERE ended_at IS NULL`.execute(
    db,
  );
  // A code sent by e-mail works only while the member's address is the one it was sent to.
  await sql`ALTER TABLE sign_in_codes ADD COLUMN email text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DELETE FROM sign_in_codes WHERE member_id IS NOT NULL`.execute(db);
  await sql`DELETE FROM browser_sessions WHERE member_id IS NOT NULL`.execute(db);
  for (const table of ["browser_sessions", "sign_in_codes"]) {
    await sql`ALTER TABLE ${sql.table(table)} DROP COLUMN member_id`.execute(db);
    await sql`ALTER TABLE ${sql.table(table)} ALTER COLUMN api_key_id SET NOT NULL`.execute(db);
  }
  await sql`ALTER TABLE sign_in_codes DROP COLUMN email`.execute(db);
  await sql`ALTER TABLE api_keys DROP COLUMN created_by_user_id`.execute(db);
  await sql`ALTER TABLE members ADD COLUMN email text`.execute(db);
  await sql`UPDATE members m SET email = coalesce(u.email, m.id) FROM users u WHERE u.id = m.user_id`.execute(
    db,
  );
  await sql`ALTER TABLE members DROP COLUMN user_id`.execute(db);
  await sql`ALTER TABLE members DROP COLUMN status`.execute(db);
  await sql`ALTER TABLE members ALTER COLUMN email SET NOT NULL`.execute(db);
  await sql`ALTER TABLE members ADD CONSTRAINT members_organization_email UNIQUE (organization_id, email)`.execute(
    db,
  );
  await db.schema.dropTable("users").execute();
}
