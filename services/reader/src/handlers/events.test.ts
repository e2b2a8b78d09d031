import { callSubject } from "@svc/bus";
import { type DatasetEventsPage, datasetEventsPageSchema, operations } from "@svc/contracts";
import { availableBackends } from "@svc/testing";
import { seeds } from "@svc/testing/datasets";
import { describe, expect, test } from "vitest";
import { contextOf, datasetForSuite, readerSuite } from "../test-support";

describe.each(availableBackends())("a dataset's versions as live-change events (%s)", (backendName) => {
  const reader = readerSuite(backendName);
  const dataset = datasetForSuite(reader, [
    { insert: seeds(3) },
    { update: "row-0000", patch: { input: "edited" } },
    { delete: ["row-0001", "row-0002"] },
    { insert: seeds(150, "bulk") },
    { update: "bulk-0007", patch: { output: "x" } },
  ]);

  const page = async (input: Record<string, unknown>, organizationId = reader.project.organizationId) =>
    datasetEventsPageSchema.parse(
      await callSubject(reader.caller, operations.watchDataset.subject, {
        context: contextOf(organizationId),
        input: { params: { projectSlug: reader.project.projectSlug, datasetSlug: dataset.slug }, ...input },
      }),
    );
  const summary = (events: DatasetEventsPage["events"]) =>
    events.map(({ version, operation, rowIds, rowIdsTruncated }) => ({
      version,
      operation,
      rowIds,
      rowIdsTruncated,
    }));

  test("answers the versions after one, oldest first, with the rows each changed", async () => {
    const answer = await page({ after: 0, limit: 3 });

    expect(answer).toMatchObject({ datasetId: dataset.id, version: 5 });
    expect(summary(answer.events)).toEqual([
      {
        version: 1,
        operation: "insert",
        rowIds: ["row-0000", "row-0001", "row-0002"],
        rowIdsTruncated: false,
      },
      { version: 2, operation: "update", rowIds: ["row-0000"], rowIdsTruncated: false },
      { version: 3, operation: "delete", rowIds: ["row-0001", "row-0002"], rowIdsTruncated: false },
    ]);
    expect(answer.events[0]).toMatchObject({ rowsInserted: 3, actor: { kind: "apiKey" } });
  });

  test("names at most 100 rows of a larger version, and says so", async () => {
    const answer = await page({ after: 3 });

    expect(answer.events.map((event) => event.version)).toEqual([4, 5]);
    const [bulk, edit] = answer.events;
    expect(bulk?.rowIds).toHaveLength(100);
    expect(bulk?.rowIds.every((id) => id.startsWith("bulk-"))).toBe(true);
    expect(bulk).toMatchObject({ rowsInserted: 150, rowIdsTruncated: true });
    expect(edit).toMatchObject({ rowIds: ["bulk-0007"], rowIdsTruncated: false });
  });

  test("answers no events without `after`, and none after the current version", async () => {
    expect(await page({})).toEqual({ datasetId: dataset.id, version: 5, events: [] });
    expect((await page({ after: 5 })).events).toEqual([]);
  });

  test("refuses a version beyond the current one, another dataset's id and another organisation", async () => {
    await expect(page({ after: 6 })).rejects.toMatchObject({ code: "validation_failed" });
    await expect(page({ after: 0, datasetId: "x".repeat(24) })).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(page({ after: 0 }, "another-organisation")).rejects.toMatchObject({ code: "not_found" });
  });
});
