import { describe, expect, test } from "vitest";
import { spanFacts } from "./gen-ai";
import type { Attributes, ReceivedSpan } from "./otlp";

function span(attributes: Attributes, extra: Partial<ReceivedSpan> = {}): ReceivedSpan {
  return {
    traceId: "0af7651916cd43dd8448eb211c80319c",
    spanId: "b7ad6b7169203331",
    parentSpanId: null,
    name: "chat",
    kind: 3,
    startNs: "1",
    endNs: "2",
    statusCode: 0,
    statusMessage: null,
    attributes,
    resourceAttributes: {},
    scope: null,
    events: [],
    links: [],
    ...extra,
  };
}

describe("the facts a span tells about its trace", () => {
  test("reads models, tokens and cost from the generative-AI conventions", () => {
    expect(
      spanFacts(
        span({
          "gen_ai.request.model": "gpt-4o",
          "gen_ai.response.model": "gpt-4o",
          "gen_ai.usage.input_tokens": 1200,
          "gen_ai.usage.output_tokens": 300,
          "gen_ai.usage.cost": 0.0042,
        }),
      ),
    ).toEqual({
      sessionId: null,
      userId: null,
      tags: [],
      models: ["gpt-4o"],
      tokensInput: 1200,
      tokensOutput: 300,
      costMicrocents: 420_000,
      input: null,
      output: null,
    });
  });

  test("falls back to the legacy token names, and takes counts sent as strings", () => {
    const facts = spanFacts(
      span({
        "gen_ai.usage.prompt_tokens": "70",
        "gen_ai.usage.completion_tokens": 7,
        "gen_ai.usage.cost": "1",
      }),
    );
    expect(facts).toMatchObject({ tokensInput: 70, tokensOutput: 7, costMicrocents: 100_000_000 });
  });

  test("ignores counts that are negative or not numbers", () => {
    const facts = spanFacts(
      span({
        "gen_ai.usage.input_tokens": -5,
        "gen_ai.usage.output_tokens": "many",
        "gen_ai.usage.cost": -1,
      }),
    );
    expect(facts).toMatchObject({ tokensInput: 0, tokensOutput: 0, costMicrocents: 0 });
  });

  test("takes session and user from the span, else from its resource", () => {
    expect(spanFacts(span({ "gen_ai.conversation.id": "conv-1", "enduser.id": "ann" }))).toMatchObject({
      sessionId: "conv-1",
      userId: "ann",
    });
    expect(spanFacts(span({}, { resourceAttributes: { "session.id": "s-9", "user.id": 42 } }))).toMatchObject(
      { sessionId: "s-9", userId: "42" },
    );
  });

  test("reads tags as a list, a JSON list in a string, or a single tag", () => {
    expect(spanFacts(span({ "svc.tags": ["a", "b", "a", 3] })).tags).toEqual(["a", "b"]);
    expect(spanFacts(span({ tags: '["x","y"]' })).tags).toEqual(["x", "y"]);
    expect(spanFacts(span({ tags: "solo" })).tags).toEqual(["solo"]);
  });

  test("parses messages sent as JSON strings and keeps other text as it is", () => {
    const facts = spanFacts(
      span({
        "gen_ai.input.messages": '[{"role":"user","parts":[{"type":"text","content":"Hi"}]}]',
        "gen_ai.completion": "Hello there",
      }),
    );
    expect(facts.input).toEqual([{ role: "user", parts: [{ type: "text", content: "Hi" }] }]);
    expect(facts.output).toBe("Hello there");
  });

  test("keeps a string that only looks like JSON", () => {
    expect(spanFacts(span({ "gen_ai.prompt": "[not json" })).input).toBe("[not json");
  });

  test("rebuilds the indexed prompt and completion attributes as lists of messages", () => {
    const facts = spanFacts(
      span({
        "gen_ai.prompt.1.role": "user",
        "gen_ai.prompt.1.content": "What is 2+2?",
        "gen_ai.prompt.0.role": "system",
        "gen_ai.prompt.0.content": "Be brief.",
        "gen_ai.completion.0.role": "assistant",
        "gen_ai.completion.0.content": '{"answer":4}',
      }),
    );
    expect(facts.input).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "What is 2+2?" },
    ]);
    expect(facts.output).toEqual([{ role: "assistant", content: { answer: 4 } }]);
  });

  test("keeps a message field named __proto__, constructor or toString as a field", () => {
    const facts = spanFacts(
      span({
        "gen_ai.prompt.0.__proto__": '{"role":"system"}',
        "gen_ai.prompt.0.constructor": "c",
        "gen_ai.prompt.0.toString": "t",
      }),
    );
    const expected = JSON.parse('[{"__proto__":{"role":"system"},"constructor":"c","toString":"t"}]');
    expect(facts.input).toEqual(expected);
    expect(Object.keys((facts.input as object[])[0] as object)).toEqual([
      "__proto__",
      "constructor",
      "toString",
    ]);
    expect(JSON.stringify(facts.input)).toBe(JSON.stringify(expected));
  });

  test("reads messages from the prompt and completion events of older instrumentations", () => {
    const facts = spanFacts(
      span(
        {},
        {
          events: [
            {
              name: "gen_ai.content.prompt",
              timeUnixNano: "1",
              attributes: { "gen_ai.prompt": '[{"role":"user"}]' },
            },
            {
              name: "gen_ai.content.completion",
              timeUnixNano: "2",
              attributes: { "gen_ai.completion": "ok" },
            },
          ],
        },
      ),
    );
    expect(facts).toMatchObject({ input: [{ role: "user" }], output: "ok" });
  });
});
