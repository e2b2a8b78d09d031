export function buildCli(options?: { outdir?: string; quiet?: boolean }): Promise<string>;
