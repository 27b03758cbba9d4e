import type { UploadLink } from "@kiln/domain";
import type { UploadJson } from "@kiln/schemas";
import { attachmentLimitBytes, uploads } from "@kiln/services";
import { type Route, route } from "../route.js";

/** `POST /projects/:id/uploads`: a multipart `file` of at most `max_attachment_size`, answered as a Markdown link. */
export const uploadRoutes: Route[] = [
  route({
    method: "POST",
    path: "/projects/:id/uploads",
    operation: uploads.create,
    files: { field: "file", maxBytes: attachmentLimitBytes },
    present: ({ alt, url, markdown }: UploadLink): UploadJson => ({ alt, url, markdown }),
  }),
];
