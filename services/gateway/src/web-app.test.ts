import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type FakePlatform, fakePlatform } from "./testing/fake-platform";
import { contentSecurityPolicy } from "./web-app";

let platform: FakePlatform | undefined;
afterEach(async () => {
  await platform?.close();
  platform = undefined;
});

const PAGE =
  '<!doctype html><meta property="csp-nonce" nonce="__SVC_CSP_NONCE__"><script type="module" src="/assets/index-abc123.js"></script>';

function builtApp(): string {
  const root = mkdtempSync(join(tmpdir(), "svc-web-"));
  mkdirSync(join(root, "assets"));
  writeFileSync(join(root, "index.html"), PAGE);
  writeFileSync(join(root, "assets", "index-abc123.js"), "console.log(1)");
  writeFileSync(join(root, "favicon.svg"), "<svg/>");
  return root;
}

describe("the web application", () => {
  it.each(["/", "/projects", "/projects/p/datasets/d?row=r1&version=12", "/settings/keys", "/sign-in"])(
    "answers %s with the application's page, a strict CSP with a nonce of its own, and no caching",
    async (url) => {
      platform = await fakePlatform({}, { webRoot: builtApp() });
      const response = await platform.gateway.app.inject({ method: "GET", url });
      const again = await platform.gateway.app.inject({ method: "GET", url });
      expect(response.statusCode).toBe(200);
      const nonce = /nonce="([A-Za-z0-9+/=]{24})"/.exec(response.body)?.[1] ?? "";
      expect(response.body).toBe(PAGE.replace("__SVC_CSP_NONCE__", nonce));
      expect(again.body).not.toContain(nonce);
      expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(response.headers["content-security-policy"]).toBe(contentSecurityPolicy(nonce));
      expect(response.headers["content-security-policy"]).toBe(
        `default-src 'self'; script-src 'self'; style-src 'self' 'nonce-${nonce}'; img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`,
      );
      expect(response.headers["cache-control"]).toBe("no-store");
      expect(response.headers["x-content-type-options"]).toBe("nosniff");
      expect(response.headers["x-frame-options"]).toBe("DENY");
    },
  );

  it("names the file of the first owner key to the sign-in page, escaped, only when given one", async () => {
    const PAGE_WITH_HEAD = "<!doctype html><html><head><title>svc</title></head><body></body></html>";
    const root = builtApp();
    writeFileSync(join(root, "index.html"), PAGE_WITH_HEAD);
    platform = await fakePlatform({}, { webRoot: root, ownerKeyFile: '/srv/a "b" & <c>/bootstrap-key' });
    const named = await platform.gateway.app.inject({ method: "GET", url: "/sign-in" });
    expect(named.body).toBe(
      PAGE_WITH_HEAD.replace(
        "</head>",
        '<meta name="svc-owner-key-file" content="/srv/a &quot;b&quot; &amp; &lt;c&gt;/bootstrap-key" />\n</head>',
      ),
    );
    await platform.close();
    platform = await fakePlatform({}, { webRoot: root });
    const unnamed = await platform.gateway.app.inject({ method: "GET", url: "/sign-in" });
    expect(unnamed.body).toBe(PAGE_WITH_HEAD);
  });

  it("serves hashed assets for a year and other files revalidated", async () => {
    platform = await fakePlatform({}, { webRoot: builtApp() });
    const asset = await platform.gateway.app.inject({ method: "GET", url: "/assets/index-abc123.js" });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe("console.log(1)");
    expect(asset.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(asset.headers["content-security-policy"]).toBe(contentSecurityPolicy());

    const icon = await platform.gateway.app.inject({ method: "GET", url: "/favicon.svg" });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers["cache-control"]).toBe("no-cache");
  });

  it("does not answer the API's paths, nor writes, with the page", async () => {
    platform = await fakePlatform({}, { webRoot: builtApp() });
    for (const [method, url] of [
      ["GET", "/v1/nothing-here"],
      ["GET", "/oauth/nothing"],
      ["GET", "/.well-known/nothing"],
      ["POST", "/projects"],
    ] as const) {
      const response = await platform.gateway.app.inject({ method, url });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json()).toMatchObject({ code: "not_found" });
    }
    expect((await platform.gateway.app.inject({ method: "GET", url: "/healthz" })).json()).toEqual({
      status: "ok",
    });
  });

  it("says how to build it when it is not built", async () => {
    platform = await fakePlatform({}, { webRoot: join(tmpdir(), "svc-web-missing") });
    const response = await platform.gateway.app.inject({ method: "GET", url: "/projects" });
    expect(response.statusCode).toBe(503);
    expect(response.body).toContain("run <code>npm run build</code>");
  });
});
