// Generates the benchmark repository with `git fast-import`: COMMITS commits on main (default
// 2,000), FILES files (default 500) in 25 directories of about LINES lines (350), each commit
// after the first changing 1–8 files by rewriting CHANGE lines (60); then `git repack -a -d -f`
// (a bare repository writes a bitmap). Deterministic: the same parameters give the same objects.
import { spawn, spawnSync } from "node:child_process";

const WORDS =
  "alpha beta gamma delta kiln forge commit branch merge rebase tree blob object pack index ref head tag remote fetch push clone".split(
    " ",
  );

function prng(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function run(args, options = {}) {
  const result = spawnSync("git", args, { stdio: ["ignore", "inherit", "inherit"], ...options });
  if (result.status !== 0) throw new Error(`git ${args.join(" ")} failed`);
}

/** Creates the bare repository `dir` with the given shape. */
export async function generateRepo(dir, { commits = 2000, files = 500, lines = 350, change = 60 } = {}) {
  run(["init", "--quiet", "--bare", "--initial-branch=main", dir]);
  const random = prng(42);
  const line = () =>
    Array.from({ length: 8 }, () => WORDS[Math.floor(random() * WORDS.length)]).join(" ") +
    ` ${Math.floor(random() * 1e9)}`;
  const paths = Array.from({ length: files }, (_, i) => `dir${String(i % 25).padStart(2, "0")}/file${i}.txt`);
  const contents = paths.map(() => Array.from({ length: lines }, line));
  const child = spawn("git", ["fast-import", "--quiet"], {
    env: { ...process.env, GIT_DIR: dir },
    stdio: ["pipe", "inherit", "inherit"],
  });
  const done = /** @type {Promise<void>} */ (
    new Promise((resolve, reject) =>
      child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`fast-import exited ${code}`)))),
    )
  );
  const write = (text) =>
    child.stdin.write(text) ? undefined : new Promise((r) => child.stdin.once("drain", r));
  let time = 1_600_000_000;
  for (let c = 0; c < commits; c++) {
    const changed =
      c === 0
        ? paths.map((_, i) => i)
        : Array.from({ length: 1 + Math.floor(random() * 8) }, () => Math.floor(random() * files));
    let commands = "";
    for (const index of new Set(changed)) {
      const content = /** @type {string[]} */ (contents[index]);
      if (c > 0) {
        const start = Math.floor(random() * (lines - change));
        for (let l = start; l < start + change; l++) content[l] = line();
      }
      const data = Buffer.from(`${content.join("\n")}\n`);
      commands += `M 100644 inline ${paths[index]}\ndata ${data.length}\n${data}\n`;
    }
    time += 600;
    const message = `commit ${c}: change ${new Set(changed).size} files\n`;
    await write(
      `commit refs/heads/main\ncommitter Bench <bench@example.com> ${time} +0000\ndata ${Buffer.byteLength(message)}\n${message}${commands}\n`,
    );
  }
  child.stdin.end();
  await done;
  run(["--git-dir", dir, "symbolic-ref", "HEAD", "refs/heads/main"]);
  run(["--git-dir", dir, "repack", "-a", "-d", "-f", "-q"]);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2];
  if (!dir) throw new Error("usage: node gen-repo.mjs <dir.git>");
  await generateRepo(dir, { commits: Number(process.env.COMMITS ?? 2000) });
}
