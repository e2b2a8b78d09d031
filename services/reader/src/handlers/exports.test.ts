import { callSubjectWithBody } from "@svc/bus";
import { type ExportChunk, type ExportChunkRequest, exportChunkSchema, operations } from "@svc/contracts";
import type { CopyTo } from "@svc/db";
import { availableBackends } from "@svc/testing";
import { insertRows, makeDataset, removeColumn } from "@svc/testing/datasets";
import { describe, expect, test } from "vitest";
import { contextOf, readerSuite } from "../test-support";
import { exportDataset } from "../use-cases/export-dataset";

/** What a piece may hold before it ends (the reader's own bound), and one row over it at most. */
const PIECE_BYTES = 1024 * 1024;

/** A piece's data, and its bytes as text. */
type Piece = ExportChunk & { text: string };

describe.each(availableBackends())("exportDataset, piece by piece (%s)", (backendName) => {
  const reader = readerSuite(backendName);

  const ask = async (request: ExportChunkRequest): Promise<Piece> => {
    const { data, body } = await callSubjectWithBody(
      reader.caller,
      operations.exportDataset.subject,
      { context: contextOf(reader.project.organizationId), input: request },
      { timeoutMs: 15_000 },
    );
    expect(body).toBeInstanceOf(Uint8Array);
    return { ...exportChunkSchema.parse(data), text: new TextDecoder().decode(body) };
  };

  test("every piece writes the columns the first one headed, though a column is removed meanwhile", async () => {
    const dataset = await makeDataset(reader.db, reader.project, { customColumns: 2 });
    const [topic = "", level = ""] = dataset.custom;
    await insertRows(
      reader.db,
      dataset,
      Array.from({ length: 1000 }, (_, index) => ({
        id: `r${String(index).padStart(3, "0")}`,
        input: "x".repeat(2000),
        custom: { [topic]: `topic ${index}`, [level]: index },
      })),
    );
    const params = { projectSlug: reader.project.projectSlug, datasetSlug: dataset.slug };
    const first = await ask({ params, format: "csv" });
    expect(first.headers).toEqual([
      "id",
      "Input",
      "Output",
      "Expected output",
      "Metadata",
      "Custom 1",
      "Custom 2",
    ]);
    expect(first.after).not.toBeNull();
    await removeColumn(reader.db, dataset, topic);

    const columns = first.headers?.slice(1).map((header) => first.columns?.[header] ?? header);
    let text = first.text;
    let rows = first.rows;
    for (let piece = first; piece.after !== null; ) {
      const rowsHint = piece.rows;
      piece = await ask({
        params,
        format: "csv",
        version: first.version,
        after: piece.after,
        columns,
        rowsHint,
      });
      rows += piece.rows;
      expect(Buffer.byteLength(piece.text)).toBeLessThan(PIECE_BYTES + 2100);
      text += piece.text;
    }
    const lines = text.split("\r\n").slice(1, -1);
    expect(lines).toHaveLength(1000);
    expect(rows).toBe(1000);
    expect(lines.at(-1)).toBe(`r999,${"x".repeat(2000)},,,,topic 999,999`);
  });

  test("a JSONL piece keeps the same columns too, and no piece is more than one row over its bound", async () => {
    const dataset = await makeDataset(reader.db, reader.project, { customColumns: 1 });
    const [note = ""] = dataset.custom;
    // Rows of 100 kB: a piece that read a page whole would hold far more than its bound.
    await insertRows(
      reader.db,
      dataset,
      Array.from({ length: 25 }, (_, index) => ({
        id: `big${index}`,
        custom: { [note]: "y".repeat(100_000) },
      })),
    );
    const params = { projectSlug: reader.project.projectSlug, datasetSlug: dataset.slug };
    const first = await ask({ params, format: "jsonl" });
    await removeColumn(reader.db, dataset, note);
    const columns = first.headers?.slice(1).map((header) => first.columns?.[header] ?? header);
    const pieces = [first];
    while (pieces.at(-1)?.after) {
      const after = pieces.at(-1)?.after ?? undefined;
      pieces.push(await ask({ params, format: "jsonl", version: first.version, after, columns }));
    }
    expect(pieces.length).toBeGreaterThan(2);
    for (const piece of pieces) expect(Buffer.byteLength(piece.text)).toBeLessThan(PIECE_BYTES + 100_100);
    const rows = pieces
      .map((piece) => piece.text)
      .join("")
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as { rowId: string; custom: Record<string, string> });
    expect(rows.map((row) => row.rowId)).toEqual(Array.from({ length: 25 }, (_, index) => `big${index}`));
    expect(rows.every((row) => row.custom[note] === "y".repeat(100_000))).toBe(true);
  });

  test("a dataset deleted while a piece reads its rows fails the piece rather than ending the file early", async () => {
    const dataset = await makeDataset(reader.db, reader.project);
    await insertRows(reader.db, dataset, [{ id: "r1", input: "kept" }]);
    const request = {
      params: { projectSlug: reader.project.projectSlug, datasetSlug: dataset.slug },
      format: "csv" as const,
    };
    const copyTo = reader.backend.database.copyTo;
    // The dataset goes between the piece's first look at it and the reading of its rows.
    const deletingFirst: CopyTo = async function* (query) {
      await reader.db.deleteFrom("datasets").where("id", "=", dataset.id).execute();
      yield* copyTo(query);
    };
    const organizationId = reader.project.organizationId;
    await expect(
      exportDataset({ db: reader.db, copyTo: deletingFirst }, organizationId, request),
    ).rejects.toMatchObject({ code: "not_found" });
  });

  test("a later piece of a dataset deleted and made again under its slug fails rather than read the new one", async () => {
    const first = await makeDataset(reader.db, reader.project);
    await insertRows(reader.db, first, [{ id: "old", input: "from the first" }]);
    const params = { projectSlug: reader.project.projectSlug, datasetSlug: first.slug };
    const opened = await ask({ params, format: "csv" });
    expect(opened.datasetId).toBe(first.id);
    await reader.db.deleteFrom("datasets").where("id", "=", first.id).execute();
    const second = await makeDataset(reader.db, reader.project, { slug: first.slug });
    await insertRows(reader.db, second, [{ id: "new", input: "from the second" }]);
    const later = {
      params,
      format: "csv" as const,
      version: 1,
      after: { createdAt: "2000-01-01T00:00:00.000000Z", rowId: "a" },
      columns: ["input"],
      datasetId: opened.datasetId,
    };
    const deps = { db: reader.db, copyTo: reader.backend.database.copyTo };
    await expect(exportDataset(deps, reader.project.organizationId, later)).rejects.toMatchObject({
      code: "not_found",
      message: expect.stringContaining("deleted while it was exported"),
    });
  });
});
