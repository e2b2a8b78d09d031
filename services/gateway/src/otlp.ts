import { PassThrough } from "node:stream";
import { createGunzip } from "node:zlib";
import { DomainError, GZIP_FREE_BYTES, MAX_GZIP_RATIO } from "@svc/contracts";
import type { FastifyInstance } from "fastify";

/**
 * What OpenTelemetry exporters send besides plain JSON: gzip bodies (the Collector's default, and
 * any upload) are unpacked, within the same body limit and at most MAX_GZIP_RATIO times their size; protobuf bodies get a 415 that says how to switch to JSON.
 */
export function acceptOtlpExporters(app: FastifyInstance): void {
  app.addContentTypeParser(
    ["application/x-protobuf", "application/protobuf"],
    { parseAs: "buffer" },
    (_request, body, done) =>
      // An empty body is no body, as with every other type.
      body.length === 0
        ? done(null, undefined)
        : done(
            new DomainError(
              "unsupported_media_type",
              'OTLP protobuf is not accepted; configure the OpenTelemetry exporter for OTLP/HTTP JSON (for example @opentelemetry/exporter-trace-otlp-http, or OTEL_EXPORTER_OTLP_PROTOCOL=http/json) so that it sends "Content-Type: application/json"',
            ),
          ),
  );

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
