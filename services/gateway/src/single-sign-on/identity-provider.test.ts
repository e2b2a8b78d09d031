import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { silentLogger } from "@svc/telemetry";
import { afterEach, describe, expect, it } from "vitest";
import { IdentityProvider, SingleSignOnError } from "./identity-provider";

/** A provider's discovery document on a loopback port, counting how often it is asked for. */
async function discoveryServer(
  port = 0,
): Promise<{ issuer: string; asked: () => number; close(): Promise<void> }> {
  let asked = 0;
  let issuer = "";
  const server: Server = createServer((request, response) => {
    if (request.url !== "/.well-known/openid-configuration") return response.writeHead(404).end();
    asked++;
    response.writeHead(200, { "content-type": "application/json", connection: "close" }).end(
      JSON.stringify({
        issuer,
        authorization_endpoint: `${issuer}/auth`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ["code"],
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    asked: () => asked,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const providerAt = (issuer: string, now: () => number) =>
  new IdentityProvider(
    { issuer: new URL(issuer), clientId: "svc", clientSecret: "secret", name: "Test" },
    silentLogger(),
    now,
  );

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe("the identity provider's discovery", () => {
  it("asks nothing until the first sign-in, and says unavailable while the provider is down, then recovers", async () => {
    const probe = await discoveryServer();
    const port = new URL(probe.issuer).port;
    await probe.close();
    const provider = providerAt(probe.issuer, Date.now);

    const failure = await provider.configuration().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SingleSignOnError);
    expect((failure as SingleSignOnError).failure).toBe("oidc_unavailable");

    const server = await discoveryServer(Number(port));
    closers.push(server.close);
    expect((await provider.configuration()).serverMetadata().issuer).toBe(server.issuer);
    expect(server.asked()).toBe(1);
  });

  it("keeps what it discovered for ten minutes, and asks again once it is forgotten", async () => {
    const server = await discoveryServer();
    closers.push(server.close);
    let now = 0;
    const provider = providerAt(server.issuer, () => now);

    await provider.configuration();
    await provider.configuration();
    now += 10 * 60_000;
    await provider.configuration();
    expect(server.asked()).toBe(1);

    now += 1;
    await provider.configuration();
    expect(server.asked()).toBe(2);
    provider.forget();
    await provider.configuration();
    expect(server.asked()).toBe(3);
  });
});
