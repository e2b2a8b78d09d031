import { describe, expect, test } from "vitest";
import { ingestTracesBodySchema } from "./otlp";

const span = (extra: Record<string, unknown> = {}) => ({
  traceId: "5B8EFFF798038103D269B633813FC60C",
  spanId: "EEE19B7EC3C1B174",
  name: "chat",
  startTimeUnixNano: "1714564800000000000",
  endTimeUnixNano: 1714564800000001000,
  ...extra,
});
const request = (spans: unknown[]) => ({ resourceSpans: [{ scopeSpans: [{ spans }] }] });

describe("the OTLP/HTTP JSON body", () => {
  test("normalises ids to lower case and times to strings of digits, filling OTLP's defaults", () => {
    const parsed = ingestTracesBodySchema.parse(request([span({ parentSpanId: "", unknownField: 1 })]));
    expect(parsed.resourceSpans[0]?.scopeSpans[0]?.spans[0]).toEqual({
      traceId: "5b8efff798038103d269b633813fc60c",
      spanId: "eee19b7ec3c1b174",
      parentSpanId: "",
      name: "chat",
      kind: 0,
      startTimeUnixNano: "1714564800000000000",
      endTimeUnixNano: "1714564800000001024",
    });
  });

  test("refuses times beyond 64 bits and values of the wrong type, naming the field", () => {
    const result = ingestTracesBodySchema.safeParse(
      request([span({ endTimeUnixNano: "99999999999999999999", kind: "SERVER" })]),
    );
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join("."))).toEqual([
      "resourceSpans.0.scopeSpans.0.spans.0.kind",
      "resourceSpans.0.scopeSpans.0.spans.0.endTimeUnixNano",
    ]);
  });
});
