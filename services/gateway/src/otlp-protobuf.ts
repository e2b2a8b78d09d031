import protobuf from "protobufjs";
import { otlpTraceDescriptor } from "./otlp-proto";

const types = protobuf.Root.fromJSON(otlpTraceDescriptor as unknown as protobuf.INamespace);
const ExportRequest = types.lookupType("opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest");
const ExportResponse = types.lookupType("opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse");

type Json = Record<string, unknown>;

/**
 * An OTLP/HTTP protobuf trace export as OTLP/HTTP JSON encodes it: lowerCamelCase fields, 64-bit
 * integers as decimal strings, enums as integers, bytes in base64 but for trace and span ids, which
 * are hex. Throws when the bytes are not such a message.
 */
export function decodeTraceExport(body: Uint8Array): Json {
  const message = ExportRequest.decode(body);
  const json = ExportRequest.toObject(message, { longs: String, enums: Number, bytes: String }) as Json;
  for (const resourceSpans of list(json.resourceSpans)) {
    for (const scopeSpans of list(resourceSpans.scopeSpans)) {
      for (const span of list(scopeSpans.spans)) {
        idsToHex(span, ["traceId", "spanId", "parentSpanId"]);
        for (const link of list(span.links)) idsToHex(link, ["traceId", "spanId"]);
      }
    }
  }
  return json;
}

/** The answer to a protobuf export, `{partialSuccess?: {rejectedSpans, errorMessage}}`, in protobuf. */
export function encodeTraceExportResponse(answer: unknown): Uint8Array {
  const partial = (answer as { partialSuccess?: { rejectedSpans?: number | string; errorMessage?: string } })
    ?.partialSuccess;
  const fields =
    partial && (partial.rejectedSpans || partial.errorMessage)
      ? {
          partialSuccess: {
            rejectedSpans: String(partial.rejectedSpans ?? 0),
            errorMessage: partial.errorMessage ?? "",
          },
        }
      : {};
  return ExportResponse.encode(ExportResponse.fromObject(fields)).finish();
}

const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);

/** Ids come out of protobuf in base64; OTLP JSON writes them in hex. An empty id is no id. */
function idsToHex(holder: Json, fields: readonly string[]): void {
  for (const field of fields) {
    const value = holder[field];
    if (typeof value !== "string") continue;
    if (value === "") delete holder[field];
    else holder[field] = Buffer.from(value, "base64").toString("hex");
  }
}
