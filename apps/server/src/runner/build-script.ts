/**
 * The bash script of a build step: each command is echoed in green as `$ command` (as GitLab
 * runner prints it) and then run; the first one that fails ends the script with its code
 * (`set -eo pipefail`). The commands come as one text, lines joined by "\n" (8.x's `commands`);
 * a line ending in `\` continues on the next, so it is echoed and run as one.
 */
export function bashScript(commands: string): string {
  const lines = ["# written by kiln runner", "exec 2>&1", "set -eo pipefail", "set +o noclobber"];
  for (const command of commandsOf(commands)) {
    lines.push(`printf '%s\\n' ${ansiQuoted(`\x1b[32;1m$ ${command}\x1b[0;m`)}`, command);
  }
  return `${lines.join("\n")}\n`;
}

/** The commands of a text, one a line (continued lines joined), blank lines skipped. */
function commandsOf(text: string): string[] {
  const commands: string[] = [];
  let pending: string | null = null;
  for (const line of text.split("\n")) {
    const joined: string = pending === null ? line : `${pending}\n${line}`;
    if (continues(line)) {
      pending = joined;
      continue;
    }
    pending = null;
    if (joined.trim() !== "") commands.push(joined);
  }
  if (pending !== null && pending.trim() !== "") commands.push(pending);
  return commands;
}

/** Whether a line ends in an odd number of backslashes (a continuation, not an escaped `\`). */
function continues(line: string): boolean {
  const trailing = /\\+$/.exec(line)?.[0].length ?? 0;
  return trailing % 2 === 1;
}

/** `text` as a bash ANSI-C quoted word (`$'…'`), safe for any byte it holds. */
export function ansiQuoted(text: string): string {
  let quoted = "";
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    if (char === "\\" || char === "'") quoted += `\\${char}`;
    else if (char === "\n") quoted += "\\n";
    else if (code < 0x20 || code === 0x7f) quoted += `\\x${code.toString(16).padStart(2, "0")}`;
    else quoted += char;
  }
  return `$'${quoted}'`;
}
