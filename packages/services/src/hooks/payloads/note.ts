import type { Issue, Note, User } from "@kiln/domain";
import { type HookProject, hookUser, projectHookAttrs, projectUrls, shortRepository } from "./common.js";
import { issueColumns } from "./issue.js";
import { type MergeRequestPayloadSource, mergeRequestHookAttrs } from "./merge-request.js";

/** What a note is on: an issue, or a merge request with what its hook attributes need. */
export type NotedOn =
  | { type: "Issue"; issue: Issue }
  | { type: "MergeRequest"; mergeRequest: Omit<MergeRequestPayloadSource, "action" | "user" | "assignee"> };

/** What a note payload is built from. */
export interface NotePayloadSource {
  note: Note;
  user: Pick<User, "name" | "username">;
  where: HookProject;
  on: NotedOn;
  baseUrl: string;
}

/**
 * The note payload of GitLab 8.x (`Gitlab::DataBuilder::Note`): the note's columns with its `url`,
 * and the issue or merge request it is on.
 */
export function notePayload(source: NotePayloadSource) {
  const { note, where, on, baseUrl } = source;
  const webUrl = projectUrls(where, baseUrl).web_url;
  const target =
    on.type === "Issue"
      ? { url: `${webUrl}/issues/${on.issue.iid}`, attrs: { issue: issueColumns(on.issue) } }
      : {
          url: `${webUrl}/merge_requests/${on.mergeRequest.mergeRequest.iid}`,
          attrs: { merge_request: mergeRequestHookAttrs(on.mergeRequest) },
        };
  return {
    object_kind: "note",
    user: hookUser(source.user),
    project_id: where.project.id,
    project: projectHookAttrs(where, baseUrl),
    object_attributes: {
      id: note.id,
      note: note.body,
      noteable_type: note.noteable_type,
      author_id: note.author_id,
      created_at: note.created_at,
      updated_at: note.updated_at,
      project_id: note.project_id,
      attachment: note.attachment,
      line_code: null,
      commit_id: null,
      noteable_id: note.noteable_id,
      system: note.system,
      st_diff: null,
      updated_by_id: null,
      type: null,
      position: null,
      original_position: null,
      resolved_at: null,
      resolved_by_id: null,
      discussion_id: null,
      original_discussion_id: null,
      note_html: null,
      url: `${target.url}#note_${note.id}`,
    },
    repository: shortRepository(where, baseUrl),
    ...target.attrs,
  };
}
