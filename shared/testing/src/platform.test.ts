import { createServer, type Server } from "node:net";
import { afterAll, describe, expect, it, vi } from "vitest";

// The first port handed out is one that a server of this test holds, as if another test (or the local
// end of an outgoing connection) had taken it between the choice of the port and the listen.
const ports = vi.hoisted(() => ({ taken: 0, handedOut: [] as number[] }));
vi.mock("./processes", async (actual) => {
  const original = await actual<typeof import("./processes")>();
  return {
    ...original,
    freePort: async () => {
      const port = ports.handedOut.length === 0 ? ports.taken : await original.freePort();
      ports.handedOut.push(port);
      return port;
    },
  };
});

const { startEmbedded, startPlatform } = await import("./platform");

describe("startEmbedded", () => {
  let holder: Server | undefined;
  afterAll(() => holder?.close());

  it("starts the server again on another port when its port was taken before it listened", async () => {
    holder = createServer();
    await new Promise<void>((listening) => holder?.listen(0, "127.0.0.1", listening));
    const address = holder.address();
    ports.taken = typeof address === "object" && address ? address.port : 0;

    const platform = await startEmbedded();
    try {
      expect(ports.handedOut).toHaveLength(2);
      expect(ports.handedOut[0]).toBe(ports.taken);
      expect(platform.baseUrl).toBe(`http://127.0.0.1:${ports.handedOut[1]}`);
      expect((await fetch(`${platform.baseUrl}/readyz`)).status).toBe(200);
    } finally {
      await platform.stop();
    }
  }, 60_000);
});

describe("startPlatform", () => {
  let holder: Server | undefined;
  afterAll(() => holder?.close());

  it("starts the gateway again on another port when its port was taken before it listened", async () => {
    holder = createServer((socket) => socket.destroy());
    await new Promise<void>((listening) => holder?.listen(0, "127.0.0.1", listening));
    const address = holder.address();
    ports.taken = typeof address === "object" && address ? address.port : 0;
    ports.handedOut = [];

    const platform = await startPlatform();
    try {
      expect(ports.handedOut[0]).toBe(ports.taken);
      expect(platform.baseUrl).toBe(`http://127.0.0.1:${ports.handedOut[1]}`);
      expect(platform.gateways).toEqual([platform.baseUrl]);
      expect(platform.processes.filter((p) => p.name === "gateway")).toHaveLength(1);
      expect((await fetch(`${platform.baseUrl}/readyz`)).status).toBe(200);
    } finally {
      await platform.stop();
    }
  }, 90_000);
});
