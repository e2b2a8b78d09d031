import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { createServer as createHttpsServer, type Server } from "node:https";
import { type AddressInfo, connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer as createTlsServer, type Server as TlsServer } from "node:tls";
import { freePort, startEmbedded, type Target } from "@svc/testing/platform";
import { programsAvailable } from "@svc/testing/programs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { expectFailure, runSvc, type SvcOptions, suiteExecutable } from "./run-svc";

const given = suiteExecutable;
const executable = inject("svcBinary");
/**
 * Runtimes differ in what TLS accepts (Node 26 refuses an IP address as the server name, which Node
 * 20 only warns of) and in how they reach a proxy, so the TLS tests run svc as the suite runs it (the
 * npm package on this machine's Node, or the single executable) and, where it was built, as the
 * single executable, on the Bun release it is compiled with.
 */
const runners: { name: string; options: Pick<SvcOptions, "binary"> }[] = [
  { name: given ? `as ${given}` : `as the npm package on Node ${process.versions.node}`, options: {} },
  ...(executable !== "" && executable !== given
    ? [{ name: "as the single executable", options: { binary: executable } }]
    : []),
];

let platform: Target;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "svc-network-"));
  platform = await startEmbedded();
});
afterAll(async () => {
  await platform?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A real HTTP proxy (Debian's tinyproxy), with its own configuration and log. */
interface Proxy {
  url: string;
  /** What the proxy logged so far. */
  log(): string;
  stop(): Promise<void>;
}

async function startTinyproxy(name: string, allow: string): Promise<Proxy> {
  const port = await freePort();
  const logFile = join(dir, `${name}.log`);
  const config = join(dir, `${name}.conf`);
  writeFileSync(
    config,
    [
      `Port ${port}`,
      "Listen 127.0.0.1",
      "Timeout 30",
      "LogLevel Connect",
      `LogFile "${logFile}"`,
      "MaxClients 20",
      `Allow ${allow}`,
    ].join("\n"),
  );
  writeFileSync(logFile, "");
  const child: ChildProcess = spawn("tinyproxy", ["-d", "-c", config], { stdio: "ignore" });
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 100; attempt++) {
    const listening = await new Promise<boolean>((resolve) => {
      const probe = httpRequest(url, { method: "HEAD" }, () => resolve(true));
      probe.on("error", () => resolve(false));
      probe.end();
    });
    if (listening) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    log: () => readFileSync(logFile, "utf8"),
    stop: async () => {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

const api = (extra: Record<string, string>) => ({ SVC_API_KEY: platform.ownerKey, ...extra });

describe("through a real proxy (tinyproxy)", () => {
  // Without tinyproxy, the tests that need no proxy running still run.
  const tinyproxy = programsAvailable("tinyproxy");
  let proxy: Proxy;
  let refusing: Proxy;
  beforeAll(async () => {
    if (!tinyproxy) return;
    proxy = await startTinyproxy("open", "127.0.0.1");
    refusing = await startTinyproxy("refusing", "10.255.255.254");
  });
  afterAll(async () => {
    await proxy?.stop();
    await refusing?.stop();
  });

  it.runIf(tinyproxy)("goes through SVC_PROXY", async () => {
    const result = await runSvc(["account", "get", "--format", "json"], {
      env: api({ SVC_BASE_URL: platform.baseUrl, SVC_PROXY: proxy.url }),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).role).toBe("owner");
    expect(proxy.log()).toContain(`GET ${platform.baseUrl}/v1/account`);
  });

  it.runIf(tinyproxy)(
    "goes through HTTP_PROXY (lower case too), and around it for a NO_PROXY host",
    async () => {
      const before = proxy.log().length;
      const upper = await runSvc(["projects", "list"], {
        env: api({ SVC_BASE_URL: platform.baseUrl, HTTP_PROXY: proxy.url }),
      });
      expect(upper.code, upper.stderr).toBe(0);
      const lower = await runSvc(["projects", "list"], {
        env: api({ SVC_BASE_URL: platform.baseUrl, http_proxy: proxy.url }),
      });
      expect(lower.code, lower.stderr).toBe(0);
      expect(
        proxy
          .log()
          .slice(before)
          .match(/GET \S+\/v1\/projects/g),
      ).toHaveLength(2);

      const bypassed = proxy.log().length;
      const direct = await runSvc(["projects", "list"], {
        env: api({ SVC_BASE_URL: platform.baseUrl, HTTP_PROXY: proxy.url, NO_PROXY: "127.0.0.1" }),
      });
      expect(direct.code, direct.stderr).toBe(0);
      const lowerDirect = await runSvc(["projects", "list"], {
        env: api({ SVC_BASE_URL: platform.baseUrl, http_proxy: proxy.url, no_proxy: "localhost,127.0.0.1" }),
      });
      expect(lowerDirect.code, lowerDirect.stderr).toBe(0);
      expect(proxy.log().slice(bypassed)).not.toContain("/v1/projects");
      // The proxy is still used for the hosts that no_proxy does not name.
      const proxied = await runSvc(["projects", "list"], {
        env: api({ SVC_BASE_URL: platform.baseUrl, http_proxy: proxy.url, no_proxy: "localhost" }),
      });
      expect(proxied.code, proxied.stderr).toBe(0);
      expect(proxy.log().slice(bypassed)).toContain("/v1/projects");
    },
  );

  it.runIf(tinyproxy)("exits 4 with a message naming the proxy settings when the proxy refuses", async () => {
    const result = await runSvc(["account", "get"], {
      env: api({ SVC_BASE_URL: platform.baseUrl, SVC_PROXY: refusing.url }),
    });
    const error = expectFailure(result, 4);
    expect(error).toMatchObject({ code: "proxy_error", status: 403 });
    expect(error.hint).toContain("SVC_PROXY");
  });

  it("exits 4 when the proxy is not running", async () => {
    const result = await runSvc(["account", "get"], {
      env: api({ SVC_BASE_URL: platform.baseUrl, SVC_PROXY: `http://127.0.0.1:${await freePort()}` }),
    });
    expect(expectFailure(result, 4).error).toContain("through the proxy");
  });

  it.each(["socks5://127.0.0.1:1080", "socks://127.0.0.1:1080", "ftp://127.0.0.1:21"])(
    "refuses a proxy of a scheme it does not speak (%s) with exit 3, naming the ones it does",
    async (proxy) => {
      const result = await runSvc(["account", "get"], {
        env: api({ SVC_BASE_URL: platform.baseUrl, SVC_PROXY: proxy }),
      });
      const error = expectFailure(result, 3);
      expect(error.error).toContain(`"${proxy.split(":")[0]}:"`);
      expect(error.hint).toContain("http://");
      expect(error.hint).toContain("https://");
    },
  );

  describe.runIf(programsAvailable("openssl"))("over TLS", () => {
    let front: Server;
    let other: Server;
    let httpsUrl: string;
    let otherUrl: string;
    let caFile: string;
    let otherCa: string;

    beforeAll(async () => {
      makeCertificates(dir, "main");
      makeCertificates(dir, "other");
      caFile = join(dir, "main-ca.pem");
      otherCa = join(dir, "other-ca.pem");
      ({ server: front, url: httpsUrl } = await httpsFront("main"));
      ({ server: other, url: otherUrl } = await httpsFront("other"));
    });
    afterAll(() => {
      for (const server of [front, other]) {
        server?.closeAllConnections();
        server?.close();
      }
    });

    for (const { name, options: runner } of runners) {
      describe(`run ${name}`, () => {
        it("refuses a certificate from an unknown CA with exit 4 and a message naming the fix", async () => {
          const result = await runSvc(["account", "get"], {
            ...runner,
            env: api({ SVC_BASE_URL: httpsUrl }),
          });
          const error = expectFailure(result, 4);
          expect(error.code).toBe("tls_error");
          expect(error.hint).toContain("SVC_CA_BUNDLE");
        });

        it("trusts the CA given in SVC_CA_BUNDLE, or in SSL_CERT_FILE", async () => {
          const bundle = await runSvc(["account", "get"], {
            ...runner,
            env: api({ SVC_BASE_URL: httpsUrl, SVC_CA_BUNDLE: caFile }),
          });
          expect(bundle.code, bundle.stderr).toBe(0);
          const certFile = await runSvc(["account", "get"], {
            ...runner,
            env: api({ SVC_BASE_URL: httpsUrl, SSL_CERT_FILE: caFile }),
          });
          expect(certFile.code, certFile.stderr).toBe(0);
        });

        it("adds SVC_CA_BUNDLE to the roots of SSL_CERT_FILE instead of replacing them", async () => {
          const roots = { SSL_CERT_FILE: caFile, SVC_CA_BUNDLE: otherCa };
          const viaRoots = await runSvc(["account", "get"], {
            ...runner,
            env: api({ SVC_BASE_URL: httpsUrl, ...roots }),
          });
          expect(viaRoots.code, viaRoots.stderr).toBe(0);
          const viaBundle = await runSvc(["account", "get"], {
            ...runner,
            env: api({ SVC_BASE_URL: otherUrl, ...roots }),
          });
          expect(viaBundle.code, viaBundle.stderr).toBe(0);
          const neither = await runSvc(["account", "get"], {
            ...runner,
            env: api({ SVC_BASE_URL: otherUrl, SSL_CERT_FILE: caFile }),
          });
          expect(expectFailure(neither, 4).code).toBe("tls_error");
        });

        it("skips verification with SVC_INSECURE=1, and says so on every command that sends a request", async () => {
          const env = api({ SVC_BASE_URL: httpsUrl, SVC_INSECURE: "1" });
          for (const args of [
            ["account", "get"],
            ["projects", "list", "--page-all", "--quiet"],
          ]) {
            const result = await runSvc(args, { ...runner, env });
            expect(result.code, result.stderr).toBe(0);
            expect(result.stderr).toBe(
              "svc: warning: SVC_INSECURE is set: TLS certificates are not verified\n",
            );
          }
          const failing = await runSvc(["datasets", "get", "--project-slug", "no", "--dataset-slug", "no"], {
            ...runner,
            env,
          });
          expect(expectFailure(failing, 1).code).toBe("not_found");
          expect(failing.stderr).toMatch(/^svc: warning: SVC_INSECURE is set/);
          // No request, no warning.
          const dryRun = await runSvc(["account", "get", "--dry-run"], { ...runner, env });
          expect(dryRun.stderr).not.toContain("SVC_INSECURE");
        });

        it.runIf(tinyproxy)(
          "tunnels through HTTPS_PROXY with CONNECT, the custom CA applying to the origin",
          async () => {
            const before = proxy.log().length;
            const result = await runSvc(["account", "get"], {
              ...runner,
              env: api({ SVC_BASE_URL: httpsUrl, HTTPS_PROXY: proxy.url, SVC_CA_BUNDLE: caFile }),
            });
            expect(result.code, result.stderr).toBe(0);
            expect(proxy.log().slice(before)).toContain(`CONNECT ${new URL(httpsUrl).host}`);
          },
        );

        describe.runIf(tinyproxy)("through an HTTPS proxy", () => {
          let tlsProxy: TlsServer;
          let tlsProxyUrl: string;
          let serverNames: (string | false | null)[];
          beforeAll(async () => {
            ({
              server: tlsProxy,
              url: tlsProxyUrl,
              serverNames,
            } = await tlsInFrontOf(Number(new URL(proxy.url).port), "other"));
          });
          afterAll(() => tlsProxy?.close());

          it("speaks TLS to the proxy and to the origin, both checked against the custom roots", async () => {
            const before = proxy.log().length;
            const named = serverNames.length;
            const bundle = join(dir, "both-ca.pem");
            writeFileSync(bundle, `${readFileSync(caFile, "utf8")}${readFileSync(otherCa, "utf8")}`);
            const result = await runSvc(["account", "get", "--format", "json"], {
              ...runner,
              env: api({ SVC_BASE_URL: httpsUrl, SVC_PROXY: tlsProxyUrl, SVC_CA_BUNDLE: bundle }),
            });
            expect(result.code, result.stderr).toBe(0);
            expect(result.stderr).toBe("");
            expect(JSON.parse(result.stdout).role).toBe("owner");
            expect(proxy.log().slice(before)).toContain(`CONNECT ${new URL(httpsUrl).host}`);
            // RFC 6066 allows no IP address as the server name: the proxy, given by one, gets none.
            expect(new Set(serverNames.slice(named))).toEqual(new Set([false]));
          });

          it("refuses a proxy whose certificate it cannot verify, with exit 4", async () => {
            const result = await runSvc(["account", "get"], {
              ...runner,
              env: api({ SVC_BASE_URL: httpsUrl, SVC_PROXY: tlsProxyUrl, SVC_CA_BUNDLE: caFile }),
            });
            expect(expectFailure(result, 4).code).toBe("tls_error");
          });
        });
      });
    }
  });
});

/**
 * A throw-away CA and a certificate for 127.0.0.1 signed by it: `<name>-ca.pem`, `<name>-server.pem`
 * and `<name>-server.key` in `into`.
 */
function makeCertificates(into: string, name: string): void {
  const run = (...args: string[]) => execFileSync("openssl", args, { cwd: into, stdio: "pipe" });
  const ca = `${name}-ca`;
  const server = `${name}-server`;
  run(
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    `${ca}.key`,
    "-out",
    `${ca}.pem`,
    "-days",
    "1",
    "-subj",
    `/CN=svc test CA ${name}`,
  );
  run(
    "req",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    `${server}.key`,
    "-out",
    `${server}.csr`,
    "-subj",
    "/CN=127.0.0.1",
  );
  writeFileSync(join(into, "san.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
  run(
    "x509",
    "-req",
    "-in",
    `${server}.csr`,
    "-CA",
    `${ca}.pem`,
    "-CAkey",
    `${ca}.key`,
    "-CAcreateserial",
    "-out",
    `${server}.pem`,
    "-days",
    "1",
    "-extfile",
    "san.ext",
  );
}

/** An HTTPS front of the platform with a certificate of the CA `name`. */
async function httpsFront(name: string): Promise<{ server: Server; url: string }> {
  const server = createHttpsServer(
    {
      key: readFileSync(join(dir, `${name}-server.key`)),
      cert: readFileSync(join(dir, `${name}-server.pem`)),
    },
    (incoming, outgoing) => {
      const upstream = httpRequest(
        `${platform.baseUrl}${incoming.url ?? "/"}`,
        { method: incoming.method, headers: incoming.headers },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      incoming.pipe(upstream);
    },
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `https://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/**
 * A TLS listener in front of a plain TCP port: makes tinyproxy an HTTPS proxy. `serverNames` holds the
 * server name (SNI) of each connection it accepted, false for none.
 */
async function tlsInFrontOf(
  port: number,
  name: string,
): Promise<{ server: TlsServer; url: string; serverNames: (string | false | null)[] }> {
  const serverNames: (string | false | null)[] = [];
  const server = createTlsServer(
    {
      key: readFileSync(join(dir, `${name}-server.key`)),
      cert: readFileSync(join(dir, `${name}-server.pem`)),
    },
    (socket) => {
      serverNames.push(socket.servername);
      const upstream = connect(port, "127.0.0.1");
      socket.pipe(upstream).pipe(socket);
      socket.on("error", () => upstream.destroy());
      upstream.on("error", () => socket.destroy());
    },
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, serverNames };
}
