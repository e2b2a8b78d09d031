import type { DatasetRow } from "@svc/sdk";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ToastProvider } from "../components/toasts";
import { builtinColumn, customColumn, makeRow } from "./factories";
import { RowPanel } from "./row-panel";

const columns = [builtinColumn("input"), builtinColumn("output"), customColumn("c1", "difficulty")];

const row = (overrides: Partial<DatasetRow> = {}) =>
  makeRow({ input: "2+2?", output: "5", metadata: {}, custom: { c1: "easy" }, version: 3, ...overrides });

interface Sent {
  method: string;
  url: string;
  body: unknown;
  ifMatch: string | null;
}

/** The API as the browser reaches it: answers in order, and what was sent. */
function fakeApi(answers: { status: number; body: unknown }[]) {
  const sent: Sent[] = [];
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    const headers = new Headers(init.headers);
    sent.push({
      method: init.method ?? "GET",
      url,
      body: init.body ? JSON.parse(String(init.body)) : undefined,
      ifMatch: headers.get("if-match"),
    });
    const answer = answers.shift() ?? { status: 500, body: { error: "no answer", code: "internal_error" } };
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { "content-type": "application/json" },
    });
  });
  return sent;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderPanel(onSaved = vi.fn(), shown: DatasetRow = row()) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ToastProvider>
        <RowPanel
          projectSlug="p"
          datasetSlug="d"
          row={shown}
          columns={columns}
          readOnly={false}
          focusOnOpen={false}
          onSaved={onSaved}
          onClose={vi.fn()}
        />
      </ToastProvider>
    </QueryClientProvider>,
  );
  return onSaved;
}

/** Picks how a cell is edited, as a person does with the radios above it. */
const switchTo = (cell: string, mode: "Text" | "JSON") =>
  fireEvent.click(
    within(screen.getByRole("radiogroup", { name: `Edit ${cell} as` })).getByRole("radio", { name: mode }),
  );

const type = (label: string, text: string) =>
  fireEvent.change(screen.getByLabelText(label, { selector: "textarea" }), { target: { value: text } });

describe("the row editor", () => {
  it("is clean until a cell changes, and says how many changed", () => {
    renderPanel();
    expect(screen.getByText("No changes")).toBeTruthy();
    expect((screen.getByRole("button", { name: "Save" }) as HTMLButtonElement).disabled).toBe(true);
    type("Output", "4");
    expect(screen.getByText("1 changed cell")).toBeTruthy();
    type("Output", "5");
    expect(screen.getByText("No changes")).toBeTruthy();
  });

  it("refuses invalid JSON before sending, saying where", () => {
    const sent = fakeApi([]);
    renderPanel();
    switchTo("difficulty", "JSON");
    type("difficulty", '"hard');
    expect(screen.getByRole("alert").textContent).toMatch(/^Not valid JSON at line 1, column \d+/);
    expect((screen.getByRole("button", { name: "Save" }) as HTMLButtonElement).disabled).toBe(true);
    expect(sent).toEqual([]);
  });

  it("saves only the changed cells with the row's version as If-Match, and reports the new version", async () => {
    const sent = fakeApi([{ status: 200, body: { versionId: "v", version: 4 } }]);
    const onSaved = renderPanel();
    type("Output", "4");
    type("difficulty", "hard");
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Save" }));
    });
    expect(sent).toEqual([
      {
        method: "PATCH",
        url: "http://localhost:3000/v1/projects/p/datasets/d/rows/r1",
        body: { output: "4", custom: { c1: "hard" } },
        ifMatch: "3",
      },
    ]);
    expect(onSaved).toHaveBeenCalledWith(4);
    expect(screen.getByText("Saved row r1 as version 4")).toBeTruthy();
  });

  it("shows the conflict on 412, and keeping mine saves again against their version", async () => {
    const theirs = row({ output: "4 (theirs)", version: 5 });
    const sent = fakeApi([
      {
        status: 412,
        body: {
          error: "The row changed",
          code: "version_mismatch",
          requestId: "q1",
          details: { currentVersion: 5 },
        },
      },
      { status: 200, body: theirs },
      {
        status: 200,
        body: {
          items: [
            {
              versionId: "v5",
              version: 5,
              operation: "update",
              actor: { kind: "user", id: "u-grace", name: "Grace Hopper" },
              createdAt: "2026-01-01T00:00:00.000Z",
              cells: { output: "4 (theirs)", custom: {} },
            },
          ],
          nextCursor: null,
          hasMore: true,
        },
      },
      { status: 200, body: { versionId: "v", version: 6 } },
    ]);
    renderPanel();
    type("Output", "four");
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Save" }));
    });
    const conflict = screen.getByRole("alertdialog", { name: "Someone else changed this row" });
    expect(conflict.textContent).toContain("Changed by Grace Hopper. It is now at version 5");
    expect(conflict.textContent).toContain("4 (theirs)");
    expect(screen.getByText("1 changed cell")).toBeTruthy();

    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Keep mine" }));
    });
    expect(sent.map((s) => [s.method, s.ifMatch, s.body])).toEqual([
      ["PATCH", "3", { output: "four" }],
      ["GET", null, undefined],
      ["GET", null, undefined],
      ["PATCH", "5", { output: "four" }],
    ]);
    expect(screen.queryByRole("alertdialog")).toBeNull();
  });

  it("keeps the staged edit when the save fails, and says why with the request id", async () => {
    fakeApi([
      {
        status: 503,
        body: { error: "No service is answering", code: "service_unavailable", requestId: "req-9" },
      },
      {
        status: 503,
        body: { error: "No service is answering", code: "service_unavailable", requestId: "req-9" },
      },
    ]);
    renderPanel();
    type("Output", "4");
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Save" }));
      await new Promise((resolve) => setTimeout(resolve, 1_500));
    });
    expect(screen.getByRole("alert").textContent).toContain("The platform is busy or restarting");
    expect(screen.getByRole("alert").textContent).toContain("Request id req-9");
    const editor = screen.getByLabelText("Output", { selector: "textarea" }) as HTMLTextAreaElement;
    expect(editor.value).toBe("4");
    expect(screen.getByText("1 changed cell")).toBeTruthy();
  });

  it.each([
    [
      "a removed column",
      400,
      {
        error: 'Unknown or removed column "c1"; list the dataset\'s columns',
        code: "unknown_column",
        requestId: "r-1",
      },
      /Unknown or removed column "c1"/,
    ],
    [
      "a deleted row",
      404,
      { error: 'Row "r1" not found in dataset "d"', code: "not_found", requestId: "r-2" },
      /Row "r1" not found/,
    ],
    [
      "a rate limit",
      429,
      { error: "Rate limit exceeded: 100 requests per minute", code: "rate_limited", requestId: "r-3" },
      /Too many requests right now; wait a moment and try again/,
    ],
  ])(
    "says what went wrong on %s, with the request id, and keeps the edit",
    async (_what, status, body, shown) => {
      // No retry is left to hide the answer: every attempt gets it.
      fakeApi([
        { status, body },
        { status, body },
      ]);
      renderPanel();
      type("difficulty", "hard");
      await act(async () => {
        fireEvent.click(screen.getByRole("button", { name: "Save" }));
        await new Promise((resolve) => setTimeout(resolve, status === 429 ? 1_500 : 50));
      });
      const alert = screen.getByRole("alert").textContent ?? "";
      expect(alert).toMatch(shown);
      expect(alert).toContain(`Request id ${body.requestId}`);
      expect(screen.getByText("1 changed cell")).toBeTruthy();
    },
  );

  it("edits a string as plain text, line breaks and quotes included, and saves it as a string", async () => {
    const sent = fakeApi([{ status: 200, body: { versionId: "v", version: 4 } }]);
    renderPanel();
    expect((screen.getByLabelText("Output", { selector: "textarea" }) as HTMLTextAreaElement).value).toBe(
      "5",
    );
    type("Output", 'Four,\nsaid "the book"');
    await act(async () => {
      fireEvent.keyDown(screen.getByLabelText("Output", { selector: "textarea" }), {
        key: "s",
        ctrlKey: true,
      });
    });
    expect(sent.map((s) => s.body)).toEqual([{ output: 'Four,\nsaid "the book"' }]);
  });

  it("switches a cell to JSON with Alt+M, keeping text a string, and saves the object typed there", async () => {
    const sent = fakeApi([{ status: 200, body: { versionId: "v", version: 4 } }]);
    renderPanel();
    type("Output", "42");
    fireEvent.keyDown(screen.getByLabelText("Output", { selector: "textarea" }), {
      key: "m",
      code: "KeyM",
      altKey: true,
    });
    const group = screen.getByRole("radiogroup", { name: "Edit Output as" });
    expect((within(group).getByRole("radio", { name: "JSON" }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByText(/The text "42" stays a string in JSON/).getAttribute("role")).toBe("status");
    expect((screen.getByLabelText("Output", { selector: "textarea" }) as HTMLTextAreaElement).value).toBe(
      '"42"',
    );
    type("Output", '{"answer": 42}');
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Save" }));
    });
    expect(sent.map((s) => s.body)).toEqual([{ output: { answer: 42 } }]);
  });

  it("shows chat messages as a conversation, and a value that is not a string in JSON", () => {
    const messages = [
      { role: "user", content: "Capital of France?" },
      { role: "assistant", content: "Paris" },
    ];
    renderPanel(vi.fn(), row({ input: messages }));
    const conversation = screen.getByRole("list", { name: "Input as a conversation" });
    expect(
      within(conversation)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(["userCapital of France?", "assistantParis"]);
    const group = screen.getByRole("radiogroup", { name: "Edit Input as" });
    expect((within(group).getByRole("radio", { name: "JSON" }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: "Conversation" }));
    expect(screen.queryByRole("list", { name: "Input as a conversation" })).toBeNull();
  });
});
