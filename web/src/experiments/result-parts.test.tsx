import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { OutputWithDiff, ScoreList } from "./result-parts";

afterEach(cleanup);

describe("OutputWithDiff", () => {
  it("strikes the expected words the output left out and marks the ones it put in", () => {
    const { container } = render(
      <OutputWithDiff output="ships in seven days" expected="ships in five days" />,
    );
    expect([...container.querySelectorAll("del")].map((node) => node.textContent)).toEqual([
      "(expected, missing) five",
    ]);
    expect([...container.querySelectorAll("ins")].map((node) => node.textContent)).toEqual(["(added) seven"]);
  });

  it("says an output matches when it is the expected output", () => {
    render(<OutputWithDiff output={{ answer: 4 }} expected={{ answer: 4 }} />);
    expect(screen.getByText("matches")).toBeTruthy();
  });

  it("shows the output alone when there is no expected output", () => {
    const { container } = render(<OutputWithDiff output="anything" expected={undefined} />);
    expect(container.textContent).toBe("anything");
    expect(container.querySelector("ins, del")).toBeNull();
  });
});

describe("ScoreList", () => {
  const human = { kind: "session" as const, id: "s-own" };
  it("names who gave a human score, and shows its comment", () => {
    render(
      <ScoreList
        ownActorId="s-own"
        scores={{
          pass: { value: false, source: "human", comment: "wrong city", actor: human },
          rating: {
            value: 2,
            source: "human",
            comment: null,
            actor: { kind: "session", id: "abcdef123456" },
          },
          exact: { value: true, source: "rule", comment: null, actor: { kind: "apiKey", id: "k1" } },
        }}
      />,
    );
    const items = screen.getAllByRole("listitem").map((item) => item.textContent);
    expect(items).toEqual([
      "exact pass rule",
      "pass fail human · You“wrong city”",
      "rating 2 human · Session abcdef12",
    ]);
  });
});
