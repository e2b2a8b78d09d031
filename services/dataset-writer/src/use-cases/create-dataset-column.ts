import { newId, operations } from "@svc/contracts";
import { insertCustomColumn } from "../repositories/columns";
import { assertNameFree, assertRoomForColumn, columnChange } from "./column-changes";

export const createDatasetColumn = columnChange(
  operations.createDatasetColumn,
  async (trx, datasetId, columns, { body }) => {
    assertNameFree(columns, body.name);
    assertRoomForColumn(columns);
    const identifier = newId();
    await insertCustomColumn(trx, { datasetId, identifier, name: body.name });
    return { identifier, name: body.name, source: { kind: "custom" } };
  },
);
