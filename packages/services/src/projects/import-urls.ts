import type { ServiceRuntime } from "../runtime.js";

// A project's import URL may carry credentials (`https://user:token@host/repo.git`): it is stored
// sealed with the server key, as the runners token and hook tokens are, and the API never shows it.

/** The project's import URL in the clear, or null when it has none. */
export async function importUrlOf(runtime: ServiceRuntime, projectId: number): Promise<string | null> {
  const sealed = await runtime.stores.projects.sealedImportUrl(projectId);
  return sealed === null ? null : runtime.secrets.open(sealed);
}

/**
 * Seals the import URLs stored in the clear before they were sealed (migration 0009 could not: a
 * migration sees the database, not the key) and erases them. Run at every start, after the
 * migrations (once none are left, it costs one read of the projects table). Processes starting
 * together seal each URL once between them. Answers how many this call sealed.
 */
export async function sealImportUrls(runtime: ServiceRuntime): Promise<number> {
  const { projects } = runtime.stores;
  let sealed = 0;
  for (const [id, clear] of await projects.clearImportUrls()) {
    if (await projects.sealImportUrl(id, clear, runtime.secrets.seal(clear))) sealed++;
  }
  return sealed;
}
