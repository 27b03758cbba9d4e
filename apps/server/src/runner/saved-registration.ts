import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import { RunnerUsageError } from "./options.js";

/** The file in the builds dir where a registered runner keeps its token (readable by its user only). */
export const REGISTRATION_FILE = "kiln-runner.json";

const savedRegistration = z.object({ url: z.string(), id: z.number().int(), token: z.string().min(1) });

/** A registration kept from an earlier start: the server it is for, the runner's id and token. */
export type SavedRegistration = z.infer<typeof savedRegistration>;

/** The registration saved in `buildsDir` for the server at `url`, if any. */
export async function readRegistration(buildsDir: string, url: string): Promise<SavedRegistration | null> {
  let text: string;
  try {
    text = await readFile(join(buildsDir, REGISTRATION_FILE), "utf8");
  } catch {
    return null;
  }
  let parsed: SavedRegistration;
  try {
    parsed = savedRegistration.parse(JSON.parse(text));
  } catch {
    throw new RunnerUsageError(
      `${join(buildsDir, REGISTRATION_FILE)} is damaged: remove it and register again`,
    );
  }
  return parsed.url === url ? parsed : null;
}

/** Saves a new registration in `buildsDir` (mode 0600: the token lets anyone take builds). */
export async function saveRegistration(buildsDir: string, registration: SavedRegistration): Promise<string> {
  const file = join(buildsDir, REGISTRATION_FILE);
  await writeFile(file, `${JSON.stringify(registration, null, 2)}\n`, { mode: 0o600 });
  return file;
}
