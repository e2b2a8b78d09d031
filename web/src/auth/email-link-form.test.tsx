import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SvcError } from "../api";
import { EmailLinkForm, emailLinkProblem, waitOf } from "./email-link-form";
import { refusedLinkTitle } from "./refused-link";

/** The platform as the browser reaches it: answers in order, and the bodies sent. */
function fakeApi(answers: { status: number; body: unknown }[]) {
  const sent: { url: string; body: unknown }[] = [];
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    sent.push({ url, body: JSON.parse(String(init.body)) });
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

async function ask(email: string) {
  fireEvent.change(screen.getByLabelText("Your e-mail address"), { target: { value: email } });
  await act(async () => {
    fireEvent.click(screen.getByRole("button", { name: "E-mail me a link" }));
  });
}

describe("EmailLinkForm", () => {
  it("asks for a link and says the same whatever the platform knows of the address", async () => {
    const sent = fakeApi([{ status: 202, body: { message: "If this address belongs to a member…" } }]);
    render(<EmailLinkForm />);
    await ask(" ann@example.com ");
    expect(sent).toEqual([
      { url: `${location.origin}/v1/session/email`, body: { email: "ann@example.com" } },
    ]);
    expect(screen.getByRole("status").textContent).toBe(
      "If ann@example.com is a member, a link is on its way. It works once, within 15 minutes.",
    );
  });

  it("says when to try again after too many requests, and nothing was sent", async () => {
    fakeApi([
      {
        status: 429,
        body: {
          error: "Too many requests for sign-in mail to one address (at most 3 per hour); retry after 1190 s",
          code: "rate_limited",
          details: { retryAfterSeconds: 1190 },
        },
      },
    ]);
    render(<EmailLinkForm />);
    await ask("ann@example.com");
    expect(screen.getByRole("alert").textContent).toBe(
      "Too many requests for sign-in links; try again in 20 minutes.",
    );
    expect(screen.queryByRole("status")).toBeNull();
  });

  it("shows the platform's own words for other refusals (no mail configured)", async () => {
    fakeApi([{ status: 404, body: { error: "This platform sends no mail", code: "not_found" } }]);
    render(<EmailLinkForm />);
    await ask("ann@example.com");
    expect(screen.getByRole("alert").textContent).toContain("This platform sends no mail");
  });
});

describe("waits and refused links", () => {
  it("says a wait in the unit a person reads it in", () => {
    expect(waitOf(1)).toBe("in 1 second");
    expect(waitOf(45)).toBe("in 45 seconds");
    expect(waitOf(600)).toBe("in 10 minutes");
    expect(waitOf(7200)).toBe("in 2 hours");
    expect(emailLinkProblem(new SvcError({ status: 429, code: "rate_limited", message: "x" }))).toBe(
      "Too many requests for sign-in links; try again later.",
    );
    expect(emailLinkProblem(new SvcError({ status: 400, code: "validation_failed", message: "x" }))).toBe(
      undefined,
    );
  });

  it("names a sign-in link that was used, expired or revoked", () => {
    const refused = (reason: string) =>
      new SvcError({ status: 401, code: "unauthenticated", message: "x", details: { reason } });
    expect(refusedLinkTitle(refused("used"))).toBe("This link was already used");
    expect(refusedLinkTitle(refused("expired"))).toBe("This link has expired");
    expect(refusedLinkTitle(refused("revoked"))).toBe("This link no longer works");
    expect(refusedLinkTitle(new SvcError({ status: 401, code: "unauthenticated", message: "x" }))).toBe(
      undefined,
    );
  });
});
