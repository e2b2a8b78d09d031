import type { Span } from "@svc/sdk";
import { describe, expect, it } from "vitest";
import { conversationOf, formatCost, hasGenAi, spanGenAi } from "./gen-ai";

const spanWith = (fields: Partial<Span>): Span => ({
  spanId: "b".repeat(16),
  parentSpanId: null,
  name: "chat",
  kind: "client",
  startTime: "2026-11-28T10:00:00.000Z",
  endTime: "2026-11-28T10:00:01.000Z",
  startTimeUnixNano: "1795860000000000000",
  endTimeUnixNano: "1795860001000000000",
  durationNs: "1000000000",
  status: { code: "unset", message: null },
  attributes: {},
  resourceAttributes: {},
  scope: null,
  events: [],
  links: [],
  model: null,
  input: null,
  output: null,
  tokensInput: 0,
  tokensOutput: 0,
  costMicrocents: null,
  ...fields,
});

describe("spanGenAi", () => {
  it("reads the model, messages, tokens and cost from the span's fields", () => {
    const ai = spanGenAi(
      spanWith({
        model: "gpt-4o-2024-08-06",
        input: [{ role: "user", content: "Where is my refund?" }],
        output: "It left today.",
        tokensInput: 120,
        tokensOutput: 30,
        costMicrocents: 1_250_000,
      }),
    );
    expect(ai).toEqual({
      model: "gpt-4o-2024-08-06",
      input: [{ role: "user", content: "Where is my refund?" }],
      output: "It left today.",
      tokensInput: 120,
      tokensOutput: 30,
      costMicrocents: 1_250_000,
    });
    expect(hasGenAi(ai)).toBe(true);
  });

  it("finds nothing in a span that made no model call, and shows no tokens for it", () => {
    const ai = spanGenAi(spanWith({}));
    expect([ai.tokensInput, ai.tokensOutput]).toEqual([null, null]);
    expect(hasGenAi(ai)).toBe(false);
  });
});

describe("conversationOf", () => {
  it("reads plain text as one message of the side's role", () => {
    expect(conversationOf("capital of France?", "user")).toEqual([
      { role: "user", name: null, parts: [{ kind: "text", text: "capital of France?" }] },
    ]);
  });

  it("reads OpenAI messages with tool calls and the tool's answer", () => {
    const messages = conversationOf(
      [
        { role: "user", content: "Weather in Paris?" },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "c1", type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } },
          ],
        },
        { role: "tool", tool_call_id: "c1", content: "18°C" },
      ],
      "user",
    );
    expect(messages.map((m) => [m.role, m.parts])).toEqual([
      ["user", [{ kind: "text", text: "Weather in Paris?" }]],
      ["assistant", [{ kind: "toolCall", name: "weather", id: "c1", arguments: { city: "Paris" } }]],
      ["tool", [{ kind: "toolResult", id: "c1", content: "18°C" }]],
    ]);
  });

  it("reads OpenTelemetry's parts and Anthropic's content blocks", () => {
    const otel = conversationOf(
      [
        {
          role: "assistant",
          parts: [
            { type: "text", content: "Let me look." },
            { type: "tool_call", id: "t1", name: "search", arguments: { q: "refund" } },
          ],
          finish_reason: "tool_call",
        },
        { role: "tool", parts: [{ type: "tool_call_response", id: "t1", response: { found: 1 } }] },
      ],
      "assistant",
    );
    expect(otel.flatMap((m) => m.parts.map((p) => p.kind))).toEqual(["text", "toolCall", "toolResult"]);
    const anthropic = conversationOf(
      {
        role: "assistant",
        content: [
          { type: "text", text: "Checking." },
          { type: "tool_use", id: "u1", name: "lookup", input: { id: 4 } },
        ],
      },
      "assistant",
    );
    expect(anthropic[0]?.parts).toEqual([
      { kind: "text", text: "Checking." },
      { kind: "toolCall", name: "lookup", id: "u1", arguments: { id: 4 } },
    ]);
  });

  it("keeps what it cannot read as it is, rather than dropping it", () => {
    expect(conversationOf([42], "user")).toEqual([
      { role: "user", name: null, parts: [{ kind: "other", value: 42 }] },
    ]);
    expect(conversationOf(null, "user")).toEqual([]);
  });
});

describe("formatCost", () => {
  it("shows microcents as dollars", () => {
    expect(formatCost(1_250_000)).toBe("$0.0125");
    expect(formatCost(1_240_000_000)).toBe("$12.40");
    expect(formatCost(50_000_000)).toBe("$0.5");
    expect(formatCost(1)).toBe("< $0.0001");
    expect(formatCost(0)).toBe("$0");
  });
});
