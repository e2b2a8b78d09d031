import type { Database } from "@svc/db";
import type { Kysely } from "kysely";
import { hashToken, isTokenShaped } from "../domain/tokens";
import { existsApiKeyHash } from "../repositories/api-keys";
import { findOptionalOldestOrganization, lockBootstrap } from "../repositories/organizations";
import { insertOrganizationWithOwner } from "./create-organization";
import { issueApiKey } from "./issue-api-key";

const BOOTSTRAP_ORGANIZATION_NAME = "default";
const BOOTSTRAP_KEY_NAME = "Bootstrap key";

export interface BootstrapResult {
  organizationId: string;
  /** Set only when this call generated a token: the one moment it can be shown. */
  createdToken?: string;
}

export interface BootstrapOptions {
  /** The owner key to use instead of a generated one. */
  token?: string | undefined;
  /**
   * Keeps a generated token somewhere (a file). It runs before the key is committed: if it throws,
   * nothing is created and the next start tries again, so a generated key is never lost unsaved.
   */
  saveCreatedToken?: (token: string) => void | Promise<void>;
}

/**
 * Makes sure a fresh installation can be used: the first start creates an organisation and an owner
 * key; later starts change nothing, except that a newly chosen `token` becomes an owner key of the
 * oldest organisation. Safe to call on every start, from several processes at once.
 */
export async function ensureBootstrap(
  db: Kysely<Database>,
  options: BootstrapOptions = {},
): Promise<BootstrapResult> {
  const { token, saveCreatedToken } = options;
  if (token !== undefined && !isTokenShaped(token)) {
    throw new Error(
      "The bootstrap key must start with svc_ and be at most 512 printable characters without spaces",
    );
  }
  return db.transaction().execute(async (trx) => {
    await lockBootstrap(trx);
    const oldest = await findOptionalOldestOrganization(trx);
    if (!oldest) {
      const created = await insertOrganizationWithOwner(trx, BOOTSTRAP_ORGANIZATION_NAME, {
        token,
        startUpOwner: true,
      });
      const organizationId = created.organization.id;
      if (token !== undefined) return { organizationId };
      await saveCreatedToken?.(created.apiKey.token);
      return { organizationId, createdToken: created.apiKey.token };
    }
    if (token !== undefined && !(await existsApiKeyHash(trx, hashToken(token)))) {
      await issueApiKey(trx, { organizationId: oldest.id, name: BOOTSTRAP_KEY_NAME, role: "owner", token });
    }
    return { organizationId: oldest.id };
  });
}
