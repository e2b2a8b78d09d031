import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { MemoryRouter, Route, Routes } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SessionProvider } from "../session";
import { SingleSignOn, singleSignOnProblems } from "./single-sign-on";

/** The API as the page reaches it: nobody signed in, and a sign-in with a code answering a session. */
function fakeApi() {
  const signIns: unknown[] = [];
  vi.stubGlobal("fetch", async (_url: string, init: RequestInit = {}) => {
    if ((init.method ?? "GET") === "GET") {
      return new Response(JSON.stringify({ error: "signed out", code: "unauthenticated" }), { status: 401 });
    }
    signIns.push(JSON.parse(String(init.body)));
    return new Response(JSON.stringify({ csrfToken: "t", organization: { name: "Beta" } }), { status: 201 });
  });
  return signIns;
}

function renderAt(path: string) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={[path]}>
        <SessionProvider>
          <Routes>
            <Route path="/sign-in" element={<SingleSignOn next="/projects" />} />
            <Route path="/projects" element={<p>Projects</p>} />
          </Routes>
        </SessionProvider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

function offerProvider(name: string | undefined) {
  document.head.querySelector('meta[name="svc-single-sign-on"]')?.remove();
  if (name === undefined) return;
  const meta = document.createElement("meta");
  meta.name = "svc-single-sign-on";
  meta.content = name;
  document.head.append(meta);
}

afterEach(() => {
  cleanup();
  offerProvider(undefined);
  vi.unstubAllGlobals();
  history.replaceState(null, "", "/");
});

describe("single sign-on on the sign-in page", () => {
  it("offers the provider the platform names, as a link to the start of the sign-in", () => {
    fakeApi();
    offerProvider("Acme Login");
    renderAt("/sign-in");
    expect(screen.getByRole("link", { name: "Sign in with Acme Login" }).getAttribute("href")).toBe(
      "/v1/session/oidc?next=%2Fprojects",
    );
  });

  it("offers nothing when the platform has no provider", () => {
    fakeApi();
    renderAt("/sign-in");
    expect(screen.queryByRole("link")).toBeNull();
  });

  it("says in a sentence why the provider's sign-in did not work", () => {
    fakeApi();
    offerProvider("Acme Login");
    renderAt("/sign-in?error=oidc_unverified_email");
    expect(screen.getByRole("alert").textContent).toBe(singleSignOnProblems.oidc_unverified_email);
    expect(screen.getByRole("link", { name: "Sign in with Acme Login" })).toBeTruthy();
  });

  it("lets a member of several organisations choose one, and signs in with that one's code", async () => {
    const signIns = fakeApi();
    const choices = [
      { organizationName: "Alpha", signInCode: "svc_sc_alpha" },
      { organizationName: "Beta", signInCode: "svc_sc_beta" },
    ];
    history.replaceState(
      null,
      "",
      `/sign-in#organizations=${btoa(JSON.stringify(choices)).replace(/=+$/, "")}`,
    );
    renderAt("/sign-in");

    fireEvent.click(await screen.findByRole("button", { name: "Beta" }));

    await screen.findByText("Projects");
    expect(signIns).toEqual([{ signInCode: "svc_sc_beta" }]);
    expect(location.hash).toBe("");
  });
});
