import type { DiffLimits, DiffResult, RepoDiff } from "./types.js";

/**
 * Parses `git diff-tree -z -r --raw -p` output into GitLab's RepoDiff entries. The raw part (NUL
 * separated, so any path survives) gives paths, modes and status; the patch part gives each file's
 * text, one `diff --git` section per raw entry in the same order, except a type change (file to
 * symlink or submodule), which git, like the libgit2 GitLab used, shows as a deletion and a creation.
 */

/** GitLab's per-file limit: a longer diff is answered empty (`Gitlab::Git::Diff::DIFF_SIZE_LIMIT`). */
export const DEFAULT_MAX_PATCH_BYTES = 102_400;

interface RawEntry {
  oldMode: string;
  newMode: string;
  status: string;
  oldPath: string;
  newPath: string;
}

function readUntilNul(buffer: Buffer, offset: number): [string, number] {
  const end = buffer.indexOf(0, offset);
  const stop = end < 0 ? buffer.length : end;
  return [buffer.subarray(offset, stop).toString("utf8"), stop + 1];
}

function parseRaw(buffer: Buffer): { entries: RawEntry[]; patchStart: number } {
  const entries: RawEntry[] = [];
  let offset = 0;
  while (offset < buffer.length && buffer[offset] === 0x3a /* ":" */) {
    let header: string;
    let oldPath: string;
    [header, offset] = readUntilNul(buffer, offset);
    [oldPath, offset] = readUntilNul(buffer, offset);
    const [oldMode = "0", newMode = "0", , , statusField = ""] = header.slice(1).split(" ");
    const status = statusField.charAt(0);
    let newPath = oldPath;
    if (status === "R" || status === "C") [newPath, offset] = readUntilNul(buffer, offset);
    entries.push({ oldMode, newMode, status, oldPath, newPath });
  }
  // A NUL separates the raw part from the patch part.
  if (offset < buffer.length && buffer[offset] === 0) offset += 1;
  return { entries, patchStart: offset };
}

const SECTION = Buffer.from("diff --git ");

/** The `diff --git` sections of a patch, each from its header line to the next one. */
function splitSections(patch: Buffer): Buffer[] {
  const starts: number[] = [];
  if (patch.subarray(0, SECTION.length).equals(SECTION)) starts.push(0);
  let from = 0;
  for (;;) {
    const at = patch.indexOf(`\n${SECTION.toString()}`, from);
    if (at < 0) break;
    starts.push(at + 1);
    from = at + 1;
  }
  return starts.map((start, i) => patch.subarray(start, starts[i + 1] ?? patch.length));
}

/**
 * The diff text as GitLab shows it: from the first line starting with `---` or `Binary` (the
 * `diff --git`, mode, similarity and `index` lines dropped); `""` when there is no such line.
 */
function stripHeaders(section: Buffer): string {
  const text = section.toString("utf8");
  const match = /^(?:---|Binary)/m.exec(text);
  if (!match) return "";
  // git ends a `---`/`+++` line with a tab when the path has a space (for GNU patch); libgit2,
  // which GitLab used, does not.
  return text.slice(match.index).replace(/^(--- [^\n]*?)\t?\n(\+\+\+ [^\n]*?)\t?\n/, "$1\n$2\n");
}

/** `"100644"`, and `"0"` for an absent side, as GitLab's `mode.to_s(8)`. */
function mode(raw: string): string {
  return Number.parseInt(raw, 8).toString(8);
}

/** Parses diff-tree output; see the module comment. Applies `limits`. */
export function parseDiffTree(stdout: Buffer, limits: DiffLimits = {}): DiffResult {
  const { entries, patchStart } = parseRaw(stdout);
  const sections = splitSections(stdout.subarray(patchStart));
  const maxPatchBytes = limits.maxPatchBytes ?? DEFAULT_MAX_PATCH_BYTES;
  let overflow = false;
  const diffs: RepoDiff[] = [];
  let next = 0;
  const text = () => {
    const section = sections[next++];
    if (!section) return "";
    if (section.length > maxPatchBytes) {
      overflow = true;
      return "";
    }
    return stripHeaders(section);
  };
  for (const entry of entries) {
    const base = { old_path: entry.oldPath, new_path: entry.newPath, renamed_file: false };
    if (entry.status === "T") {
      const deleted = text();
      const created = text();
      diffs.push(
        {
          ...base,
          a_mode: mode(entry.oldMode),
          b_mode: "0",
          diff: deleted,
          new_file: false,
          deleted_file: true,
        },
        {
          ...base,
          a_mode: "0",
          b_mode: mode(entry.newMode),
          diff: created,
          new_file: true,
          deleted_file: false,
        },
      );
      continue;
    }
    diffs.push({
      ...base,
      a_mode: mode(entry.oldMode),
      b_mode: mode(entry.newMode),
      diff: text(),
      new_file: entry.status === "A",
      renamed_file: entry.status === "R",
      deleted_file: entry.status === "D",
    });
  }
  if (limits.maxFiles !== undefined && diffs.length > limits.maxFiles) {
    diffs.length = Math.max(0, limits.maxFiles);
    overflow = true;
  }
  return { diffs, overflow };
}
