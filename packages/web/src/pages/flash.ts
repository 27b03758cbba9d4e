import type { IncomingMessage } from "node:http";
import { z } from "zod";
import { readCookie } from "../http/cookies.js";

/** The cookie carrying a message to the page a redirect leads to. */
export const FLASH_COOKIE = "_kiln_flash";

/** A message shown once, on the next page: a `notice` of success or an `alert`. */
export const Flash = z.object({ kind: z.enum(["notice", "alert"]), text: z.string().max(500) });
export type Flash = z.infer<typeof Flash>;

/** The flash message the request carries, if any (anything unreadable is ignored). */
export function readFlash(req: IncomingMessage): Flash | null {
  const raw = readCookie(req, FLASH_COOKIE);
  if (!raw) return null;
  try {
    const parsed = Flash.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** A flash message as the value of its cookie. */
export const flashValue = (flash: Flash): string => JSON.stringify(flash);
