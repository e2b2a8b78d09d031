import type { Cell, Span } from "@svc/sdk";
import { describe, expect, it } from "vitest";
import { conversationOf, formatCost, hasGenAi, spanGenAi } from "./gen-ai";

const spanWith = (attributes: Record<string, Cell>, extra: Record<string, unknown> = {}): Span => ({
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
  attributes,
  resourceAttributes: {},
  scope: null,
  events: [],
  links: [],
  ...extra,
});

describe("spanGenAi", () => {
  it("reads the model, messages, tokens and cost from gen_ai attributes", () => {
    const ai = spanGenAi(
      spanWith({
        "gen_ai.request.model": "gpt-4o",
        "gen_ai.response.model": "gpt-4o-2024-08-06",
        "gen_ai.input.messages": JSON.stringify([{ role: "user", content: "Where is my refund?" }]),
        "gen_ai.output.messages": JSON.stringify([{ role: "assistant", content: "It left today." }]),
        "gen_ai.usage.prompt_tokens": "120",
        "gen_ai.usage.output_tokens": 30,
        "gen_ai.usage.cost": 0.0125,
      }),
    );
    expect(ai).toEqual({
      model: "gpt-4o-2024-08-06",
      input: [{ role: "user", content: "Where is my refund?" }],
      output: [{ role: "assistant", content: "It left today." }],
      tokensInput: 120,
      tokensOutput: 30,
      costMicrocents: 1_250_000,
    });
    expect(hasGenAi(ai)).toBe(true);
  });

  it("rebuilds the older indexed messages (gen_ai.prompt.0.role, …)", () => {
    const ai = spanGenAi(
      spanWith({
        "gen_ai.prompt.1.role": "user",
        "gen_ai.prompt.1.content": "hi",
        "gen_ai.prompt.0.role": "system",
        "gen_ai.prompt.0.content": "be brief",
      }),
    );
    expect(ai.input).toEqual([
      { role: "system", content: "be brief" },
      { role: "user", content: "hi" },
    ]);
  });

  it("takes the span's own fields over its attributes when the API gives them", () => {
    const ai = spanGenAi(
      spanWith(
        { "gen_ai.request.model": "old", "gen_ai.usage.input_tokens": 1 },
        { model: "new", input: "q", output: null, tokensInput: 7, tokensOutput: 0, costMicrocents: 0 },
      ),
    );
    expect(ai).toEqual({
      model: "new",
      input: "q",
      output: null,
      tokensInput: 7,
      tokensOutput: 0,
      costMicrocents: 0,
    });
  });

  it("finds nothing in a span that made no model call", () => {
    const ai = spanGenAi(spanWith({ "http.method": "GET", "gen_ai.usage.cost": "n/a" }));
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
