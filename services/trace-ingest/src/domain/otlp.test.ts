import type { IngestTracesBody } from "@svc/contracts";
import { describe, expect, it } from "vitest";
import { receivedSpans } from "./otlp";

const exportOf = (attributes: { key: string; value: object }[]): IngestTracesBody =>
  ({
    resourceSpans: [
      {
        resource: { attributes: [{ key: "__proto__", value: { stringValue: "resource" } }] },
        scopeSpans: [
          {
            spans: [
              {
                traceId: "0af7651916cd43dd8448eb211c80319c",
                spanId: "b7ad6b7169203331",
                name: "chat",
                startTimeUnixNano: "1",
                endTimeUnixNano: "2",
                attributes,
              },
            ],
          },
        ],
      },
    ],
  }) as unknown as IngestTracesBody;

describe("spans received over OTLP", () => {
  it("keep an attribute named __proto__ as an attribute, never as the object's prototype", () => {
    const [span] = receivedSpans(
      exportOf([
        {
          key: "__proto__",
          value: { kvlistValue: { values: [{ key: "input.value", value: { stringValue: "x" } }] } },
        },
        { key: "constructor", value: { stringValue: "c" } },
        { key: "gen_ai.prompt", value: { stringValue: "hello" } },
      ]),
    );
    const attributes = span?.attributes ?? {};
    expect(Object.getPrototypeOf(attributes)).toBe(Object.prototype);
    expect(Object.keys(attributes)).toEqual(["__proto__", "constructor", "gen_ai.prompt"]);
    expect(Object.getOwnPropertyDescriptor(attributes, "__proto__")?.value).toEqual({ "input.value": "x" });
    expect((attributes as Record<string, unknown>)["input.value"]).toBeUndefined();
    expect(JSON.parse(JSON.stringify(attributes))).toEqual({
      ["__proto__"]: { "input.value": "x" },
      constructor: "c",
      "gen_ai.prompt": "hello",
    });
    expect(Object.keys(span?.resourceAttributes ?? {})).toEqual(["__proto__"]);
  });

  it("keep the last value of a key sent twice", () => {
    const [span] = receivedSpans(
      exportOf([
        { key: "k", value: { stringValue: "first" } },
        { key: "k", value: { stringValue: "last" } },
      ]),
    );
    expect(span?.attributes).toEqual({ k: "last" });
  });
});
