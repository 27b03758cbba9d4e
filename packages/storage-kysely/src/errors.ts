/**
 * A unique index refused a write: another row already holds the value. Stores raise this instead of
 * the driver's own error, so nothing above storage sees `SqliteError` or pg's error codes.
 */
export class UniqueViolation extends Error {
  override readonly name = "UniqueViolation";
  constructor(cause: unknown) {
    super(`unique constraint violated: ${(cause as Error)?.message ?? String(cause)}`, { cause });
  }
}

/** True for SQLite's and PostgreSQL's unique-violation errors. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY" || code === "23505";
}

/** Runs a write, turning a unique violation into {@link UniqueViolation}. */
export async function guardUnique<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw new UniqueViolation(error);
    throw error;
  }
}
