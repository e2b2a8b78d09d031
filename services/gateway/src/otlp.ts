import { PassThrough } from "node:stream";
import { createGunzip } from "node:zlib";
import { DomainError, GZIP_FREE_BYTES, MAX_GZIP_RATIO } from "@svc/contracts";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { decodeTraceExport, encodeTraceExportResponse } from "./otlp-protobuf";

const PROTOBUF_TYPES = ["application/x-protobuf", "application/protobuf"];
/** The one route that takes protobuf: OTLP/HTTP's trace export. */
const OTLP_TRACES = "/v1/traces";

/**
 * What OpenTelemetry exporters send besides plain JSON: gzip bodies (the Collector's default, and
 * any upload) are unpacked, within the same body limit and at most MAX_GZIP_RATIO times their size;
 * OTLP/HTTP protobuf bodies are decoded with OpenTelemetry's own message definitions into the JSON
 * encoding, checked as JSON bodies are, and answered in protobuf. Not encapsulated (`fastify-plugin`):
 * any route may get a gzip body, and its parser must be there before the routes' scopes copy the root's.
 */
export const otlpExporters = fp(acceptOtlpExporters, { name: "otlp-exporters" });

async function acceptOtlpExporters(app: FastifyInstance): Promise<void> {
  const inProtobuf = new WeakSet<object>();
  app.addContentTypeParser(PROTOBUF_TYPES, { parseAs: "buffer" }, (request, body, done) => {
    // An empty body is no body, as with every other type.
    if ((body as Buffer).length === 0) return done(null, undefined);
    if (request.routeOptions.url !== OTLP_TRACES) {
      return done(
        new DomainError(
          "unsupported_media_type",
          `Protobuf is accepted only by ${OTLP_TRACES} (OTLP/HTTP); send this request's body as JSON`,
        ),
      );
    }
    try {
      const decoded = decodeTraceExport(body as Buffer);
      inProtobuf.add(request);
      done(null, decoded);
    } catch {
      done(
        new DomainError(
          "validation_failed",
          "The protobuf body is not an OTLP ExportTraceServiceRequest (opentelemetry.proto.collector.trace.v1); send what an OTLP/HTTP protobuf exporter sends, or OTLP/HTTP JSON",
          { issues: [] },
        ),
      );
    }
  });
  // A protobuf exporter reads its answer as protobuf: the same answer, encoded as the request was.
  app.addHook("onSend", async (request, reply, payload) => {
    if (!inProtobuf.has(request) || reply.statusCode >= 300 || typeof payload !== "string") return payload;
    reply.header("content-type", "application/x-protobuf");
    return encodeTraceExportResponse(JSON.parse(payload));
  });

  app.addHook("preParsing", async (request, _reply, payload) => {
    const encoding = request.headers["content-encoding"]?.trim().toLowerCase();
    if (encoding === undefined || encoding === "" || encoding === "identity") return payload;
    // Without a body, the encoding of none is no reason to refuse the request.
    const { "content-length": length, "transfer-encoding": chunked } = request.headers;
    if (chunked === undefined && (length === undefined || length === "0")) return payload;
    if (encoding !== "gzip") {
      throw new DomainError(
        "unsupported_media_type",
        `Content-Encoding "${encoding}" is not accepted; send the body uncompressed or with gzip`,
      );
    }
    // Fastify compares Content-Length with the bytes received, and the body limit with what comes out.
    const body = Object.assign(new PassThrough(), { receivedEncodedLength: 0 });
    const gunzip = createGunzip();
    payload.on("data", (chunk: Buffer) => {
      body.receivedEncodedLength += chunk.length;
    });
    payload.on("error", (error) => body.destroy(error));
    // A body that unpacks far beyond what was sent is refused as it unpacks, not once it is all out.
    let unpacked = 0;
    gunzip.on("data", (chunk: Buffer) => {
      unpacked += chunk.length;
      if (unpacked <= GZIP_FREE_BYTES || unpacked <= MAX_GZIP_RATIO * body.receivedEncodedLength) return;
      payload.unpipe(gunzip);
      gunzip.destroy();
      body.destroy(
        new DomainError(
          "payload_too_large",
          `The gzip body unpacks to more than ${MAX_GZIP_RATIO} times its size; send it uncompressed, or compressed less`,
          { ratioLimit: MAX_GZIP_RATIO },
        ),
      );
    });
    gunzip.on("error", (error) =>
      body.destroy(
        new DomainError("validation_failed", `The gzip body could not be unpacked: ${error.message}`, {
          issues: [],
        }),
      ),
    );
    // Fastify listens for errors only while it reads a body; one it never reads (a GET's, or a request
    // refused first) would otherwise throw its error out of the process.
    body.on("error", () => {});
    payload.pipe(gunzip).pipe(body);
    return body;
  });
}
