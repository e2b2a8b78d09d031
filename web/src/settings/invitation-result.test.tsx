import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ToastProvider } from "../components/toasts";
import { InvitationResult } from "./members-page";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const show = (inviteUrl: string | null, onDone = vi.fn()) => {
  render(
    <ToastProvider>
      <InvitationResult invited={{ email: "ann@example.com", inviteUrl }} onDone={onDone} />
    </ToastProvider>,
  );
  return onDone;
};

describe("InvitationResult", () => {
  it("says the mail went out when the platform sent it", () => {
    const onDone = show(null);
    const said = screen.getAllByRole("status").map((element) => element.textContent);
    expect(said).toContainEqual(expect.stringMatching(/^Invitation sent to ann@example\.com: /));
    expect(screen.queryByLabelText(/Invitation link/)).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Done" }));
    expect(onDone).toHaveBeenCalledOnce();
  });

  it("shows a link that was not mailed once, says so, and copies it", async () => {
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal("navigator", { ...navigator, clipboard: { writeText } });
    const url = "http://127.0.0.1:8080/sign-in#code=svc_sc_abc";
    show(url);
    const region = screen.getByRole("status", { name: "Invitation link" });
    expect(region.textContent).toContain("It is shown this once");
    expect(region.textContent).not.toContain("Invitation sent");
    expect(screen.getByLabelText("Invitation link for ann@example.com").textContent).toBe(url);
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Copy link" }));
    });
    expect(writeText).toHaveBeenCalledWith(url);
    expect(await screen.findByText("Copied the invitation link")).toBeTruthy();
  });
});
