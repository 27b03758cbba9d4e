import { hookUrlProblem, invalid } from "@kiln/domain";
import type { Context } from "../context.js";

/** The URL if hooks may point at it under the current settings; a 400 on `url` otherwise. */
export async function checkedUrl(ctx: Context, url: string): Promise<string> {
  const { allow_local_requests_from_hooks } = await ctx.runtime.settings();
  const problem = hookUrlProblem(url, allow_local_requests_from_hooks);
  if (problem) throw invalid({ url: [problem] });
  return url;
}

/** The token as stored: sealed, null to remove it (an empty token), undefined to keep it. */
export function sealedToken(ctx: Context, token: string | undefined): string | null | undefined {
  if (token === undefined) return undefined;
  return token === "" ? null : ctx.runtime.secrets.seal(token);
}
