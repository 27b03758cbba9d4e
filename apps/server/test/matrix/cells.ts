/** One cell of the permission matrix: a route, a place, a caller, what should happen and what did. */
export interface Cell {
  route: string;
  /** Where: the fixture the route is applied to, e.g. `personal private` or `group public`. */
  at: string;
  /** Who calls: a role, or a named special caller. */
  who: string;
  /** What should come back, as {@link Cell.run} reports it (a status, sometimes with list contents). */
  expected: string;
  /**
   * Cells with the same key run one after another, in order (they set up and use the same
   * fixture's state); all other cells run concurrently.
   */
  serial?: string;
  /** Makes the request (after any setup of its own) and reports the outcome. */
  run(): Promise<string>;
}

/** Runs `task` over `items`, at most `limit` at a time. */
export async function pool<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await task(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** How many cells have been checked so far in this process (reported by the suite). */
export const tally = { cells: 0 };

/**
 * Runs every cell and answers one line per cell whose outcome differs from the expected one:
 * `route | at | who: expected X, got Y`, sorted so that a failure lists them route by route.
 */
export async function mismatches(cells: readonly Cell[], concurrency = 8): Promise<string[]> {
  const lanes = new Map<string, Cell[]>();
  cells.forEach((cell, index) => {
    const key = cell.serial ?? `#${index}`;
    const lane = lanes.get(key);
    if (lane) lane.push(cell);
    else lanes.set(key, [cell]);
  });
  const found: string[] = [];
  await pool([...lanes.values()], concurrency, async (lane) => {
    for (const cell of lane) {
      let actual: string;
      try {
        actual = await cell.run();
      } catch (error) {
        actual = `an exception: ${error instanceof Error ? error.message : String(error)}`;
      }
      if (actual !== cell.expected) {
        found.push(`${cell.route} | ${cell.at} | ${cell.who}: expected ${cell.expected}, got ${actual}`);
      }
    }
  });
  tally.cells += cells.length;
  return found.sort();
}
