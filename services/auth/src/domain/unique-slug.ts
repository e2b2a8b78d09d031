/**
 * The first of `base`, `base-2`, `base-3`, … that is not taken. `taken` may hold unrelated slugs that
 * merely start with `base`; they are ignored.
 */
export function firstFreeSlug(base: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!used.has(candidate)) return candidate;
  }
}
