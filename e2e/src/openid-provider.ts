import { generateKeyPairSync, randomBytes } from "node:crypto";
import type { Server } from "node:http";
import Provider, { type JWK } from "oidc-provider";

/** A person as the identity provider knows them: the claims it vouches for. */
export interface ProviderAccount {
  email: string;
  email_verified: boolean;
  name: string;
}

export interface OpenIdProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Where the provider may send browsers back (read at each start). */
  redirectUris: string[];
  /** People who can sign in at the provider, by account id. */
  accounts: Map<string, ProviderAccount>;
  /** Starts answering on the issuer's port, signing with `key`. */
  start(key: JWK): Promise<void>;
  /** Stops answering at once: the provider is down. */
  stop(): Promise<void>;
}

/** A new RS256 signing key for the provider; its `kid` names it in every token it signs. */
export function signingKey(kid = randomBytes(6).toString("hex")): JWK {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return { ...(privateKey.export({ format: "jwk" }) as JWK), kid, alg: "RS256", use: "sig" };
}

/**
 * A real, certified OpenID Provider (the `oidc-provider` package) on a loopback port, with one
 * confidential client and its development login and consent forms. Each start is a new instance on
 * the same issuer: a restart with another key is a key rotation.
 */
export function openIdProvider(port: number): OpenIdProvider {
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = "svc";
  const clientSecret = randomBytes(24).toString("base64url");
  const accounts = new Map<string, ProviderAccount>();
  let server: Server | undefined;
  const redirectUris: string[] = [];
  return {
    issuer,
    clientId,
    clientSecret,
    redirectUris,
    accounts,
    async start(key) {
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: clientId,
            client_secret: clientSecret,
            redirect_uris: [...redirectUris],
            response_types: ["code"],
            grant_types: ["authorization_code"],
            token_endpoint_auth_method: "client_secret_basic",
          },
        ],
        jwks: { keys: [key] },
        claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
        cookies: { keys: [randomBytes(16).toString("hex")] },
        findAccount: (_context, id) => {
          const account = accounts.get(id);
          if (!account) return undefined;
          return { accountId: id, claims: () => ({ sub: id, ...account }) };
        },
      });
      // No connection outlives its answer: one kept open by a client would be dead after a restart.
      provider.use(async (context, next) => {
        await next();
        context.set("connection", "close");
      });
      await new Promise<void>((resolve) => {
        server = provider.listen(port, "127.0.0.1", () => resolve());
      });
    },
    async stop() {
      const running = server;
      server = undefined;
      if (!running) return;
      running.closeAllConnections();
      await new Promise((resolve) => running.close(resolve));
    },
  };
}
