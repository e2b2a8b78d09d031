export function packageVersion(): string;
export function tagMismatch(tag: string, version: string): string | undefined;
export function tagToCheck(
  args: readonly string[],
  env: Record<string, string | undefined>,
): string | undefined;
