import { describe, expect, it } from "vitest";
import { type BuildForVariables, predefinedVariables, refSlug } from "./variables.js";

const build: BuildForVariables = {
  id: 12,
  token: "build-token",
  ref: "Feature/Login_Page",
  tag: false,
  sha: "a".repeat(40),
  beforeSha: "0".repeat(40),
  stage: "test",
  name: "rspec",
  projectId: 3,
  projectPath: "group/app",
  projectUrl: "http://kiln.example/group/app",
  serverName: "GitLab",
  serverVersion: "8.15.1",
  serverUrl: "http://kiln.example",
  triggered: false,
};

const pairs = (input: BuildForVariables) =>
  predefinedVariables(input).map(
    ({ key, value, public: isPublic }) => `${key}=${value}${isPublic ? "" : " (secret)"}`,
  );

describe("predefinedVariables (gitlab-8x.md §3.18, §7.3)", () => {
  it("gives the build's, then the project's variables, in 8.x's order", () => {
    expect(pairs(build)).toEqual([
      "CI=true",
      "GITLAB_CI=true",
      "CI_BUILD_ID=12",
      "CI_BUILD_TOKEN=build-token (secret)",
      `CI_BUILD_REF=${"a".repeat(40)}`,
      `CI_BUILD_BEFORE_SHA=${"0".repeat(40)}`,
      "CI_BUILD_REF_NAME=Feature/Login_Page",
      "CI_BUILD_REF_SLUG=feature-login-page",
      "CI_BUILD_NAME=rspec",
      "CI_BUILD_STAGE=test",
      "CI_SERVER_NAME=GitLab",
      "CI_SERVER_VERSION=8.15.1",
      "CI_SERVER_REVISION=",
      "CI_PROJECT_ID=3",
      "CI_PROJECT_NAME=app",
      "CI_PROJECT_PATH=group/app",
      "CI_PROJECT_NAMESPACE=group",
      "CI_PROJECT_URL=http://kiln.example/group/app",
    ]);
  });

  it("adds the tag, trigger and manual flags after the server's, as 8.x does", () => {
    const keys = predefinedVariables({ ...build, ref: "v1.0", tag: true, triggered: true, manual: true }).map(
      (variable) => variable.key,
    );
    expect(keys.slice(keys.indexOf("CI_SERVER_REVISION") + 1, keys.indexOf("CI_PROJECT_ID"))).toEqual([
      "CI_BUILD_TAG",
      "CI_BUILD_TRIGGERED",
      "CI_BUILD_MANUAL",
    ]);
    expect(
      predefinedVariables({ ...build, ref: "v1.0", tag: true }).find((v) => v.key === "CI_BUILD_TAG")?.value,
    ).toBe("v1.0");
  });

  it("puts the pipeline's, the runner's, the file's and the user's variables where 8.x puts them", () => {
    const all = pairs({
      ...build,
      projectDir: "/builds/group/app",
      pipelineId: 7,
      runner: { id: 2, description: "shell on box", tags: ["ruby", "linux"] },
      yamlVariables: [{ key: "RAILS_ENV", value: "test", public: true }],
      userId: 5,
      userEmail: "dev@example.com",
    });
    expect(all.slice(all.indexOf("CI_PROJECT_URL=http://kiln.example/group/app") + 1)).toEqual([
      "CI_PROJECT_DIR=/builds/group/app",
      "CI_PIPELINE_ID=7",
      "CI_RUNNER_ID=2",
      "CI_RUNNER_DESCRIPTION=shell on box",
      "CI_RUNNER_TAGS=ruby, linux",
      "RAILS_ENV=test",
      "GITLAB_USER_ID=5",
      "GITLAB_USER_EMAIL=dev@example.com",
    ]);
  });

  it("leaves out the token when it is not given", () => {
    const { token: _token, ...withoutToken } = build;
    expect(predefinedVariables(withoutToken).some((variable) => variable.key === "CI_BUILD_TOKEN")).toBe(
      false,
    );
  });
});

describe("refSlug (CI_BUILD_REF_SLUG)", () => {
  it("lower-cases, dashes every other character and keeps 63", () => {
    expect(refSlug("Release/1.2_RC")).toBe("release-1-2-rc");
    expect(refSlug("x".repeat(80))).toBe("x".repeat(63));
    expect(refSlug("émoji-😀")).toBe("-moji--");
  });
});
