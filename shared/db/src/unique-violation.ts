/** True when `error` is PostgreSQL's unique violation of `constraint` (from `pg` or PGlite alike). */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, constraint: violated } = error as { code?: unknown; constraint?: unknown };
  return code === "23505" && violated === constraint;
}
