import { createReadStream, createWriteStream, statSync } from "node:fs";
import { Readable } from "node:stream";
import { finished } from "node:stream/promises";
import type { Target } from "@svc/testing/platform";
import { ownerApi } from "./owner-api";

/**
 * Writes a CSV of `rows` question-answer rows, about 110 bytes each, like a dataset hub's exports
 * (`id,input,output,expected_output`, the input a JSON object); returns its size in bytes.
 */
export async function writeImportFile(file: string, rows: number): Promise<number> {
  const out = createWriteStream(file);
  out.write("id,input,output,expected_output\n");
  for (let i = 0; i < rows; i++) {
    const line = `q${i},"{""question"":""What is ${i} plus ${i + 7}? Show the steps."",""lang"":""en""}",The sum is ${2 * i + 7}.,${2 * i + 7}\n`;
    if (!out.write(line)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
  }
  out.end();
  await finished(out);
  return statSync(file).size;
}

/** Sends the file to a dataset's import (its path, `/v1/projects/…/datasets/…`) and waits for it to succeed. */
export async function importFile(
  platform: Pick<Target, "baseUrl" | "ownerKey">,
  dataset: string,
  file: string,
): Promise<{ state: string }> {
  const api = ownerApi(platform);
  const response = await fetch(`${platform.baseUrl}${dataset}/imports`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${platform.ownerKey}`,
      "content-type": "text/csv",
      "content-length": String(statSync(file).size),
    },
    body: Readable.toWeb(createReadStream(file)) as ReadableStream,
    duplex: "half",
  } as RequestInit);
  if (response.status !== 202)
    throw new Error(`the import answered ${response.status}: ${await response.text()}`);
  const first = (await response.json()) as { importId: string };
  for (;;) {
    const state = await untilAnswered(() =>
      api<{ state: string; error?: unknown }>("GET", `${dataset}/imports/${first.importId}`),
    );
    if (state.state === "succeeded") return state;
    if (state.state === "failed") throw new Error(`the import failed: ${JSON.stringify(state.error)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The answer of `request`, asked again while the connection fails or the platform refuses it (503),
 * up to 10 minutes: a platform whose event loop stood still for longer than its keep-alive timeout
 * closes the connections that waited, and one far behind sheds what it cannot answer in time.
 */
async function untilAnswered<T>(request: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 600_000;
  for (;;) {
    try {
      return await request();
    } catch (error) {
      const refused = error instanceof Error && / 503 /.test(error.message);
      if (!(error instanceof TypeError || refused) || Date.now() > deadline) throw error;
      console.log(`the import's progress could not be read (${String(error.cause ?? error)}); asking again`);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }
}
