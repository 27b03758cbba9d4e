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

/** {@link guardUnique}, and a foreign key violation becomes {@link ForeignKeyViolation}. */
export async function guardConstraints<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await guardUnique(write);
  } catch (error) {
    if (isForeignKeyViolation(error)) throw new ForeignKeyViolation(error);
    throw error;
  }
}

/**
 * A foreign key refused a write: a row it names does not exist, or no longer does (deleted by
 * another transaction meanwhile). Raised by the stores whose callers can tell which row that was.
 */
export class ForeignKeyViolation extends Error {
  override readonly name = "ForeignKeyViolation";
  constructor(cause: unknown) {
    super(`foreign key violated: ${(cause as Error)?.message ?? String(cause)}`, { cause });
  }
}

/** True for SQLite's and PostgreSQL's foreign-key-violation errors. */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "SQLITE_CONSTRAINT_FOREIGNKEY" || code === "23503";
}
