import { DomainError } from "@svc/contracts";
import { describe, expect, it } from "vitest";
import { atEdit, rowNotFound, rowVersionMismatch } from "./row-edit-errors";

describe("the errors of a row edit", () => {
  it("name the row of a single edit, with no details but the versions", () => {
    expect(rowNotFound({ rowId: "r_1" }).toData()).toEqual({
      code: "not_found",
      message: 'Row "r_1" not found',
    });
    expect(rowVersionMismatch({ rowId: "r_1" }, 4, 3).toData()).toEqual({
      code: "version_mismatch",
      message: 'Row "r_1" was changed at version 4, not 3; read it again and retry',
      details: { currentVersion: 4, expectedVersion: 3 },
    });
  });

  it("name the edit of a batch by its index, in the message and the details", () => {
    expect(rowNotFound({ index: 2, rowId: "r_1" }).toData()).toEqual({
      code: "not_found",
      message: 'Edit 2: row "r_1" not found',
      details: { index: 2, rowId: "r_1" },
    });
    expect(rowVersionMismatch({ index: 2, rowId: "r_1" }, 4, 3).toData()).toEqual({
      code: "version_mismatch",
      message: 'Edit 2: row "r_1" was changed at version 4, not 3; read it again and retry',
      details: { index: 2, rowId: "r_1", currentVersion: 4, expectedVersion: 3 },
    });
  });

  it("prefix a check's error with the edit of the batch it is about", () => {
    const check = () => {
      throw new DomainError("unknown_column", 'Unknown column "c_9"', { column: "c_9" });
    };
    expect(() => atEdit({ index: 1, rowId: "r_2" }, check)).toThrow(
      expect.objectContaining({
        code: "unknown_column",
        message: 'Edit 1, row "r_2": Unknown column "c_9"',
        details: { column: "c_9", index: 1, rowId: "r_2" },
      }),
    );
  });
});
