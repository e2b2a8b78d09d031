import { randomUUID } from "node:crypto";
import type { Readable } from "node:stream";
import { callSubject, type UploadStore } from "@svc/bus";
import {
  DomainError,
  type ImportFormat,
  importSchema,
  MAX_IMPORT_BYTES,
  type Operation,
  operationList,
} from "@svc/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { readOnAndDiscard } from "./early-answers";
import { admitOperationCall } from "./operation-call";
import { authenticate, type RouteDeps, rawInput } from "./routes";

export interface UploadDeps extends RouteDeps {
  /** Where uploads wait for the writer; without it, uploads are refused. */
  uploads: UploadStore | undefined;
}

/**
 * The operations whose body is a file (an import). Their routes live in a plugin of their own, an
 * encapsulated scope that parses no body: the file streams from the client into the upload store, counted against the
 * limit, and the service gets its name. Nothing of it is held in memory, and nothing of it crosses
 * the bus.
 */
export async function uploadRoutes(scope: FastifyInstance, deps: UploadDeps): Promise<void> {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser("*", (_request, payload, done) => done(null, payload));
  for (const op of operationList) {
    if (!op.upload) continue;
    scope.route({
      method: op.method,
      url: op.path.replace(/\{(\w+)\}/g, ":$1"),
      bodyLimit: MAX_IMPORT_BYTES,
      handler: async (request, reply) => {
        const context = await authenticate(op, request, deps);
        const input = await admitOperationCall(deps, op, context, {
          ...rawInput(op, request),
          body: undefined,
        });
        const format = formatOf(op, request);
        const declared = Number(request.headers["content-length"]);
        if (declared > MAX_IMPORT_BYTES) throw tooLarge();
        if (!deps.uploads)
          throw new DomainError("service_unavailable", "This gateway cannot take file uploads");
        const objectName = `upload-${randomUUID()}`;
        const counter = { bytes: 0 };
        try {
          await deps.uploads.put(objectName, counted(request.body as Readable | undefined, counter));
        } catch (error) {
          // Refused part-way (over the limit, the store lost): the client may still be sending.
          readOnAndDiscard(request.raw);
          throw error;
        }
        if (counter.bytes === 0) {
          await deps.uploads.delete(objectName);
          throw new DomainError("validation_failed", "The file is empty: send the file as the request body", {
            line: 1,
          });
        }
        const answer = importSchema.parse(
          await callSubject(
            deps.bus,
            op.subject,
            {
              context,
              input: {
                params: input.params,
                query: input.query,
                upload: { objectName, format, bytes: counter.bytes },
              },
            },
            { timeoutMs: deps.timeoutMs },
          ),
        );
        const path = request.url.split("?")[0] as string;
        return reply.status(op.successStatus).header("location", `${path}/${answer.importId}`).send(answer);
      },
    });
  }
}

/** The upload's format, from its Content-Type; anything else is 415 naming what is taken. */
function formatOf(op: Operation, request: FastifyRequest): ImportFormat {
  const type = (request.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  const types = op.upload?.mediaTypes ?? {};
  const aliases: Record<string, string> = {
    "application/jsonl": "jsonl",
    "application/ndjson": "jsonl",
    "application/x-parquet": "parquet",
  };
  const format = Object.entries(types).find(([, mediaType]) => mediaType === type)?.[0] ?? aliases[type];
  if (format) return format as ImportFormat;
  const accepted = Object.values(types).join(", ");
  throw new DomainError(
    "unsupported_media_type",
    type === ""
      ? `Send the file with a Content-Type naming its format: ${accepted}`
      : `Content-Type ${type} is not a format an import takes; send one of ${accepted}`,
    { accepted: Object.values(types) },
  );
}

/**
 * The body's bytes, counted against the limit. Stopping early leaves the body as it is rather than
 * destroying it (and its connection with it), so that the refusal can still be read by the client.
 */
async function* counted(body: Readable | undefined, counter: { bytes: number }): AsyncIterable<Uint8Array> {
  if (!body) return;
  for await (const chunk of body.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
    counter.bytes += chunk.byteLength;
    if (counter.bytes > MAX_IMPORT_BYTES) throw tooLarge();
    yield chunk;
  }
}

const tooLarge = () =>
  new DomainError(
    "payload_too_large",
    `The file is larger than the limit of ${MAX_IMPORT_BYTES} bytes (1 GiB)`,
    {
      limit: MAX_IMPORT_BYTES,
    },
  );
