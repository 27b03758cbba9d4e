import type { Route } from "../route.js";
import { applicationRoutes } from "./applications.js";
import { branchRoutes } from "./branches.js";
import { buildRoutes } from "./builds.js";
import { commitStatusRoutes } from "./commit-statuses.js";
import { commitRoutes } from "./commits.js";
import { fileRoutes } from "./files.js";
import { groupRoutes, namespaceRoutes } from "./groups.js";
import { hookRoutes, systemHookRoutes } from "./hooks.js";
import { issueRoutes } from "./issues.js";
import { labelRoutes } from "./labels.js";
import { mergeRequestRoutes } from "./merge-requests.js";
import { milestoneRoutes } from "./milestones.js";
import { noteRoutes } from "./notes.js";
import { pipelineRoutes } from "./pipelines.js";
import { projectRoutes } from "./projects.js";
import { repositoryRoutes } from "./repository.js";
import { runnerRoutes } from "./runners.js";
import { sessionRoutes } from "./session.js";
import { settingsRoutes } from "./settings.js";
import { tagRoutes } from "./tags.js";
import { todoRoutes } from "./todos.js";
import { triggerRoutes } from "./triggers.js";
import { uploadRoutes } from "./uploads.js";
import { userRoutes } from "./users.js";
import { variableRoutes } from "./variables.js";

/** The whole `/api/v3` route table. */
export const v3Routes: readonly Route[] = [
  ...sessionRoutes,
  ...userRoutes,
  ...projectRoutes,
  ...hookRoutes,
  ...systemHookRoutes,
  ...mergeRequestRoutes,
  ...issueRoutes,
  ...noteRoutes,
  ...labelRoutes,
  ...milestoneRoutes,
  ...commitRoutes,
  ...repositoryRoutes,
  ...branchRoutes,
  ...tagRoutes,
  ...fileRoutes,
  ...uploadRoutes,
  ...settingsRoutes,
  ...groupRoutes,
  ...namespaceRoutes,
  ...todoRoutes,
  ...buildRoutes,
  ...pipelineRoutes,
  ...commitStatusRoutes,
  ...variableRoutes,
  ...runnerRoutes,
  ...triggerRoutes,
  ...applicationRoutes,
];
