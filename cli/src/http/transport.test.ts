import { describe, expect, it } from "vitest";
import { readSettings } from "../env";
import { bypassesProxy, proxyFor } from "./transport";

describe("NO_PROXY", () => {
  const url = new URL("https://api.example.com:8443/v1");
  it.each([
    ["*", true],
    ["example.com", true],
    [".example.com", true],
    ["api.example.com:8443", true],
    ["api.example.com:443", false],
    ["other.com, localhost", false],
    ["xample.com", false],
  ])("%s bypasses the proxy: %s", (noProxy, expected) => {
    expect(bypassesProxy(url, noProxy)).toBe(expected);
  });
});

describe("the proxy for an address", () => {
  const settings = readSettings({});
  it("takes HTTPS_PROXY for https and HTTP_PROXY for http, in either case", () => {
    const env = { https_proxy: "http://secure:1", HTTP_PROXY: "http://plain:2" };
    expect(proxyFor(new URL("https://a.test"), settings, env)).toBe("http://secure:1");
    expect(proxyFor(new URL("http://a.test"), settings, env)).toBe("http://plain:2");
  });

  it("prefers SVC_PROXY, still honouring NO_PROXY", () => {
    const withSvc = readSettings({ SVC_PROXY: "http://svc:3" });
    expect(proxyFor(new URL("https://a.test"), withSvc, { HTTPS_PROXY: "http://other:1" })).toBe(
      "http://svc:3",
    );
    expect(proxyFor(new URL("https://a.test"), withSvc, { NO_PROXY: "a.test" })).toBeUndefined();
  });
});
