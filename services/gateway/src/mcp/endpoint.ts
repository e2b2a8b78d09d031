import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import { DomainError, internalErrorMessage, type RequestContext } from "@svc/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { bearerChallenge, bearerToken, type GatewayAuth, MCP_PATH, refuseForeignOrigin } from "../auth";
import { errorBodyOf, sendError } from "../errors";
import { invokeOperation, type OperationCallDeps } from "../operation-call";
import { type OperationTool, operationTools } from "./tools";

export interface McpDeps extends OperationCallDeps {
  auth: GatewayAuth;
  publicUrl(request: FastifyRequest): string;
}

const SERVER_INFO = { name: "svc", version: "1.0.0" };

/**
 * The MCP endpoint (streamable HTTP). Stateless: each POST gets its own server and transport, so any
 * gateway replica can answer any request and nothing is kept between them. Each tool call takes the
 * same path as the HTTP route it mirrors (role check, validation, one bus request); only the way the
 * answer is written differs.
 */
export async function mcpEndpoint(app: FastifyInstance, deps: McpDeps): Promise<void> {
  const tools = new Map(operationTools().map((tool) => [tool.definition.name, tool]));
  const definitions = [...tools.values()].map((tool) => tool.definition);

  const sameOrigin = { onRequest: refuseForeignOrigin(deps.publicUrl) };

  app.post(MCP_PATH, sameOrigin, async (request, reply) => {
    const context = await authenticate(deps, request, reply);
    if (!context) return reply;

    const server = new Server(SERVER_INFO, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: definitions }));
    server.setRequestHandler(CallToolRequestSchema, async ({ params }) => {
      const tool = tools.get(params.name);
      if (!tool) {
        throw new McpError(
          ErrorCode.InvalidParams,
          `Unknown tool "${params.name}"; tools/list shows every tool`,
        );
      }
      return callTool(deps, request, tool, context, params.arguments ?? {});
    });
    const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });

    reply.hijack();
    // A hijacked reply writes none of the headers set on it: these go on the raw response. A tool's
    // result may hold a secret shown once (createApiKey's token), so no answer here may be cached.
    reply.raw.setHeader("x-request-id", request.id);
    reply.raw.setHeader("x-content-type-options", "nosniff");
    reply.raw.setHeader("cache-control", "no-store");
    reply.raw.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
    return reply;
  });

  // Stateless: no server-initiated stream to open (GET) and no session to end (DELETE).
  const notAllowed = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!(await authenticate(deps, request, reply))) return reply;
    return reply
      .status(405)
      .header("allow", "POST")
      .send({
        jsonrpc: "2.0",
        error: { code: -32000, message: "Method not allowed: this MCP endpoint is stateless; POST requests" },
        id: null,
      });
  };
  app.get(MCP_PATH, sameOrigin, notAllowed);
  app.delete(MCP_PATH, sameOrigin, notAllowed);
}

/**
 * Who calls: any credential the API accepts (an OAuth access token, or an API key for clients that
 * send a fixed header). Without one, 401 with the challenge that starts MCP's OAuth discovery.
 */
async function authenticate(
  deps: McpDeps,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<RequestContext | undefined> {
  let presented = false;
  try {
    const token = bearerToken(request);
    presented = true;
    const caller = await deps.auth.callerOf(request, { kind: "credential", token });
    // With the public address, as the HTTP routes' callers: an invitation's link starts from it.
    const { organizationId, role, actor, origin } = caller;
    return {
      organizationId,
      role,
      actor,
      ...(origin === undefined ? {} : { origin }),
      requestId: request.id,
    };
  } catch (error) {
    if (!(error instanceof DomainError) || error.code !== "unauthenticated") throw error;
    reply.header("www-authenticate", bearerChallenge(request, deps.publicUrl(request), MCP_PATH));
    const message = presented
      ? "The access token is not valid; it may have expired or been revoked. Refresh it, or authorize again"
      : "Missing access token: connect with OAuth (see the resource metadata in WWW-Authenticate)";
    sendError(request, reply, new DomainError("unauthenticated", message));
    return undefined;
  }
}

async function callTool(
  deps: OperationCallDeps,
  request: FastifyRequest,
  tool: OperationTool,
  context: RequestContext,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  try {
    const { data } = await invokeOperation(deps, tool.op, context, tool.toRawInput(args));
    if (data === null || typeof data !== "object" || Array.isArray(data)) {
      return { content: [{ type: "text", text: `${tool.op.operationId} succeeded` }] };
    }
    const structured = data as Record<string, unknown>;
    return { content: [{ type: "text", text: JSON.stringify(structured) }], structuredContent: structured };
  } catch (error) {
    const domain =
      error instanceof DomainError
        ? error
        : new DomainError("internal_error", internalErrorMessage(`request id ${request.id}`));
    if (!(error instanceof DomainError)) {
      request.log.error(
        { err: error, requestId: request.id, tool: tool.op.operationId },
        "unexpected MCP tool error",
      );
    }
    const body = errorBodyOf(domain, context.requestId);
    return {
      isError: true,
      content: [{ type: "text", text: JSON.stringify(body) }],
      structuredContent: { ...body },
    };
  }
}
