import type { PageJson, PaginationParams } from "@kiln/schemas";

/** A procedure that answers one page of a list: `client.todos.list`, `client.mergeRequests.mine`, … */
export interface PagedProcedure<I extends PaginationParams, T> {
  query(input: I): Promise<PageJson<T>>;
}

/**
 * Every page of a list, fetched one at a time as the loop asks for it, from `input.page` (default
 * the first) until the server says there is no next page.
 *
 * @example
 * ```ts
 * for await (const page of pages(kiln.todos.list, { per_page: 100 })) render(page.items);
 * ```
 */
export async function* pages<I extends PaginationParams, T>(
  procedure: PagedProcedure<I, T>,
  input: I,
): AsyncGenerator<PageJson<T>, void, undefined> {
  let next: number | null = input.page ?? 1;
  while (next !== null) {
    const page: PageJson<T> = await procedure.query({ ...input, page: next });
    yield page;
    // A page that answers no item ends the list, whatever it says comes next.
    next = page.items.length === 0 ? null : page.next_page;
  }
}

/** Every item of a list, page after page (see {@link pages}). */
export async function* items<I extends PaginationParams, T>(
  procedure: PagedProcedure<I, T>,
  input: I,
): AsyncGenerator<T, void, undefined> {
  for await (const page of pages(procedure, input)) yield* page.items;
}
