import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ansiQuoted, bashScript } from "./build-script.js";

const dir = mkdtempSync(join(tmpdir(), "kiln-build-script-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** ANSI colour codes, which the echoed commands carry. */
const COLOURS = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

/** Runs the script of `commands` in real bash; answers its output (ANSI colours removed) and status. */
function run(commands: string): { output: string; status: number } {
  const file = join(dir, "script.sh");
  writeFileSync(file, bashScript(commands));
  try {
    const output = execFileSync("bash", ["--noprofile", "--norc", file], { cwd: dir, encoding: "utf8" });
    return { output: output.replace(COLOURS, ""), status: 0 };
  } catch (error) {
    const failed = error as { stdout: string; status: number };
    return { output: failed.stdout.replace(COLOURS, ""), status: failed.status };
  }
}

describe("bashScript", () => {
  it("echoes each command as `$ command` before its output", () => {
    expect(run("echo one\necho two")).toEqual({ output: "$ echo one\none\n$ echo two\ntwo\n", status: 0 });
  });

  it("stops at the first failing command with its exit code, pipelines included", () => {
    expect(run("echo before\nfalse | true\necho after")).toEqual({
      output: "$ echo before\nbefore\n$ false | true\n",
      status: 1,
    });
    expect(run("exit 3")).toMatchObject({ status: 3 });
  });

  it("keeps a line continued with a backslash as one command, and quotes what it echoes safely", () => {
    const result = run("echo a \\\n  b\necho 'it'\"'\"'s $HOME' `true`");
    expect(result.status).toBe(0);
    expect(result.output).toContain("$ echo a \\\n  b\na b\n");
    expect(result.output).toContain("it's $HOME");
  });

  it("merges stderr into the output in order", () => {
    expect(run("echo out\necho err >&2\necho out2").output).toBe(
      "$ echo out\nout\n$ echo err >&2\nerr\n$ echo out2\nout2\n",
    );
  });

  it("ansiQuoted survives quotes, backslashes and control characters", () => {
    const text = "a'b\\c\n\x01\x7fd";
    expect(execFileSync("bash", ["-c", `printf '%s' ${ansiQuoted(text)}`], { encoding: "utf8" })).toBe(text);
  });
});
