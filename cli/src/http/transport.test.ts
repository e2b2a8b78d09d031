import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { rootCertificates } from "node:tls";
import type { buildConnector } from "undici";
import { afterAll, describe, expect, it } from "vitest";
import { readSettings } from "../env";
import { CliError } from "../errors";
import { bypassesProxy, proxyFor, tlsOptions, withoutIpServerName } from "./transport";

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

describe("the TLS options", () => {
  const dir = mkdtempSync(join(tmpdir(), "svc-tls-test-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const pem = (name: string) => {
    const text = `-----BEGIN CERTIFICATE-----\n${name}\n-----END CERTIFICATE-----\n`;
    writeFileSync(join(dir, `${name}.pem`), text);
    return { path: join(dir, `${name}.pem`), text };
  };
  const bundle = pem("bundle");
  const certFile = pem("certfile");

  it("leave Node's own roots alone when nothing is configured", () => {
    expect(tlsOptions(readSettings({}))).toEqual({});
  });

  it("add SVC_CA_BUNDLE to the system roots, not replace them", () => {
    const { ca } = tlsOptions(readSettings({ SVC_CA_BUNDLE: bundle.path }));
    expect(rootCertificates.length).toBeGreaterThan(50);
    expect(ca).toEqual([...rootCertificates, bundle.text]);
  });

  it("take SSL_CERT_FILE as the system roots, and still add SVC_CA_BUNDLE to them", () => {
    expect(tlsOptions(readSettings({ SSL_CERT_FILE: certFile.path })).ca).toEqual([certFile.text]);
    expect(tlsOptions(readSettings({ SSL_CERT_FILE: certFile.path, SVC_CA_BUNDLE: bundle.path })).ca).toEqual(
      [certFile.text, bundle.text],
    );
  });

  it("skip verification only with SVC_INSECURE", () => {
    expect(tlsOptions(readSettings({ SVC_INSECURE: "1" })).rejectUnauthorized).toBe(false);
    expect(tlsOptions(readSettings({ SVC_INSECURE: "0" })).rejectUnauthorized).toBeUndefined();
  });

  it("refuse a bundle that cannot be read or holds no certificate, as a usage error", () => {
    writeFileSync(join(dir, "empty.pem"), "nothing here");
    for (const path of [join(dir, "missing.pem"), join(dir, "empty.pem")]) {
      const call = () => tlsOptions(readSettings({ SVC_CA_BUNDLE: path }));
      expect(call).toThrow(CliError);
      expect(call).toThrow(/SVC_CA_BUNDLE/);
    }
  });
});

describe("the connection to a proxy", () => {
  const endpoint = { hostname: "127.0.0.1", protocol: "https:", port: "3128" };
  /** What reaches undici's connector when undici asks to connect to the proxy with `servername`. */
  const connectOptions = (servername: string) => {
    const seen: buildConnector.Options[] = [];
    const callback: buildConnector.Callback = () => undefined;
    const connect = withoutIpServerName((options, given) => {
      expect(given).toBe(callback);
      seen.push(options);
    });
    connect({ ...endpoint, servername }, callback);
    expect(seen).toHaveLength(1);
    return seen[0];
  };

  it.each(["127.0.0.1", "::1", "[::1]"])("sends no server name for the IP address %s", (address) => {
    expect(connectOptions(address)).toStrictEqual(endpoint);
  });

  it("names a proxy given by host name, as undici does", () => {
    expect(connectOptions("proxy.example.com")).toStrictEqual({
      ...endpoint,
      servername: "proxy.example.com",
    });
  });
});
