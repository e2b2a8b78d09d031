import type { DatasetRow } from "@svc/sdk";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
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

function renderPanel(onSaved = vi.fn()) {
  render(
    <ToastProvider>
      <RowPanel
        projectSlug="p"
        datasetSlug="d"
        row={row()}
        columns={columns}
        readOnly={false}
        focusOnOpen={false}
        onSaved={onSaved}
        onClose={vi.fn()}
      />
    </ToastProvider>,
  );
  return onSaved;
}

const type = (label: string, text: string) =>
  fireEvent.change(screen.getByLabelText(label, { selector: "textarea" }), { target: { value: text } });

describe("the row editor", () => {
  it("is clean until a cell changes, and says how many changed", () => {
    renderPanel();
    expect(screen.getByText("No changes")).toBeTruthy();
    expect((screen.getByRole("button", { name: "Save" }) as HTMLButtonElement).disabled).toBe(true);
    type("Output", '"4"');
    expect(screen.getByText("1 changed cell")).toBeTruthy();
    type("Output", '"5"');
    expect(screen.getByText("No changes")).toBeTruthy();
  });

  it("refuses invalid JSON before sending, saying where", () => {
    const sent = fakeApi([]);
    renderPanel();
    type("difficulty", '"hard');
    expect(screen.getByRole("alert").textContent).toMatch(/^Not valid JSON at line 1, column \d+/);
    expect((screen.getByRole("button", { name: "Save" }) as HTMLButtonElement).disabled).toBe(true);
    expect(sent).toEqual([]);
  });

  it("saves only the changed cells with the row's version as If-Match, and reports the new version", async () => {
    const sent = fakeApi([{ status: 200, body: { versionId: "v", version: 4 } }]);
    const onSaved = renderPanel();
    type("Output", '"4"');
    type("difficulty", '"hard"');
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
      { status: 200, body: { versionId: "v", version: 6 } },
    ]);
    renderPanel();
    type("Output", '"four"');
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Save" }));
    });
    const conflict = screen.getByRole("alertdialog", { name: "Someone else changed this row" });
    expect(conflict.textContent).toContain("It is now at version 5");
    expect(conflict.textContent).toContain("4 (theirs)");
    expect(screen.getByText("1 changed cell")).toBeTruthy();

    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Keep mine" }));
    });
    expect(sent.map((s) => [s.method, s.ifMatch, s.body])).toEqual([
      ["PATCH", "3", { output: "four" }],
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
    type("Output", '"4"');
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Save" }));
      await new Promise((resolve) => setTimeout(resolve, 1_500));
    });
    expect(screen.getByRole("alert").textContent).toContain("The platform is busy or restarting");
    expect(screen.getByRole("alert").textContent).toContain("Request id req-9");
    // Whichever editor holds it by now (CodeMirror may have loaded meanwhile), the text is kept.
    const editor = screen.getByLabelText("Output");
    expect(editor instanceof HTMLTextAreaElement ? editor.value : editor.textContent).toBe('"4"');
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
      type("difficulty", '"hard"');
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
});
