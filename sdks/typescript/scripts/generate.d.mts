export const outputPath: string;
/** File path (from the repository root) → generated content. */
export function generate(document: unknown): Record<string, string>;
