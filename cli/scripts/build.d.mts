export function buildCli(options?: { outdir?: string; quiet?: boolean; node?: string }): Promise<string>;
