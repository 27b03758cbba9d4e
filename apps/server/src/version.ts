import { readFileSync } from "node:fs";

/**
 * Kiln's version, from the server package's `package.json` (one directory up from both `src/` and
 * the bundle's `dist/`); `unknown` when it cannot be read.
 */
export const KILN_VERSION: string = (() => {
  try {
    const text = readFileSync(new URL("../package.json", import.meta.url), "utf8");
    return (JSON.parse(text) as { version?: string }).version ?? "unknown";
  } catch {
    return "unknown";
  }
})();
