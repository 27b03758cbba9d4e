import { type BuildView, presentBuild } from "@kiln/services";
import type { PresentContext } from "../route.js";

// Shared with the tRPC procedures: the services present these shapes.
export { presentBuild, presentPipeline } from "@kiln/services";

/** The build of an erase or keep answer: `download_url` (null) in place of `artifacts_file`, as the spec shows. */
export function presentBuildWithDownload(view: BuildView, context: PresentContext) {
  const { artifacts_file: _file, ...rest } = presentBuild(view, context);
  return { ...rest, download_url: null };
}
