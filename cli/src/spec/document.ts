import document from "../../openapi.json" with { type: "json" };
import type { CommandTree } from "./command-tree";
import { buildTree, type OpenApiDocument } from "./tree";

let cached: CommandTree | undefined;

/** The command tree of the committed OpenAPI document, built once per process. */
export function commandTree(): CommandTree {
  cached ??= buildTree(document as unknown as OpenApiDocument);
  return cached;
}
