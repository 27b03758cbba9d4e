import type { Actor } from "../context.js";

/** What every presenter may use: where the server lives and who is asking. */
export interface PresentContext {
  /** `KILN_BASE_URL` without a trailing slash. */
  baseUrl: string;
  actor: Actor | null;
}
