import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { IssueJson, MergeRequestJson, ProjectJson } from "@kiln/schemas";
import { type ApiRequest, type ApiResponse, repositoryPath, seedRepository } from "@kiln/testkit";
import type { Served } from "../support.js";
import { Builder, type Cast, type Fresh, freshName, SOURCES, type Source } from "./cast.js";
import type { Cell } from "./cells.js";
import { ASSIGNEE } from "./collaboration-rules.js";
import { ROLES, type Role, VISIBILITIES, VISIBILITY_NAMES, type Visibility } from "./rules.js";

/**
 * What the collaboration rows act on in one fixture project, all made by root: an issue, a
 * confidential issue assigned to {@link ASSIGNEE}, a label and a milestone (both on both issues),
 * a note on the issue, and three merge requests from branches at `topic`: into the unprotected
 * `dev` (its description closes both issues), into the protected `master`, and into `dev`
 * assigned to {@link ASSIGNEE}, with a note on the first.
 */
export interface Site {
  project: ProjectJson;
  /** A project with the same memberships and visibility, where issues are moved to. */
  sibling: ProjectJson;
  repo: string;
  /** The head of `topic`, where fresh source branches point. */
  topic: string;
  issue: IssueJson;
  confidential: IssueJson;
  label: string;
  milestone: number;
  issueNote: number;
  mergeRequest: MergeRequestJson;
  protectedMergeRequest: MergeRequestJson;
  /** Into `dev`, assigned to {@link ASSIGNEE}. */
  assignedMergeRequest: MergeRequestJson;
  /**
   * Into `dev`, for the delete cells of those who may not delete (a fresh one each for those who
   * may): should one be let through, only that row's later cells see it gone.
   */
  decoyMergeRequest: MergeRequestJson;
  mergeRequestNote: number;
}

/** Every fixture project's site, by source and visibility. */
export type Sites<S = Site> = Record<Source, Record<Visibility, S>>;

/** What the archived rows act on: an archived project of root's issue and merge request into `dev`. */
export type ArchivedSite = Pick<Site, "project" | "repo" | "topic" | "issue" | "mergeRequest">;

type Request = Omit<ApiRequest, "token">;

/** Requests that make the records of the sites, and fresh records for the cells that use one up. */
export class Records {
  private readonly build: Builder;

  constructor(private readonly served: Served) {
    this.build = new Builder(served);
  }

  private async root<T>(status: number, request: Request): Promise<T> {
    return (await this.build.asRoot<T>([status], request)).body;
  }

  /** A fresh issue of root's, open and not confidential. */
  issue(project: ProjectJson, json: Record<string, unknown> = {}): Promise<IssueJson> {
    return this.root(200, {
      method: "POST",
      path: `/projects/${project.id}/issues`,
      json: { title: freshName("issue"), ...json },
    });
  }

  /**
   * A new branch of the site's repository at `topic`, written as a loose ref straight into the bare
   * repository (no git process: cells make many).
   */
  branch(site: Pick<Site, "repo" | "topic">): string {
    const name = freshName("branch");
    writeFileSync(join(site.repo, "refs", "heads", name), `${site.topic}\n`);
    return name;
  }

  /** A fresh merge request of root's from a new branch at `topic` into `dev`, unless `json` says otherwise. */
  mergeRequest(site: Pick<Site, "project" | "repo" | "topic">, json: Record<string, unknown> = {}) {
    const branch = this.branch(site);
    return this.root<MergeRequestJson>(200, {
      method: "POST",
      path: `/projects/${site.project.id}/merge_requests`,
      json: { source_branch: branch, target_branch: "dev", title: `Topic ${branch}`, ...json },
    });
  }

  /** A fresh note of root's on an issue (`issues`) or a merge request (`merge_requests`). */
  async note(project: ProjectJson, noteable: "issues" | "merge_requests", id: number): Promise<number> {
    const path = `/projects/${project.id}/${noteable}/${id}/notes`;
    return (await this.root<{ id: number }>(201, { method: "POST", path, json: { body: "A note" } })).id;
  }

  /** A fresh label of the project's; answers its name. */
  async label(project: ProjectJson): Promise<string> {
    const name = freshName("label");
    await this.root(201, {
      method: "POST",
      path: `/projects/${project.id}/labels`,
      json: { name, color: "#428bca" },
    });
    return name;
  }

  /** Seeds the project's repository (master, dev off master, topic off dev) and protects master. */
  private seed(project: ProjectJson) {
    const [, , topic] = seedRepository(this.served.server, project.id, [
      { message: "Initial\n", files: { "README.md": "# Matrix\n" } },
      { branch: "dev", message: "Dev\n", files: { "dev.txt": "dev\n" } },
      { branch: "topic", message: "Topic\n", files: { "topic.txt": "topic\n" } },
    ]);
    return { repo: repositoryPath(this.served.server, project.id), topic: topic as string };
  }

  /** The few records of an archived project, made before it is archived. */
  async archivedSite(project: ProjectJson): Promise<ArchivedSite> {
    const { repo, topic } = this.seed(project);
    const issue = await this.issue(project);
    const mergeRequest = await this.mergeRequest({ project, repo, topic });
    await this.root(201, { method: "POST", path: `/projects/${project.id}/archive` });
    return { project, repo, topic, issue, mergeRequest };
  }

  /** The records of one fixture project. */
  async site(project: ProjectJson, sibling: ProjectJson, assignee: number): Promise<Site> {
    const { repo, topic } = this.seed(project);
    await this.root(200, {
      method: "PUT",
      path: `/projects/${project.id}/repository/branches/master/protect`,
    });
    const label = await this.label(project);
    const milestone = await this.root<{ id: number }>(201, {
      method: "POST",
      path: `/projects/${project.id}/milestones`,
      json: { title: freshName("milestone") },
    });
    const issue = await this.issue(project, { labels: label, milestone_id: milestone.id });
    const confidential = await this.issue(project, {
      confidential: true,
      assignee_id: assignee,
      labels: label,
      milestone_id: milestone.id,
    });
    const at = { project, repo, topic };
    const closes = `Closes #${issue.iid}, closes #${confidential.iid}`;
    const [mergeRequest, protectedMergeRequest, assignedMergeRequest, decoyMergeRequest, issueNote] =
      await Promise.all([
        this.mergeRequest(at, { description: closes }),
        this.mergeRequest(at, { target_branch: "master" }),
        this.mergeRequest(at, { assignee_id: assignee }),
        this.mergeRequest(at),
        this.note(project, "issues", issue.id),
      ]);
    return {
      project,
      sibling,
      repo,
      topic,
      issue,
      confidential,
      label,
      milestone: milestone.id,
      issueNote,
      mergeRequest,
      protectedMergeRequest,
      assignedMergeRequest,
      decoyMergeRequest,
      mergeRequestNote: await this.note(project, "merge_requests", mergeRequest.id),
    };
  }
}

/** The sites of every fixture project of the cast, each with a fresh sibling to move issues to. */
export async function createSites(served: Served, cast: Cast, fresh: Fresh): Promise<Sites> {
  const records = new Records(served);
  return eachSite(async (source, visibility) => {
    const sibling = await fresh.project(source, visibility);
    return records.site(cast.projects[source][visibility], sibling, cast.users[ASSIGNEE].id);
  });
}

/** Sites on fresh projects with the fixtures' memberships (see {@link Fresh.project}), archived. */
export async function createArchivedSites(served: Served, fresh: Fresh): Promise<Sites<ArchivedSite>> {
  const records = new Records(served);
  return eachSite((source, visibility) =>
    fresh.project(source, visibility).then((project) => records.archivedSite(project)),
  );
}

/** Makes a site for every source and visibility, concurrently. */
async function eachSite<S>(make: (source: Source, visibility: Visibility) => Promise<S>): Promise<Sites<S>> {
  const sites = { personal: {}, group: {}, shared: {} } as Sites<S>;
  await Promise.all(
    SOURCES.flatMap((source) =>
      VISIBILITIES.map(async (visibility) => {
        sites[source][visibility] = await make(source, visibility);
      }),
    ),
  );
  return sites;
}

/** A collaboration route: what each role should get at each visibility, and how a cell asks. */
export interface CollaborationRoute<S = Site> {
  route: string;
  /** The expected outcome (a status, or a status with what a list held). */
  expect: (role: Role, visibility: Visibility) => number | string;
  /** Run the cells of one site one after another (they share state the cells set up). */
  serial?: boolean;
  /** Sends the request as `role` (after any setup of its own) and answers the outcome. */
  run: (site: S, role: Role) => Promise<number | string>;
}

/** What the route modules build their rows with. */
export interface Kit {
  /** A request as the role (no token for `anonymous`). */
  as<T = unknown>(role: Role, request: Request): Promise<ApiResponse<T>>;
  records: Records;
}

/** The cells of a route: every source, visibility and role. */
export function collaborationCells<S>(spec: CollaborationRoute<S>, sites: Sites<S>): Cell[] {
  const cells: Cell[] = [];
  for (const source of SOURCES) {
    for (const visibility of VISIBILITIES) {
      for (const role of ROLES) {
        cells.push({
          route: spec.route,
          at: `${source} ${VISIBILITY_NAMES[visibility]}`,
          who: role,
          expected: String(spec.expect(role, visibility)),
          ...(spec.serial ? { serial: `${source} ${visibility}` } : {}),
          run: async () => String(await spec.run(sites[source][visibility], role)),
        });
      }
    }
  }
  return cells;
}
