import { CST, Lexer } from "yaml";

/**
 * How deep a `.gitlab-ci.yml` may nest, bounded from above by its tokens: the open flow
 * collections (`[`, `{`) plus, on each line, the indentation and the block indicators (`-`, `?`,
 * `:`), as every block level sits at least one column further in. Real files stay far below it.
 * The YAML library composes recursively: past about 700 levels it runs out of stack, and V8 may
 * then abort the whole process instead of throwing (seen when a regexp compiled that deep), so a
 * deeper document never reaches it.
 */
export const MAX_NESTING = 200;

const SCALAR_MARKER = "\u001f";
const BLOCK_INDICATORS = new Set(["seq-item-ind", "explicit-key-ind", "map-value-ind"]);

/** Whether `text` may nest deeper than {@link MAX_NESTING}; one pass of the YAML lexer, no parse. */
export function nestsTooDeep(text: string): boolean {
  let flow = 0;
  let line = 0;
  let lineStart = true;
  let scalarSource = false;
  for (const token of new Lexer().lex(text)) {
    // The token after a scalar marker is the scalar's text (a block scalar's lines included).
    if (scalarSource) {
      scalarSource = false;
      continue;
    }
    if (token === SCALAR_MARKER) scalarSource = true;
    const type = CST.tokenType(token);
    if (type === "newline") {
      line = 0;
      lineStart = true;
      continue;
    }
    if (type === "space" && lineStart) line = token.length;
    else if (type === "flow-seq-start" || type === "flow-map-start") flow++;
    else if (type === "flow-seq-end" || type === "flow-map-end") flow = Math.max(0, flow - 1);
    else if (flow === 0 && type !== null && BLOCK_INDICATORS.has(type)) line++;
    lineStart = false;
    if (flow + line > MAX_NESTING) return true;
  }
  return false;
}
