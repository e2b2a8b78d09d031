import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { client } from "../../http";
import { attributesOf, type OtlpValue } from "../../otlp-attributes";
import { startedForSuite } from "../../platform";
import { startEmbedded } from "../../targets";
import {
  chromiumAvailable,
  expectAccessible,
  screenshot,
  signIn,
  watchedPageForSuite,
} from "../../web/harness";

/* Traces as an OpenTelemetry exporter sends them (OTLP/HTTP JSON), one root span each. */

/** The traces' start: a fixed moment on a whole minute, so that every run charts the same buckets. */
const T0 = 1_795_860_000_000;
const MINUTE = 60_000;
const nanos = (ms: number) => String(BigInt(T0 + ms) * 1_000_000n);
const traceId = (n: number) => `${n.toString(16).padStart(4, "0")}${"5e".repeat(14)}`;

interface TraceSpec {
  id: number;
  name: string;
  /** Milliseconds after T0. */
  at: number;
  durationMs: number;
  attributes: Record<string, OtlpValue>;
  error?: string;
}

function exportOf(traces: readonly TraceSpec[]) {
  return {
    resourceSpans: [
      {
        resource: { attributes: attributesOf({ "service.name": "support-bot" }) },
        scopeSpans: [
          {
            scope: { name: "agent" },
            spans: traces.map((trace) => ({
              traceId: traceId(trace.id),
              spanId: "0000000000000001",
              name: trace.name,
              kind: 1,
              startTimeUnixNano: nanos(trace.at),
              endTimeUnixNano: nanos(trace.at + trace.durationMs),
              attributes: attributesOf(trace.attributes),
              ...(trace.error ? { status: { code: 2, message: trace.error } } : {}),
            })),
          },
        ],
      },
    ],
  };
}

const SYSTEM = { role: "system", content: "You answer refund questions." };
const ASK_1 = { role: "user", content: "Where is my refund for order 1234?" };
const ANSWER_1 = { role: "assistant", content: "It was sent on Monday." };
const ASK_2 = { role: "user", content: "When will it arrive?" };
const ANSWER_2 = { role: "assistant", content: "Within five working days." };
const ASK_3 = { role: "user", content: "Can you send it faster?" };

const turn = (
  id: number,
  at: number,
  input: unknown[],
  output: unknown[],
  tokens: [number, number],
  cost: number,
) => ({
  id,
  name: "support-agent",
  at,
  durationMs: 1_500,
  attributes: {
    "session.id": "refund-7",
    "user.id": "ada",
    "gen_ai.request.model": "gpt-4o",
    "gen_ai.input.messages": JSON.stringify(input),
    "gen_ai.output.messages": JSON.stringify(output),
    "gen_ai.usage.input_tokens": tokens[0],
    "gen_ai.usage.output_tokens": tokens[1],
    "gen_ai.usage.cost": cost,
  },
});

/** Ada's session: three turns of one conversation, each input the whole conversation so far; the last fails. */
const refundSession: TraceSpec[] = [
  turn(1, 0, [SYSTEM, ASK_1], [ANSWER_1], [100, 20], 0.01),
  turn(2, MINUTE, [SYSTEM, ASK_1, ANSWER_1, ASK_2], [ANSWER_2], [150, 30], 0.02),
  {
    ...turn(3, 150_000, [SYSTEM, ASK_1, ANSWER_1, ASK_2, ANSWER_2, ASK_3], [], [200, 40], 0.03),
    error: "The courier service refused",
  },
];

/** Bob's session, ten minutes later: two questions on another model. */
const billingSession: TraceSpec[] = [0, 1].map((n) => ({
  id: 10 + n,
  name: "billing-agent",
  at: 10 * MINUTE + n * MINUTE,
  durationMs: 3_000,
  attributes: {
    "session.id": "billing-3",
    "user.id": "bob",
    "gen_ai.request.model": "claude-3-5-sonnet",
    "gen_ai.prompt": `Why was I charged twice? (${n + 1})`,
    "gen_ai.completion": "You were charged once.",
    "gen_ai.usage.input_tokens": 500,
    "gen_ai.usage.output_tokens": 50,
    "gen_ai.usage.cost": 0.5,
  },
}));

/** Carol's 120 health checks, twenty minutes in, one a second, in no session: more than a page of the list. */
const pings: TraceSpec[] = Array.from({ length: 120 }, (_, n) => ({
  id: 100 + n,
  name: "health-check",
  at: 20 * MINUTE + n * 1_000,
  durationMs: 20,
  attributes: { "user.id": "carol", "gen_ai.prompt": `ping ${n}`, "gen_ai.completion": `pong ${n}` },
}));

/** A `datetime-local` input's value for a moment, in the browser's (and this process's) time zone. */
const local = (ms: number) => {
  const date = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
};

/**
 * Monitoring beyond one trace, in Debian's Chromium against the embedded platform: the traces list's
 * free-text search and exact count, the sessions and users with their totals and their traces, a
 * session read as its conversation, and the dashboard's chart points reached from the keyboard.
 */
describe.runIf(chromiumAvailable())("the web application's sessions, users and searches of traces", () => {
  const platform = startedForSuite(() => startEmbedded());
  const watched = watchedPageForSuite(() => platform.baseUrl);
  const api = () => client(platform.baseUrl, platform.ownerKey);

  beforeAll(async () => {
    expect((await api().post("/v1/projects", { name: "Agents" })).status).toBe(201);
    const sent = await api().post("/v1/traces", exportOf([...refundSession, ...billingSession, ...pings]), {
      "x-svc-project": "agents",
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    await signIn(watched.page, platform.baseUrl, platform.ownerKey);
  });
  afterEach(async ({ task }) => {
    if (task.result?.state === "fail") await screenshot(watched.page, `failed ${task.name}`.slice(0, 60));
  });
  const expectNoProblems = () => expect(watched.problems.filter((p) => !/status of 401/.test(p))).toEqual([]);

  it("searches the traces' input and output as words are typed, keeps them in the address, and counts exactly", async () => {
    const page = watched.page;
    await page.goto(`${platform.baseUrl}/projects/agents/traces`);
    const count = page.locator(".trace-count");
    const rows = page.getByRole("table", { name: "Traces, newest first" }).locator("tbody tr");
    // 125 traces, of which the first page shows 100: the count is of all of them.
    await expect.poll(() => count.textContent()).toBe("125 traces");
    await expect.poll(() => rows.count()).toBe(100);

    const search = page.getByRole("searchbox", { name: "Search input and output" });
    // "ping 1" is in ping 1, ping 10 to 19 and ping 100 to 119: 31 traces, in the input, typed key by key.
    await search.pressSequentially("ping 1", { delay: 20 });
    await page.waitForURL(/\?text=ping\+1$/);
    await expect.poll(() => count.textContent()).toBe("31 traces match these filters");
    await expect.poll(() => rows.count()).toBe(31);
    // The answers are searched too, whatever their case; with the other filters, every condition holds.
    await search.fill("POng 11");
    await page.waitForURL(/\?text=POng\+11$/);
    await expect.poll(() => count.textContent()).toBe("11 traces match these filters");
    await page.getByRole("textbox", { name: "User id" }).fill("bob");
    await page.getByRole("button", { name: "Filter", exact: true }).click();
    await page.waitForURL(/text=POng\+11&user=bob/);
    await expect.poll(() => count.textContent()).toBe("0 traces match these filters");
    await page.getByText("No trace matches these filters.").waitFor();

    // A word of one turn of a conversation finds the turns whose input repeats it.
    await page.goto(`${platform.baseUrl}/projects/agents/traces?text=arrive`);
    expect(await search.inputValue()).toBe("arrive");
    await expect.poll(() => count.textContent()).toBe("2 traces match these filters");
    await expect
      .poll(() => rows.locator("th a").allTextContents())
      .toEqual(["support-agent", "support-agent"]);
    await screenshot(page, "traces-search");
    // Clearing the box lists every trace again.
    await search.fill("");
    await page.waitForURL(/\/traces$/);
    await expect.poll(() => count.textContent()).toBe("125 traces");
    await expectAccessible(page, "the searched traces list");
    expectNoProblems();
  });

  it("lists the sessions with their totals, sorted by a column, and opens one as its conversation", async () => {
    const page = watched.page;
    await page.goto(`${platform.baseUrl}/projects/agents/traces`);
    await page
      .getByRole("navigation", { name: "Monitoring" })
      .getByRole("link", { name: "Sessions" })
      .click();
    await page.waitForURL(/\/traces\/sessions$/);
    const table = page.getByRole("table", { name: /^Sessions, by last trace, descending/ });
    const cells = () =>
      table
        .locator("tbody tr")
        .evaluateAll((rows) =>
          rows.map((row) => [...row.querySelectorAll("th, td")].slice(0, 5).map((cell) => cell.textContent)),
        );
    // The latest first; the health checks are in no session.
    await expect.poll(cells).toEqual([
      ["billing-3", "2", "0", "1,100", "$1.00"],
      ["refund-7", "3", "1", "540", "$0.06"],
    ]);
    await table.locator("time").first().waitFor();
    await expectAccessible(page, "the sessions");
    await screenshot(page, "trace-sessions");

    // A column's header sorts by it, most first, then the other way round.
    await page.getByRole("button", { name: "Errors" }).click();
    await page.waitForURL(/sort=errors$/);
    const byErrors = page.getByRole("table", { name: /^Sessions, by errors, descending/ });
    await expect
      .poll(() => byErrors.locator("tbody th").allTextContents())
      .toEqual(["refund-7", "billing-3"]);
    expect(await byErrors.getByRole("columnheader", { name: /Errors/ }).getAttribute("aria-sort")).toBe(
      "descending",
    );
    await page.getByRole("button", { name: "Errors" }).click();
    await page.waitForURL(/sort=errors&direction=asc$/);
    const fewest = page.getByRole("table", { name: /^Sessions, by errors, ascending/ });
    await expect.poll(() => fewest.locator("tbody th").allTextContents()).toEqual(["billing-3", "refund-7"]);

    // The session: its turns in order, each with only what it added to the conversation.
    await fewest.getByRole("link", { name: "refund-7" }).click();
    await page.waitForURL(/\/traces\/sessions\/refund-7$/);
    await page.getByRole("heading", { name: "Session refund-7", level: 1 }).waitFor();
    const turns = page.getByRole("list", { name: "Turns of the session" });
    await expect.poll(() => turns.getByRole("article").count()).toBe(3);
    const first = turns.getByRole("article", { name: "Turn 1: support-agent" });
    await first.getByRole("list", { name: "Turn 1, asked" }).getByText(ASK_1.content).waitFor();
    await first.getByRole("list", { name: "Turn 1, answered" }).getByText(ANSWER_1.content).waitFor();
    const second = turns.getByRole("article", { name: "Turn 2: support-agent" });
    const asked = second.getByRole("list", { name: "Turn 2, asked" });
    await asked.getByText(ASK_2.content).waitFor();
    // Its input repeats the first turn and the system prompt; the turn shows neither again.
    expect(await asked.getByRole("listitem").count()).toBe(1);
    await second.getByText("+1 min", { exact: true }).waitFor();
    const third = turns.getByRole("article", { name: "Turn 3: support-agent" });
    await third.getByText("+2 min 30 s", { exact: true }).waitFor();
    await third.getByText("1 error").waitFor();
    await third.getByText("240 tokens · $0.03").waitFor();
    await page.locator(".session-summary").getByText("3 traces").waitFor();
    await page.locator(".session-summary").getByText("ada").waitFor();
    await expectAccessible(page, "a session's conversation");
    await screenshot(page, "trace-session");

    // A turn opens its trace; the session opens in the traces list too.
    await third.getByRole("link", { name: "support-agent" }).click();
    await page.waitForURL(new RegExp(`/traces/${traceId(3)}$`));
    await page.goBack();
    await page.getByRole("link", { name: "Open in the traces list" }).click();
    await page.waitForURL(/\/traces\?session=refund-7&sort=oldest$/);
    await expect.poll(() => page.locator(".trace-count").textContent()).toBe("3 traces match these filters");
    expectNoProblems();
  });

  it("lists the users with their totals, and a user opens the traces list of their traces", async () => {
    const page = watched.page;
    await page.goto(`${platform.baseUrl}/projects/agents/traces/sessions`);
    await page.getByRole("navigation", { name: "Monitoring" }).getByRole("link", { name: "Users" }).click();
    await page.waitForURL(/\/traces\/users$/);
    const table = page.getByRole("table", { name: /^Users, by last trace, descending/ });
    const cells = () =>
      table
        .locator("tbody tr")
        .evaluateAll((rows) =>
          rows.map((row) => [...row.querySelectorAll("th, td")].slice(0, 5).map((cell) => cell.textContent)),
        );
    await expect.poll(cells).toEqual([
      ["carol", "120", "0", "0", "$0"],
      ["bob", "2", "0", "1,100", "$1.00"],
      ["ada", "3", "1", "540", "$0.06"],
    ]);
    await expectAccessible(page, "the users");
    await screenshot(page, "trace-users");
    await page.getByRole("button", { name: "Cost" }).click();
    await page.waitForURL(/sort=costMicrocents$/);
    await expect
      .poll(() =>
        page
          .getByRole("table", { name: /^Users, by cost/ })
          .locator("tbody th")
          .allTextContents(),
      )
      .toEqual(["bob", "ada", "carol"]);

    await page.getByRole("link", { name: "ada", exact: true }).click();
    await page.waitForURL(/\/traces\?user=ada$/);
    await expect.poll(() => page.locator(".trace-count").textContent()).toBe("3 traces match these filters");
    expect(await page.getByRole("textbox", { name: "User id" }).inputValue()).toBe("ada");

    // A range keeps only the traces that started in it: from the 11th minute, one of Bob's two.
    await page.goBack();
    await page.waitForURL(/\/traces\/users\?sort=costMicrocents$/);
    await page.getByLabel("From").fill(local(T0 + 11 * MINUTE));
    await page.getByRole("button", { name: "Show" }).click();
    await page.waitForURL(/sort=costMicrocents&from=/);
    const inRange = page.getByRole("table", { name: /^Users, by cost/ });
    await expect
      .poll(() =>
        inRange
          .locator("tbody tr")
          .evaluateAll((rows) =>
            rows.map((row) =>
              [...row.querySelectorAll("th, td")].slice(0, 5).map((cell) => cell.textContent),
            ),
          ),
      )
      .toEqual([
        ["bob", "1", "0", "550", "$0.5"],
        ["carol", "120", "0", "0", "$0"],
      ]);
    // A user's traces open of the same range, and so with the same count.
    await inRange.getByRole("link", { name: "bob", exact: true }).click();
    await expect
      .poll(() => new URL(page.url()).search)
      .toBe(`?user=bob&from=${encodeURIComponent(new Date(T0 + 11 * MINUTE).toISOString())}`);
    await expect.poll(() => page.locator(".trace-count").textContent()).toBe("1 trace matches these filters");
    expectNoProblems();
  });

  it("reaches a chart's points from the keyboard, shows the focused one, and opens its traces with Enter", async () => {
    const page = watched.page;
    // Ten minutes around the refund session, minute by minute.
    const from = T0 - 2 * MINUTE;
    const to = T0 + 8 * MINUTE;
    await page.goto(
      `${platform.baseUrl}/projects/agents/traces/dashboard?from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}`,
    );
    await page.getByText("One point per minute").waitFor();
    const chart = page.getByRole("application", { name: "Traces by model" });
    await chart.locator("path.recharts-curve").first().waitFor();
    // The range picker's button, then the first chart: one Tab stop per chart.
    await page.getByRole("button", { name: "Show" }).focus();
    await page.keyboard.press("Tab");
    expect(await page.evaluate<string>("document.activeElement?.getAttribute('aria-label') ?? ''")).toBe(
      "Traces by model",
    );
    const readout = chart.locator(".chart-readout");
    const label = (ms: number) =>
      page.evaluate(
        (time) => new Date(time).toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" }),
        ms,
      );
    // It lands on the latest point with a value: the minute of the third turn.
    await expect.poll(() => readout.textContent()).toBe(`${await label(T0 + 2 * MINUTE)}: 1`);
    await page.keyboard.press("Home");
    await expect.poll(() => readout.textContent()).toBe(`${await label(from)}: 0`);
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => readout.textContent()).toBe(`${await label(T0 + MINUTE)}: 1`);
    // The tooltip shows the same point, and a ring marks it on the line.
    await page
      .locator(".recharts-tooltip-wrapper")
      .getByText(await label(T0 + MINUTE))
      .waitFor();
    await chart.locator(".chart-focus").waitFor();
    await expectAccessible(page, "the dashboard with a chart point focused");
    await screenshot(page, "traces-dashboard-keyboard");

    await page.keyboard.press("Enter");
    // The point of gpt-4o's line: its traces of that minute, with that model.
    await page.waitForURL(/\/projects\/agents\/traces\?from=.*&to=.*&model=gpt-4o$/);
    const url = new URL(page.url());
    expect(["from", "to"].map((name) => url.searchParams.get(name))).toEqual([
      new Date(T0 + MINUTE).toISOString(),
      new Date(T0 + 2 * MINUTE).toISOString(),
    ]);
    await expect.poll(() => page.locator(".trace-count").textContent()).toBe("1 trace matches these filters");
    expectNoProblems();
  });
});
