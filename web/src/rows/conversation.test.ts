import { describe, expect, it } from "vitest";
import { conversationLine, conversationOf, looksLikeMarkdown } from "./conversation";

describe("a cell that holds a conversation", () => {
  it("reads role and content messages, and the same list under messages", () => {
    const messages = [
      { role: "system", content: "Be brief." },
      { role: "user", content: "Capital of France?" },
      { role: "assistant", content: "Paris." },
    ];
    const read = conversationOf(messages);
    expect(read?.map((m) => [m.role, m.parts])).toEqual([
      ["system", [{ kind: "text", text: "Be brief." }]],
      ["user", [{ kind: "text", text: "Capital of France?" }]],
      ["assistant", [{ kind: "text", text: "Paris." }]],
    ]);
    expect(conversationOf({ messages, model: "m" })).toEqual(read);
    expect(conversationLine(read ?? [])).toBe(
      "system: Be brief. · user: Capital of France? · assistant: Paris.",
    );
  });

  it("reads content parts, OpenAI tool calls and tool answers, and Anthropic tool use", () => {
    const read = conversationOf([
      {
        role: "user",
        content: [
          { type: "text", text: "What is in this picture?" },
          { type: "image_url", image_url: { url: "https://example.com/a.png" } },
        ],
      },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_1", type: "function", function: { name: "look", arguments: '{"x":1}' } }],
      },
      { role: "tool", tool_call_id: "call_1", content: "a cat" },
      { role: "assistant", content: [{ type: "tool_use", id: "t2", name: "count", input: { n: 2 } }] },
    ]);
    expect(read?.map((m) => m.parts)).toEqual([
      [
        { kind: "text", text: "What is in this picture?" },
        {
          kind: "other",
          type: "image_url",
          json: '{"type":"image_url","image_url":{"url":"https://example.com/a.png"}}',
        },
      ],
      [{ kind: "tool-call", name: "look", input: '{"x":1}', id: "call_1" }],
      [{ kind: "tool-result", id: "call_1", text: "a cat" }],
      [{ kind: "tool-call", name: "count", input: '{"n":2}', id: "t2" }],
    ]);
  });

  it("is not any other array or object", () => {
    expect(conversationOf([])).toBeUndefined();
    expect(conversationOf([{ role: "user", content: "hi" }, { text: "no role" }])).toBeUndefined();
    expect(conversationOf([{ role: "user", content: 42 }])).toBeUndefined();
    expect(conversationOf(["a", "b"])).toBeUndefined();
    expect(conversationOf({ messages: "no" })).toBeUndefined();
    expect(conversationOf("user: hi")).toBeUndefined();
  });
});

describe("text that reads as Markdown", () => {
  it("has headings, lists, fences, emphasis, links or tables", () => {
    for (const text of [
      "# Title",
      "- one\n- two",
      "1. first",
      "```\ncode\n```",
      "a **bold** word",
      "see [docs](https://x.y)",
      "| a | b |",
    ])
      expect(looksLikeMarkdown(text), text).toBe(true);
    for (const text of ["Paris", "2 * 3 = 6", "line one\nline two", "#hashtag"])
      expect(looksLikeMarkdown(text), text).toBe(false);
  });
});
