export const repoRoot: string;
export const documentPath: string;
export function loadDocument(path?: string): Record<string, unknown>;
export function writeOrCheck(files: Record<string, string>, options: { check: boolean }): string[];
