import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { client } from "../../http";
import { startedForSuite } from "../../platform";
import { startEmbedded } from "../../targets";
import {
  chromiumAvailable,
  expectAccessible,
  replaceText,
  screenshot,
  signIn,
  watchedPageForSuite,
} from "../../web/harness";

interface Row {
  rowId: string;
  input: unknown;
  output: unknown;
  expectedOutput: unknown;
  custom: Record<string, unknown>;
}

/**
 * Cells as text, in Debian's Chromium against the embedded platform: a string typed as it reads (no
 * quotes, line breaks as line breaks), JSON only when chosen, conversations and Markdown shown as
 * they read, and a CSV import that keeps a field's values as written when asked.
 */
describe.runIf(chromiumAvailable())("text cells in the web application", () => {
  const platform = startedForSuite(() => startEmbedded());
  const watched = watchedPageForSuite(() => platform.baseUrl);
  const api = () => client(platform.baseUrl, platform.ownerKey);
  const project = "/v1/projects/cells";
  const texts = `${project}/datasets/texts`;
  const at = (slug: string, query = "") => `${platform.baseUrl}/projects/cells/datasets/${slug}${query}`;
  const grid = () => watched.page.getByRole("grid", { name: "Dataset rows" });
  const panel = (rowId: string) => watched.page.getByRole("complementary", { name: `Row ${rowId}` });
  const rowOf = async (rowId: string) => (await api().get<Row>(`${texts}/rows/${rowId}`)).body;
  const focused = () =>
    watched.page.evaluate<string>(
      "document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.getAttribute('name') ?? ''",
    );
  const chat = [
    { role: "system", content: "Answer in one word." },
    { role: "user", content: [{ type: "text", text: "Capital of France?" }] },
    {
      role: "assistant",
      content: null,
      tool_calls: [
        { id: "call_1", type: "function", function: { name: "lookup", arguments: '{"q":"France"}' } },
      ],
    },
    { role: "tool", tool_call_id: "call_1", content: "Paris" },
    { role: "assistant", content: "Paris." },
  ];

  beforeAll(async () => {
    expect((await api().post(project.replace("/cells", ""), { name: "Cells" })).status).toBe(201);
    expect((await api().post(`${project}/datasets`, { name: "Texts" })).status).toBe(201);
    const rows = [
      { id: "t1", input: "Capital of France?" },
      { id: "t2", input: chat },
      { id: "t3", input: "# Steps\n\n1. Read the **question**\n2. Answer it\n\n<script>alert(1)</script>" },
    ];
    expect((await api().post(`${texts}/rows`, { rows })).status).toBe(201);
    expect((await api().post(`${project}/datasets`, { name: "Imported" })).status).toBe(201);
    await signIn(watched.page, platform.baseUrl, platform.ownerKey);
  });
  afterEach(async ({ task }) => {
    if (task.result?.state === "fail") await screenshot(watched.page, `failed ${task.name}`.slice(0, 60));
  });
  const expectNoProblems = () => expect(watched.problems).toEqual([]);

  it("saves multi-line text typed without quotes as a string, and shows it in the grid as text", async () => {
    await watched.page.goto(at("texts", "?sort=asc"));
    await grid().getByText("t1", { exact: true }).waitFor();
    await grid().focus();
    await watched.page.keyboard.press("j");
    await watched.page.keyboard.press("Enter");
    await panel("t1").waitFor();
    const expected = panel("t1").getByLabel("Expected output", { exact: true });
    await expected.click();
    await watched.page.keyboard.type("Paris");
    await watched.page.keyboard.press("Enter");
    await watched.page.keyboard.type('the "city of light"');
    // The mode switch is one Tab stop before the editor.
    await watched.page.keyboard.press("Shift+Tab");
    await expect.poll(focused).toBe("cell-expectedOutput-mode");
    await watched.page.keyboard.press("Tab");
    await watched.page.keyboard.press("Control+s");
    await watched.page.getByText("Saved row t1 as version 2").waitFor();
    expect((await rowOf("t1")).expectedOutput).toBe('Paris\nthe "city of light"');
    const cell = grid().locator("#row-t1").getByRole("gridcell").nth(4);
    await expect.poll(() => cell.textContent()).toBe('Paris ↵ the "city of light"');
    expect(await expected.inputValue()).toBe('Paris\nthe "city of light"');
    await expectAccessible(watched.page, "a text cell saved");
    await screenshot(watched.page, "text-cell-saved");
    expectNoProblems();
  });

  it("switches a cell to JSON with Alt+M and saves an object typed there", async () => {
    await watched.page.goto(at("texts", "?row=t1"));
    await panel("t1").waitFor();
    await panel("t1").getByLabel("Output", { exact: true }).click();
    await watched.page.keyboard.type("42");
    await watched.page.keyboard.press("Alt+m");
    const group = panel("t1").getByRole("radiogroup", { name: "Edit Output as" });
    expect(await group.getByLabel("JSON").isChecked()).toBe(true);
    // The text stays a string: the switch says how to make it a number.
    await panel("t1")
      .getByText(/The text "42" stays a string in JSON/)
      .waitFor();
    await panel("t1").locator('.cm-content[aria-label="Output"]').waitFor();
    await expect.poll(focused).toBe("Output");
    await replaceText(watched.page, "Output", '{"answer": "Paris", "sure": true}');
    await panel("t1").getByText("1 changed cell").waitFor();
    await expectAccessible(watched.page, "a cell switched to JSON");
    await screenshot(watched.page, "cell-json-mode");
    await watched.page.keyboard.press("Control+s");
    await watched.page.getByText("Saved row t1 as version 3").waitFor();
    expect((await rowOf("t1")).output).toEqual({ answer: "Paris", sure: true });
    expectNoProblems();
  });

  it("shows chat messages as a conversation, in the grid and in the row", async () => {
    await watched.page.goto(at("texts", "?row=t2&sort=asc"));
    const row = grid().locator("#row-t2");
    await row.getByText("5 messages").waitFor();
    const conversation = panel("t2").getByRole("list", { name: "Input as a conversation" });
    await conversation.waitFor();
    const messages = conversation.getByRole("listitem");
    expect(await messages.count()).toBe(5);
    await messages.nth(1).getByText("Capital of France?").waitFor();
    await messages.nth(2).getByText("lookup").waitFor();
    await messages.nth(3).getByText("Paris", { exact: true }).waitFor();
    expect(
      await panel("t2").getByRole("radiogroup", { name: "Edit Input as" }).getByLabel("JSON").isChecked(),
    ).toBe(true);
    await expectAccessible(watched.page, "a conversation");
    await screenshot(watched.page, "conversation");
    expectNoProblems();
  });

  it("renders Markdown when asked, without running the HTML in it", async () => {
    await watched.page.goto(at("texts", "?row=t3"));
    await panel("t3").getByRole("button", { name: "Markdown" }).click();
    const rendered = panel("t3").getByRole("region", { name: "Input as Markdown" });
    await rendered.getByRole("heading", { name: "Steps" }).waitFor();
    await rendered.getByRole("listitem").first().waitFor();
    expect(await rendered.locator("strong").textContent()).toBe("question");
    expect(await rendered.locator("script").count()).toBe(0);
    await expectAccessible(watched.page, "a Markdown cell rendered");
    await screenshot(watched.page, "markdown-cell");
    expectNoProblems();
  });

  it("shows in the CSV preview what would be re-typed, and keeps a field as text when asked", async () => {
    await watched.page.goto(at("imported"));
    await watched.page.getByRole("button", { name: "Import", exact: true }).first().click();
    const dialog = watched.page.getByRole("dialog", { name: "Import a file" });
    const csv = "id,input,code,score\nc1,hello,42,42\nc2,null,true,true\n";
    await dialog
      .locator('input[type="file"]')
      .setInputFiles({ name: "codes.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await dialog.getByRole("table", { name: "First rows of the file" }).waitFor();
    await dialog.getByText("Its values become numbers (42), booleans (true)").first().waitFor();
    await dialog.getByText("Its values become null").waitFor();
    await dialog.getByRole("checkbox", { name: /^Keep as text\s*:\s*code$/ }).check();
    await dialog.getByText("Kept as text: its values stay as written").waitFor();
    await expectAccessible(watched.page, "the CSV preview with a field kept as text");
    await screenshot(watched.page, "import-keep-as-text");
    await dialog.getByRole("button", { name: "Import rows" }).click();
    await dialog.getByText(/^Imported 2 rows as version/).waitFor();

    const base = `${project}/datasets/imported`;
    const columns = (await api().get<{ columns: { identifier: string; name: string }[] }>(`${base}/columns`))
      .body.columns;
    const id = (name: string) => columns.find((column) => column.name === name)?.identifier ?? name;
    const rows = (await api().get<{ items: Row[] }>(`${base}/rows?sortDirection=asc`)).body.items;
    expect(
      rows.map((row) => [row.rowId, row.input, row.custom[id("code")], row.custom[id("score")]]),
    ).toEqual([
      ["c1", "hello", "42", 42],
      ["c2", null, "true", true],
    ]);
    expectNoProblems();
  });
});
