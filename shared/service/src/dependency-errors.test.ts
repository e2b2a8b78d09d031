import { connect, createServer } from "node:net";
import { InProcessBus } from "@svc/bus";
import { CommitOutcomeUnknown, isDependencyUnavailable } from "@svc/db";
import { silentLogger } from "@svc/telemetry";
import { describe, expect, it } from "vitest";
import { serveSubject } from "./operations";

const context = { organizationId: null, role: null, actor: null, requestId: "r1" };

/** The error Node gives when nothing listens on a port. */
async function refusedConnectionError(): Promise<Error> {
  const server = createServer();
  const port = await new Promise<number>((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve((server.address() as { port: number }).port)),
  );
  await new Promise((resolve) => server.close(resolve));
  return new Promise((resolve) => connect(port, "127.0.0.1").once("error", resolve));
}

function withCode(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

describe("isDependencyUnavailable", () => {
  it("recognises a refused connection, a server shutting down and a connection the driver lost", async () => {
    expect(isDependencyUnavailable(await refusedConnectionError())).toBe(true);
    expect(
      isDependencyUnavailable(withCode("terminating connection due to administrator command", "57P01")),
    ).toBe(true);
    expect(isDependencyUnavailable(withCode("the database system is starting up", "57P03"))).toBe(true);
    expect(isDependencyUnavailable(withCode("connection failure", "08006"))).toBe(true);
    expect(isDependencyUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isDependencyUnavailable(new Error("timeout exceeded when trying to connect"))).toBe(true);
    expect(isDependencyUnavailable(new Error("wrapped", { cause: withCode("reset", "ECONNRESET") }))).toBe(
      true,
    );
    expect(isDependencyUnavailable(new AggregateError([withCode("refused", "ECONNREFUSED")]))).toBe(true);
  });

  it("leaves bugs and query errors alone", () => {
    expect(isDependencyUnavailable(new TypeError("x is undefined"))).toBe(false);
    expect(isDependencyUnavailable(withCode('relation "nope" does not exist', "42P01"))).toBe(false);
    expect(isDependencyUnavailable(withCode("duplicate key value", "23505"))).toBe(false);
    expect(isDependencyUnavailable("Connection terminated")).toBe(false);
  });
});

describe("serveSubject", () => {
  it("answers service_unavailable, not internal_error, when the database cannot be reached", async () => {
    const bus = new InProcessBus();
    serveSubject(bus, "svc.v1.datasets.rows.update", silentLogger(), async () => {
      throw new Error("Connection terminated unexpectedly");
    });
    serveSubject(bus, "svc.v1.datasets.rows.get", silentLogger(), async () => {
      throw new TypeError("a bug");
    });
    const down = await bus.request("svc.v1.datasets.rows.update", { context, input: {} });
    expect(down).toEqual({
      ok: false,
      error: {
        code: "service_unavailable",
        message: "The datasets service cannot reach its database right now; retry shortly",
      },
    });
    const bug = await bus.request("svc.v1.datasets.rows.get", { context, input: {} });
    expect(bug).toEqual({
      ok: false,
      error: { code: "internal_error", message: "Internal error; quote request id r1 when reporting it" },
    });
    await bus.close();
  });

  it("answers a change whose commit broke off as of unknown outcome, which the gateway sends again", async () => {
    const bus = new InProcessBus();
    serveSubject(bus, "svc.v1.datasets.rows.update", silentLogger(), async () => {
      throw new CommitOutcomeUnknown(new Error("Connection terminated unexpectedly"));
    });
    const reply = await bus.request("svc.v1.datasets.rows.update", { context, input: {} });
    expect(reply).toMatchObject({
      ok: false,
      outcome: "unknown",
      error: {
        code: "service_unavailable",
        message: expect.stringContaining("whether it was applied is unknown"),
      },
    });
    await bus.close();
  });
});
