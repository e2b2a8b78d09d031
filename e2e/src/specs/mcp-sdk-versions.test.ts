import { UnauthorizedError as UnauthorizedError120 } from "@modelcontextprotocol/sdk-1.20/client/auth.js";
import { Client as Client120 } from "@modelcontextprotocol/sdk-1.20/client/index.js";
import { StreamableHTTPClientTransport as Transport120 } from "@modelcontextprotocol/sdk-1.20/client/streamableHttp.js";
import { afterAll, describe, expect, it } from "vitest";
import { type ConnectedAgent, connectAgent, type McpSdk } from "../mcp-agent";
import { startedForSuite } from "../platform";
import { startEmbedded } from "../targets";

/**
 * Agents in the field run whatever SDK release they were built with. 1.20 names the protected
 * resource with a trailing slash (`http://host:port/`), which RFC 3986 calls the same URI as ours.
 */
const sdks: [string, McpSdk | undefined][] = [
  [
    "1.20.2",
    {
      Client: Client120,
      StreamableHTTPClientTransport: Transport120,
      UnauthorizedError: UnauthorizedError120,
    } as unknown as McpSdk,
  ],
  ["newest", undefined],
];

describe("MCP clients of every current SDK release connect with OAuth", () => {
  const target = startedForSuite(() => startEmbedded());
  const agents: ConnectedAgent[] = [];
  afterAll(async () => {
    await Promise.allSettled(agents.map((agent) => agent.client.close()));
  });

  it.each(sdks)("SDK %s: discovers, registers, is authorised and calls a tool", async (_version, sdk) => {
    const agent = await connectAgent(
      new URL(`${target.baseUrl}/v1/mcp`),
      { apiKey: target.ownerKey, role: "member" },
      sdk,
    );
    agents.push(agent);

    const result = await agent.client.callTool({ name: "getAccount", arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ role: "member", organization: { slug: "default" } });
  });
});
