import {
  badRequest,
  conflict,
  DomainError,
  forbidden,
  invalid,
  missingParam,
  notFound,
  notModified,
  PushRefusal,
  unauthenticated,
} from "@kiln/domain";
import { BranchMessage, TagMessage } from "@kiln/services";
import { describe, expect, it } from "vitest";
import { errorReply } from "./errors.js";

/**
 * Every error the code raises, with the exact v3 status and body clients see today (the bodies
 * were taken from the code before errors became kinds with facts: they must never change).
 */
const cases: [name: string, build: () => DomainError, status: number, body: unknown][] = [
  // Generic kinds.
  ["no subject", () => notFound(), 404, "404 Not Found"],
  ["forbidden", () => forbidden(), 403, "403 Forbidden"],
  ["unauthenticated", () => unauthenticated(), 401, "401 Unauthorized"],
  ["missing param", () => missingParam("title"), 400, '400 (Bad request) "title" not given'],
  ["validation", () => invalid({ title: ["can't be blank"] }), 400, { title: ["can't be blank"] }],
  ["not modified", () => notModified(), 304, undefined],
  [
    "too large",
    () => new DomainError("too_large", "413 Request Entity Too Large"),
    413,
    "413 Request Entity Too Large",
  ],
  ["method", () => new DomainError("not_allowed", "405 Method Not Allowed"), 405, "405 Method Not Allowed"],
  // 404 with a subject, one per subject the code names.
  ...(
    [
      "Blob",
      "Branch",
      "Commit",
      "File",
      "Group",
      "Group Link",
      "Hook",
      "Issue",
      "Key",
      "Label",
      "Member",
      "Merge Request",
      "Note",
      "Project",
      "Tag",
      "Target Namespace",
      "Todo",
      "Token",
      "Tree",
      "User",
    ] as const
  ).map((subject): [string, () => DomainError, number, unknown] => [
    `not found: ${subject}`,
    () => notFound(subject),
    404,
    `404 ${subject} Not Found`,
  ]),
  // Named failures, by feature.
  [
    "sudo target",
    () => new DomainError("not_found", "404 Not Found: No user id or username for: ghost"),
    404,
    "404 Not Found: No user id or username for: ghost",
  ],
  [
    "sudo by non-admin",
    () => forbidden("Must be admin to use sudo"),
    403,
    "403 Forbidden: Must be admin to use sudo",
  ],
  [
    "sign-in disabled",
    () => forbidden("Sign-in with a password is disabled"),
    403,
    "403 Forbidden: Sign-in with a password is disabled",
  ],
  ["wrong password", () => new DomainError("unauthenticated", "401 Unauthorized"), 401, "401 Unauthorized"],
  [
    "too many parameters",
    () => badRequest("400 (Bad request) too many parameters"),
    400,
    "400 (Bad request) too many parameters",
  ],
  [
    "nested too deeply",
    () => badRequest("400 (Bad request) parameters nested too deeply"),
    400,
    "400 (Bad request) parameters nested too deeply",
  ],
  [
    "too many values",
    () => badRequest('400 (Bad request) "labels" has too many values'),
    400,
    '400 (Bad request) "labels" has too many values',
  ],
  [
    "bad timestamp",
    () => badRequest('"since" must be a timestamp in ISO 8601 format: YYYY-MM-DDTHH:MM:SSZ'),
    400,
    '"since" must be a timestamp in ISO 8601 format: YYYY-MM-DDTHH:MM:SSZ',
  ],
  [
    "user update without attributes",
    () => badRequest("400 (Bad request) at least one attribute must be given"),
    400,
    "400 (Bad request) at least one attribute must be given",
  ],
  [
    "username taken",
    () => conflict("Username has already been taken"),
    409,
    "Username has already been taken",
  ],
  ["email taken", () => conflict("Email has already been taken"), 409, "Email has already been taken"],
  [
    "project name taken",
    () => conflict("Project name has already been taken in this namespace"),
    409,
    "Project name has already been taken in this namespace",
  ],
  [
    "project path taken",
    () => conflict("Project path has already been taken in this namespace"),
    409,
    "Project path has already been taken in this namespace",
  ],
  [
    "project name or path taken",
    () => conflict("Project name or path has already been taken in this namespace"),
    409,
    "Project name or path has already been taken in this namespace",
  ],
  [
    "no personal projects",
    () =>
      forbidden("Personal project creation is not allowed. Please contact your administrator with questions"),
    403,
    "403 Forbidden: Personal project creation is not allowed. Please contact your administrator with questions",
  ],
  [
    "projects limit",
    () => forbidden("Your project limit is 3 projects! Please contact your administrator to increase it"),
    403,
    "403 Forbidden: Your project limit is 3 projects! Please contact your administrator to increase it",
  ],
  [
    "rename by non-owner",
    () => forbidden("Only the owner may rename a project"),
    403,
    "403 Forbidden: Only the owner may rename a project",
  ],
  [
    "visibility by non-owner",
    () => forbidden("Only the owner may change the visibility of a project"),
    403,
    "403 Forbidden: Only the owner may change the visibility of a project",
  ],
  [
    "fork of itself",
    () => badRequest("400 (Bad request) a project cannot be a fork of itself"),
    400,
    "400 (Bad request) a project cannot be a fork of itself",
  ],
  ["already forked", () => conflict("Project already forked"), 409, "Project already forked"],
  [
    "sharing locked",
    () => forbidden("The project sharing with group is disabled"),
    403,
    "403 Forbidden: The project sharing with group is disabled",
  ],
  [
    "shared with own group",
    () => badRequest("400 (Bad request) a project cannot be shared with its own group"),
    400,
    "400 (Bad request) a project cannot be shared with its own group",
  ],
  [
    "already shared",
    () => conflict("Project is already shared with this group"),
    409,
    "Project is already shared with this group",
  ],
  [
    "already in group",
    () => badRequest("400 (Bad request) Project is already in this group"),
    400,
    "400 (Bad request) Project is already in this group",
  ],
  ["member exists", () => conflict("Member already exists"), 409, "Member already exists"],
  [
    "last owner",
    () => forbidden("A group must keep at least one owner"),
    403,
    "403 Forbidden: A group must keep at least one owner",
  ],
  ["label exists", () => conflict("Label already exists"), 409, "Label already exists"],
  [
    "label to update missing",
    () => new DomainError("not_found", "404 Label not found Not Found"),
    404,
    "404 Label not found Not Found",
  ],
  ["milestone missing", () => new DomainError("not_found", "404 Not found"), 404, "404 Not found"],
  [
    "milestone create fails",
    () => badRequest('Failed to create milestone {:title=>["has already been taken"]}'),
    400,
    'Failed to create milestone {:title=>["has already been taken"]}',
  ],
  [
    "milestone update fails",
    () =>
      badRequest(
        'Failed to update milestone {:title=>["has already been taken", "is too long"], :state=>["is invalid"]}',
      ),
    400,
    'Failed to update milestone {:title=>["has already been taken", "is too long"], :state=>["is invalid"]}',
  ],
  [
    "move without rights",
    () => badRequest("Cannot move issue due to insufficient permissions!"),
    400,
    "Cannot move issue due to insufficient permissions!",
  ],
  [
    "move to same project",
    () => badRequest("Cannot move issue to project it originates from!"),
    400,
    "Cannot move issue to project it originates from!",
  ],
  [
    "mr not fork source",
    () =>
      badRequest(
        "(Bad Request) Specified target project that is not the source project, or the source fork of the project.",
      ),
    400,
    "(Bad Request) Specified target project that is not the source project, or the source fork of the project.",
  ],
  [
    "mr same branch",
    () => new DomainError("unprocessable", "You can not use same project/branch for source and target"),
    422,
    "You can not use same project/branch for source and target",
  ],
  [
    "mr source missing",
    () => badRequest('Source branch "feature" does not exist'),
    400,
    'Source branch "feature" does not exist',
  ],
  [
    "mr target missing",
    () => badRequest('Target branch "main" does not exist'),
    400,
    'Target branch "main" does not exist',
  ],
  [
    "mr exists",
    () => conflict('Cannot Create: This merge request already exists: ["Add \\"x\\""]'),
    409,
    'Cannot Create: This merge request already exists: ["Add \\"x\\""]',
  ],
  [
    "mr exists, title unknown",
    () => conflict("Cannot Create: This merge request already exists: []"),
    409,
    "Cannot Create: This merge request already exists: []",
  ],
  [
    "mr cannot merge",
    () => new DomainError("not_allowed", "Branch cannot be merged"),
    405,
    "Branch cannot be merged",
  ],
  [
    "mr not open (accept)",
    () => new DomainError("not_acceptable", "Method Not Allowed"),
    406,
    "Method Not Allowed",
  ],
  [
    "mr not open (cancel)",
    () => new DomainError("not_allowed", "Method Not Allowed"),
    405,
    "Method Not Allowed",
  ],
  [
    "mr sha mismatch",
    () => conflict("SHA does not match HEAD of source branch"),
    409,
    "SHA does not match HEAD of source branch",
  ],
  [
    "mr not set to merge",
    () => new DomainError("not_acceptable", "Merge request is not set to be merged when the build succeeds"),
    406,
    "Merge request is not set to be merged when the build succeeds",
  ],
  ["branch name invalid", () => badRequest(BranchMessage.INVALID_NAME), 400, "Branch name is invalid"],
  ["branch exists", () => badRequest(BranchMessage.EXISTS), 400, "Branch already exists"],
  ["branch ref invalid", () => badRequest(BranchMessage.INVALID_REF), 400, "Invalid reference name"],
  [
    "branch to delete missing",
    () => new DomainError("not_found", BranchMessage.NO_SUCH_BRANCH),
    404,
    "No such branch",
  ],
  ["default branch delete", () => badRequest(BranchMessage.HEAD), 400, "Cannot remove HEAD branch"],
  [
    "protected branch delete",
    () => badRequest(BranchMessage.PROTECTED),
    400,
    "Protected branch cant be removed",
  ],
  [
    "branch moved",
    () => badRequest(BranchMessage.MOVED),
    400,
    "Branch was changed while it was being removed",
  ],
  ["tag name invalid", () => badRequest(TagMessage.INVALID_NAME), 400, "Tag name invalid"],
  ["tag exists", () => badRequest(TagMessage.exists("v1.0")), 400, "Tag v1.0 already exists"],
  ["tag target invalid", () => badRequest(TagMessage.invalidTarget("nope")), 400, "Target nope is invalid"],
  ["tag to delete missing", () => new DomainError("not_found", TagMessage.NO_SUCH_TAG), 404, "No such tag"],
  ["tag moved", () => badRequest(TagMessage.MOVED), 400, "Tag was changed while it was being removed"],
  [
    "push: push code",
    () => badRequest(PushRefusal.PUSH_CODE),
    400,
    "You are not allowed to push code to this project.",
  ],
  [
    "push: protected",
    () => badRequest(PushRefusal.PROTECTED_BRANCH),
    400,
    "You are not allowed to push code to protected branches on this project.",
  ],
  [
    "push: force protected",
    () => badRequest(PushRefusal.FORCE_PUSH_PROTECTED),
    400,
    "You are not allowed to force push code to a protected branch on this project.",
  ],
  [
    "push: delete protected",
    () => badRequest(PushRefusal.DELETE_PROTECTED),
    400,
    "You are not allowed to delete protected branches from this project.",
  ],
  [
    "push: delete default",
    () => badRequest(PushRefusal.DELETE_DEFAULT),
    400,
    "The default branch of a project cannot be deleted.",
  ],
  [
    "push: change tags",
    () => badRequest(PushRefusal.CHANGE_TAGS),
    400,
    "You are not allowed to change existing tags on this project.",
  ],
  [
    "commit: push refused",
    () => badRequest("You are not allowed to push into this branch"),
    400,
    "You are not allowed to push into this branch",
  ],
  [
    "commit: not a branch",
    () => badRequest("You can only create or edit files when you are on a branch"),
    400,
    "You can only create or edit files when you are on a branch",
  ],
  [
    "commit: branch moved",
    () => conflict("Commit was rejected because branch received new push"),
    409,
    "Commit was rejected because branch received new push",
  ],
  [
    "file path traversal",
    () =>
      badRequest(
        "Your changes could not be committed, because the file name cannot include directory traversal.",
      ),
    400,
    "Your changes could not be committed, because the file name cannot include directory traversal.",
  ],
  [
    "file path characters",
    () =>
      badRequest(
        "Your changes could not be committed, because the file name can contain only letters, digits, '_', '-', '@' and '.'. Separate directories with a '/'.",
      ),
    400,
    "Your changes could not be committed, because the file name can contain only letters, digits, '_', '-', '@' and '.'. Separate directories with a '/'.",
  ],
  [
    "file path invalid",
    () => badRequest("Your changes could not be committed, because the file name is not a valid path."),
    400,
    "Your changes could not be committed, because the file name is not a valid path.",
  ],
  [
    "file exists",
    () => badRequest("Your changes could not be committed because a file with the same name already exists"),
    400,
    "Your changes could not be committed because a file with the same name already exists",
  ],
  [
    "file to update missing",
    () => badRequest("File to be updated `a/b.txt` does not exist."),
    400,
    "File to be updated `a/b.txt` does not exist.",
  ],
  [
    "file to delete missing",
    () => badRequest("File to be deleted `a/b.txt` does not exist."),
    400,
    "File to be deleted `a/b.txt` does not exist.",
  ],
  [
    "file parent is a file",
    () => badRequest("Your changes could not be committed because a parent directory of `a/b.txt` is a file"),
    400,
    "Your changes could not be committed because a parent directory of `a/b.txt` is a file",
  ],
];

describe("v3 error bodies", () => {
  it.each(cases)("%s", (_name, build, status, body) => {
    const reply = errorReply(build());
    expect(reply.status).toBe(status);
    expect(reply.body === undefined ? undefined : JSON.stringify(reply.body)).toBe(
      body === undefined ? undefined : JSON.stringify({ message: body }),
    );
  });
});
