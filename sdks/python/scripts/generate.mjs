// Produces svc/_generated.py from the OpenAPI document: a model class per response object (attribute
// access in snake_case), a TypedDict per request object, and one class per resource with a method per
// operation and an iterator per paginated one.
import { describeApi, resourceClassName } from "../../scripts/openapi-model.mjs";
import { declaredNames, typeDeclarations } from "./declarations.mjs";
import { str } from "./python-syntax.mjs";
import { PythonTypes } from "./python-types.mjs";
import { operationIndex, resourceClass, resourcesClass } from "./resource-classes.mjs";

export const outputPath = "sdks/python/svc/_generated.py";

const HEAD = [
  "# Generated from shared/contracts/openapi.json by sdks/scripts/generate.mjs; do not edit.",
  "# Regenerate with `node sdks/scripts/generate.mjs` after `npm run openapi`.",
  "from __future__ import annotations",
  "",
  "from typing import Any, Dict, Iterator, List, Literal, Mapping, Optional, TypedDict, Union",
  "",
  "from ._models import UNSET, Model, Unset, drop_unset",
  "from ._pagination import paginate",
  "from ._transport import CallOptions, Transport, path_segment",
  "",
  "Cell = Any",
  '"""A cell: any JSON value (string, number, boolean, array, object or None)."""',
  "",
  "",
];

/** @returns {Record<string, string>} file path (from the repository root) → content */
export function generate(document) {
  const api = describeApi(document);
  const types = new PythonTypes(document);
  // The resources first: their methods name the types that the declarations then hold.
  const resources = api.map((resource) => resourceClass(resource, types));
  const exported = [
    "Cell",
    ...declaredNames(types),
    ...api.map((resource) => resourceClassName(resource)),
    "Resources",
    "OPERATIONS",
  ];
  const lines = [
    ...HEAD,
    ...typeDeclarations(types),
    "",
    ...resources.flat(),
    ...resourcesClass(api),
    ...operationIndex(api),
    "__all__ = [",
    ...[...new Set(exported)].sort().map((name) => `    ${str(name)},`),
    "]",
    "",
  ];
  return { [outputPath]: lines.join("\n").replace(/\n{4,}/g, "\n\n\n") };
}
