import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { kebabOf, mismatchesIn, useCaseNameMismatches } from "./use-case-names";

describe("one name per operation", () => {
  it("turns an operation id into its use-case file's name", () => {
    expect(kebabOf("updateApiKey")).toBe("update-api-key");
    expect(kebabOf("listDatasets")).toBe("list-datasets");
  });

  it("accepts a handler that calls the use-case named as its operation", () => {
    const source = `
      import { type RevocationEvents, deleteApiKey } from "../use-cases/delete-api-key";
      import { getApiKey } from "../use-cases/get-api-key";
      serveOperation(bus, operations.getApiKey, logger, (input, caller) => getApiKey(db, caller, input)),
      serveOperation(bus, operations.deleteApiKey, logger, (input, caller) =>
        deleteApiKey(db, events, caller, input),
      ),`;
    expect(mismatchesIn("api-keys.ts", source)).toEqual([]);
  });

  it("accepts a handler that hands the use-case named as its operation to a serve helper", () => {
    const source = `
      import { getDataset } from "../use-cases/get-dataset";
      import { listDatasets } from "../use-cases/list-datasets";
      serveRead(deps, operations.listDatasets, listDatasets),
      serveRead(deps, operations.getDataset, getDataset),`;
    expect(mismatchesIn("datasets.ts", source)).toEqual([]);
  });

  it("names an operation handed to a serve helper with another use-case, even one imported beside its own", () => {
    const source = `
      import { getDataset } from "../use-cases/get-dataset";
      import { listDatasets } from "../use-cases/list-datasets";
      serveRead(deps, operations.getDataset, listDatasets),`;
    expect(mismatchesIn("datasets.ts", source)).toEqual([
      "datasets.ts: getDataset calls listDatasets from ../use-cases/list-datasets; expected getDataset from ../use-cases/get-dataset",
    ]);
  });

  it("names an operation whose use-case has another name, or lives in another file", () => {
    const source = `
      import { renameApiKey } from "../use-cases/rename-api-key";
      import { updateProject } from "../use-cases/rename-project";
      serveOperation(bus, operations.updateApiKey, logger, (input, caller) => renameApiKey(db, caller, input)),
      serveOperation(bus, operations.updateProject, logger, (input, caller) => updateProject(db, caller, input)),
      serveOperatorOperation(bus, operations.createOrganization, logger, async () => null),`;
    expect(mismatchesIn("handlers.ts", source)).toEqual([
      "handlers.ts: updateApiKey calls renameApiKey from ../use-cases/rename-api-key; expected updateApiKey from ../use-cases/update-api-key",
      "handlers.ts: updateProject calls updateProject from ../use-cases/rename-project; expected updateProject from ../use-cases/update-project",
      "handlers.ts: createOrganization calls no use-case; expected createOrganization from ../use-cases/create-organization",
    ]);
  });

  it("fails a directory of handlers that serves no operation, rather than finding nothing wrong", () => {
    const dir = mkdtempSync(join(tmpdir(), "handlers-"));
    try {
      writeFileSync(
        join(dir, "pings.ts"),
        "serveSubject(bus, subjects.auth.verify, logger, async () => ({}));\n",
      );
      expect(useCaseNameMismatches(pathToFileURL(`${dir}/`))).toEqual([`${dir}/: serves no operation`]);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });
});
