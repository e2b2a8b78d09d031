import type { UpdateDatasetRowBody } from "@svc/sdk";

/** The same edit as a person would send it from a terminal or a program: the UI teaches the API. */
export function editAsCommands(
  origin: string,
  projectSlug: string,
  datasetSlug: string,
  rowId: string,
  ifMatch: number,
  body: UpdateDatasetRowBody,
): { curl: string; svc: string; typescript: string; python: string } {
  const json = JSON.stringify(body);
  const path = `/v1/projects/${projectSlug}/datasets/${datasetSlug}/rows/${encodeURIComponent(rowId)}`;
  const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
  const pyArgs = Object.entries(body)
    .map(([key, value]) => `${key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}=${pythonLiteral(value)}`)
    .join(", ");
  return {
    curl: [
      `curl -X PATCH ${quote(`${origin}${path}`)} \\`,
      `  -H "Authorization: Bearer $SVC_API_KEY" -H "Content-Type: application/json" \\`,
      `  -H 'If-Match: ${ifMatch}' \\`,
      `  -d ${quote(json)}`,
    ].join("\n"),
    svc: `svc datasets update-row --project-slug ${projectSlug} --dataset-slug ${datasetSlug} --row-id ${quote(rowId)} --if-match ${ifMatch} --json ${quote(json)}`,
    typescript: `await client.datasets.updateRow(${JSON.stringify(projectSlug)}, ${JSON.stringify(datasetSlug)}, ${JSON.stringify(rowId)}, ${json}, { ifMatch: ${ifMatch} });`,
    python: `client.datasets.update_row(${JSON.stringify(projectSlug)}, ${JSON.stringify(datasetSlug)}, ${JSON.stringify(rowId)}, ${pyArgs}, if_match=${ifMatch})`,
  };
}

function pythonLiteral(value: unknown): string {
  if (value === null) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (Array.isArray(value)) return `[${value.map(pythonLiteral).join(", ")}]`;
  if (typeof value === "object") {
    return `{${Object.entries(value as Record<string, unknown>)
      .map(([key, item]) => `${JSON.stringify(key)}: ${pythonLiteral(item)}`)
      .join(", ")}}`;
  }
  return JSON.stringify(value);
}
