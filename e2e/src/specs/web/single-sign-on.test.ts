import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { client } from "../../http";
import { type OpenIdProvider, openIdProvider, signingKey } from "../../openid-provider";
import { freePort, startedForSuite } from "../../platform";
import { startEmbedded } from "../../targets";
import { chromiumAvailable, expectAccessible, screenshot, watchedPageForSuite } from "../../web/harness";

/**
 * A person invited by address signs in with their organisation's identity provider (a real
 * OpenID provider on a loopback port), in Chromium, and lands in the application as themselves.
 */
describe.runIf(chromiumAvailable())("single sign-on in the browser", () => {
  let provider: OpenIdProvider;
  const platform = startedForSuite(async () => {
    provider = openIdProvider(await freePort());
    return startEmbedded({
      SVC_OIDC_ISSUER: provider.issuer,
      SVC_OIDC_CLIENT_ID: provider.clientId,
      SVC_OIDC_CLIENT_SECRET: provider.clientSecret,
      SVC_OIDC_NAME: "Example Login",
    });
  });
  const watched = watchedPageForSuite(() => platform.baseUrl);
  const email = `kim-${randomBytes(3).toString("hex")}@example.com`;

  beforeAll(async () => {
    provider.redirectUris.push(`${platform.baseUrl}/v1/session/oidc/callback`);
    provider.accounts.set("kim", { email, email_verified: true, name: "Kim" });
    await provider.start(signingKey());
    const invited = await client(platform.baseUrl, platform.ownerKey).post("/v1/members", {
      email,
      role: "admin",
    });
    expect(invited.status).toBe(201);
  });
  afterAll(() => provider?.stop());
  afterEach(async ({ task }) => {
    if (task.result?.state === "fail") await screenshot(watched.page, `failed ${task.name}`.slice(0, 60));
  });
  // The provider's own pages are elsewhere by design (and ask for a web font this machine cannot reach).
  const problemsOfThePlatform = () =>
    watched.problems.filter((p) => !p.includes(provider.issuer) && !p.includes("fonts.googleapis.com"));

  it("signs an invited person in with the provider and lands in the application as them", async () => {
    const page = watched.page;
    await page.goto(`${platform.baseUrl}/sign-in`);
    const offer = page.getByRole("link", { name: "Sign in with Example Login" });
    await offer.waitFor();
    await expectAccessible(page, "sign-in page with single sign-on");
    await screenshot(page, "sign-in with single sign-on");

    await offer.click();
    await page.locator('input[name="login"]').fill("kim");
    await page.locator('input[name="password"]').fill("any");
    await page.getByRole("button", { name: "Sign-in" }).click();
    await page.getByRole("button", { name: "Continue" }).click();

    await page.waitForURL(`${platform.baseUrl}/projects`);
    const session = await page.evaluate(async () => (await fetch("/v1/session")).json());
    expect(session).toMatchObject({ role: "admin", user: { email, name: email } });
    expect(problemsOfThePlatform()).toEqual([]);
  });

  it("says why, in a sentence, when the provider's sign-in does not let the person in", async () => {
    const page = watched.page;
    await watched.context.clearCookies(); // a browser where nobody is signed in
    await page.goto(`${platform.baseUrl}/sign-in?error=oidc_not_a_member`);
    await page
      .getByText(
        "Your e-mail address is not a member of any organisation here. Ask an owner or admin to invite you.",
      )
      .waitFor();
    await screenshot(page, "sign-in after a refused single sign-on");
  });
});
