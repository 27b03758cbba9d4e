/** `#12` (issue) or `!12` (merge request) written without a project: not after a word, path or URL character. */
const LOCAL_REFERENCE = /(?<![\p{L}\p{N}_/\-.#!&])([#!])(\d+)(?![\p{L}\p{N}_])/gu;

/**
 * `text` with its references to issues and merge requests of its own project (`#12`, `!3`) spelled
 * out as `namespace/project#12`, so that they keep naming the same things in another project, as
 * GitLab 8.x's move rewrites a moved issue's description.
 */
export function qualifyReferences(text: string, projectPath: string): string {
  return text.replace(
    LOCAL_REFERENCE,
    (_match, sigil: string, iid: string) => `${projectPath}${sigil}${iid}`,
  );
}
