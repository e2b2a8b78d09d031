import type { OutgoingHttpHeaders } from "node:http";
import type { RawInput } from "@svc/bus";
import type { Operation, RequestContext } from "@svc/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import { admitOperationCall, type OperationCallDeps } from "../operation-call";
import type { StreamSink } from "./event-stream";
import type { LiveChanges } from "./live-changes";

/**
 * Answers the live-changes route: the caller's limits and role, then the reader's first page asked
 * with the caller's credential (so that an unknown dataset, or one of another organisation, is an
 * ordinary 404 before anything is sent, as a read of the dataset is), then the stream.
 */
export async function streamEvents(
  deps: OperationCallDeps & { liveChanges: LiveChanges },
  op: Operation,
  context: RequestContext,
  raw: RawInput,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const input = await admitOperationCall(deps, op, context, raw);
  const { liveChanges } = deps;
  liveChanges.admit(context);
  const params = input.params as { projectSlug: string; datasetSlug: string };
  const { since } = input.query as { since?: number };
  const { lastEventId } = (input.headers ?? {}) as { lastEventId?: number };
  const dataset = { organizationId: context.organizationId as string, ...params };
  const resumeAfter = lastEventId ?? since;
  const first = await liveChanges.fetcher(context, dataset)(resumeAfter);
  // Again, with no wait from here to the stream's opening: the same credential may have opened
  // streams while the reader answered, and a refusal must still be an ordinary answer.
  liveChanges.admit(context);

  reply.hijack();
  const response = reply.raw;
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(reply.getHeaders()))
    if (value !== undefined) headers[name] = value;
  response.writeHead(200, {
    ...headers,
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache",
    // Proxies that buffer responses (nginx) pass this one on as it comes.
    "x-accel-buffering": "no",
  });
  response.flushHeaders();
  const started = performance.now();
  const stream = liveChanges.open({
    dataset,
    context,
    first,
    after: resumeAfter ?? first.version,
    sink: sinkOf(response),
  });
  response.once("close", () => stream.end("client"));
  stream.onEnd((reason) =>
    request.log.info(
      {
        requestId: request.id,
        method: request.method,
        url: request.routeOptions.url,
        status: 200,
        ms: Math.round(performance.now() - started),
        lastSent: stream.lastSent,
        reason,
      },
      "stream ended",
    ),
  );
  return reply;
}

function sinkOf(response: FastifyReply["raw"]): StreamSink {
  return {
    write: (text) => {
      if (!response.destroyed) response.write(text);
    },
    buffered: () => response.writableLength,
    drained: () =>
      new Promise((resolve) => {
        if (response.writableLength === 0 || response.destroyed) return resolve();
        const done = () => {
          response.off("drain", done);
          response.off("close", done);
          resolve();
        };
        response.once("drain", done);
        response.once("close", done);
      }),
    end: (abort) => {
      if (abort) response.destroy();
      else response.end();
    },
  };
}
