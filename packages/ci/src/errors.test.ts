import { describe, expect, it } from "vitest";
import { planPipeline } from "./plan.js";

const push = { ref: "master", tag: false, source: "push" } as const;

function errorOf(yaml: string): string | undefined {
  const result = planPipeline(yaml, push);
  return result.ok ? undefined : result.error;
}

/**
 * Each message as GitLab 8.15's `Ci::GitlabCiYamlProcessor` gives it (its spec,
 * `spec/lib/ci/gitlab_ci_yaml_processor_spec.rb`, "Error handling" and the only/except, cache,
 * environment and dependency examples), for the same file.
 */
const CASES: [title: string, yaml: string, error: string][] = [
  ["a file that is a string", "invalid_yaml", "Invalid configuration format"],
  ["a file that is a list", "- rspec\n- script", "Invalid configuration format"],
  ["an empty file", "", "Invalid configuration format"],
  ["a file of comments", "# nothing yet\n", "Invalid configuration format"],
  [
    "tags not a list",
    "rspec:\n  script: test\n  tags: mysql",
    "jobs:rspec tags should be an array of strings",
  ],
  [
    "global before_script a string",
    "before_script: bundle update\nrspec:\n  script: test",
    "before_script config should be an array of strings",
  ],
  [
    "job before_script with a number",
    "rspec:\n  script: test\n  before_script: [10, test]",
    "jobs:rspec:before_script config should be an array of strings",
  ],
  [
    "global after_script a string",
    "after_script: bundle update\nrspec:\n  script: test",
    "after_script config should be an array of strings",
  ],
  [
    "job after_script with a number",
    "rspec:\n  script: test\n  after_script: [10, test]",
    "jobs:rspec:after_script config should be an array of strings",
  ],
  ["global image a list", "image: [test]\nrspec:\n  script: test", "image config should be a string"],
  ["a job with an empty name", "'':\n  script: test", "jobs:job name can't be blank"],
  ["a job named by a number", "10:\n  script: test", "jobs:10 name should be a symbol"],
  [
    "job image a list",
    "rspec:\n  script: test\n  image: [test]",
    "jobs:rspec:image config should be a string",
  ],
  [
    "global services a string",
    "services: test\nrspec:\n  script: test",
    "services config should be an array of strings",
  ],
  [
    "global services with a number",
    "services: [10, test]\nrspec:\n  script: test",
    "services config should be an array of strings",
  ],
  [
    "job services a string",
    "rspec:\n  script: test\n  services: test",
    "jobs:rspec:services config should be an array of strings",
  ],
  ["a job that is a string", "extra: bundle update", "jobs:extra config should be a hash"],
  ["no jobs", "before_script: [bundle update]", "jobs config should contain at least one visible job"],
  [
    "only hidden jobs",
    "before_script: [bundle update]\n.hidden:\n  script: ls",
    "jobs config should contain at least one visible job",
  ],
  [
    "allow_failure not a boolean",
    "rspec:\n  script: test\n  allow_failure: string",
    "jobs:rspec allow failure should be a boolean value",
  ],
  ["type not a string", "rspec:\n  script: test\n  type: 1", "jobs:rspec:type config should be a string"],
  [
    "a stage of no stage",
    "rspec:\n  script: test\n  type: acceptance",
    "rspec job: stage parameter should be build, test, deploy",
  ],
  [
    "a stage not among the types",
    "types: [build, test]\nrspec:\n  script: test\n  type: acceptance",
    "rspec job: stage parameter should be build, test",
  ],
  ["stages a string", "stages: test\nrspec:\n  script: test", "stages config should be an array of strings"],
  [
    "stages with a boolean",
    "stages: [true, test]\nrspec:\n  script: test",
    "stages config should be an array of strings",
  ],
  [
    "variables a string",
    "variables: test\nrspec:\n  script: test",
    "variables config should be a hash of key value pairs",
  ],
  [
    "a variable that is a boolean",
    "variables:\n  test: false\nrspec:\n  script: test",
    "variables config should be a hash of key value pairs",
  ],
  [
    "job variables a list",
    "rspec:\n  script: test\n  variables: [VAR1, value1]",
    "jobs:rspec:variables config should be a hash of key value pairs",
  ],
  [
    "when not one of the four",
    "rspec:\n  script: test\n  when: 1",
    "jobs:rspec when should be on_success, on_failure, always or manual",
  ],
  [
    "artifacts name a number",
    "rspec:\n  script: test\n  artifacts:\n    name: 1",
    "jobs:rspec:artifacts name should be a string",
  ],
  [
    "artifacts when unknown",
    "rspec:\n  script: test\n  artifacts:\n    when: 1",
    "jobs:rspec:artifacts when should be on_success, on_failure or always",
  ],
  [
    "artifacts expire_in a number",
    "rspec:\n  script: test\n  artifacts:\n    expire_in: 1",
    "jobs:rspec:artifacts expire in should be a duration",
  ],
  [
    "artifacts expire_in not a duration",
    "rspec:\n  script: test\n  artifacts:\n    expire_in: 7 elephants",
    "jobs:rspec:artifacts expire in should be a duration",
  ],
  [
    "artifacts untracked a string",
    "rspec:\n  script: test\n  artifacts:\n    untracked: string",
    "jobs:rspec:artifacts untracked should be a boolean value",
  ],
  [
    "artifacts paths a string",
    "rspec:\n  script: test\n  artifacts:\n    paths: string",
    "jobs:rspec:artifacts paths should be an array of strings",
  ],
  [
    "cache untracked a string",
    "cache:\n  untracked: string\nrspec:\n  script: test",
    "cache:untracked config should be a boolean value",
  ],
  [
    "cache paths a string",
    "cache:\n  paths: string\nrspec:\n  script: test",
    "cache:paths config should be an array of strings",
  ],
  [
    "cache key a number",
    "cache:\n  key: 1\nrspec:\n  script: test",
    "cache:key config should be a string or symbol",
  ],
  [
    "job cache key a number",
    "rspec:\n  script: test\n  cache:\n    key: 1",
    "jobs:rspec:cache:key config should be a string or symbol",
  ],
  [
    "job cache untracked a string",
    "rspec:\n  script: test\n  cache:\n    untracked: string",
    "jobs:rspec:cache:untracked config should be a boolean value",
  ],
  [
    "job cache paths a string",
    "rspec:\n  script: test\n  cache:\n    paths: string",
    "jobs:rspec:cache:paths config should be an array of strings",
  ],
  [
    "cache with an unknown key",
    "cache:\n  untracked: true\n  invalid: key\nrspec:\n  script: rspec",
    "cache config contains unknown keys: invalid",
  ],
  [
    "dependencies a string",
    "rspec:\n  script: test\n  dependencies: string",
    "jobs:rspec dependencies should be an array of strings",
  ],
  [
    "a dependency on no job",
    "build1:\n  stage: build\n  script: test\ntest1:\n  stage: test\n  script: test\n  dependencies: [undefined]",
    "test1 job: undefined dependency: undefined",
  ],
  [
    "a dependency on a later stage",
    "test1:\n  stage: test\n  script: test\n  dependencies: [deploy]\ndeploy:\n  stage: deploy\n  script: test",
    "test1 job: dependency deploy is not defined in prior stages",
  ],
  [
    "only a number",
    "rspec:\n  script: rspec\n  only: 1",
    "jobs:rspec:only config should be an array of strings or regexps",
  ],
  [
    "only numbers",
    "rspec:\n  script: rspec\n  only: [1, 1]",
    "jobs:rspec:only config should be an array of strings or regexps",
  ],
  [
    "only an invalid regexp",
    "rspec:\n  script: rspec\n  only: ['/*invalid/']",
    "jobs:rspec:only config should be an array of strings or regexps",
  ],
  [
    "except an invalid regexp",
    "rspec:\n  script: rspec\n  except: ['/*invalid/']",
    "jobs:rspec:except config should be an array of strings or regexps",
  ],
  [
    "environment a number",
    "deploy_to_production:\n  stage: deploy\n  script: git push production HEAD:master\n  environment: 1",
    "jobs:deploy_to_production:environment config should be a hash or a string",
  ],
  [
    "environment with a colon",
    "deploy_to_production:\n  stage: deploy\n  script: deploy\n  environment: 'production:staging'",
    "jobs:deploy_to_production:environment name can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.' and spaces",
  ],
  [
    "on_stop naming no job",
    "review:\n  stage: deploy\n  script: deploy\n  environment:\n    name: review\n    on_stop: close_review",
    "review job: on_stop job close_review is not defined",
  ],
  [
    "on_stop job without environment",
    "review:\n  script: deploy\n  environment:\n    name: review\n    on_stop: close_review\nclose_review:\n  script: stop",
    "review job: on_stop job close_review does not have environment defined",
  ],
  [
    "on_stop job of another environment",
    "review:\n  script: deploy\n  environment:\n    name: review\n    on_stop: close_review\nclose_review:\n  script: stop\n  environment:\n    name: production\n    action: stop",
    "review job: on_stop job close_review have different environment name",
  ],
  [
    "on_stop job that does not stop",
    "review:\n  script: deploy\n  environment:\n    name: review\n    on_stop: close_review\nclose_review:\n  script: stop\n  environment:\n    name: review",
    "review job: on_stop job close_review needs to have action stop defined",
  ],
];

describe("the messages of an invalid file, as 8.x words them", () => {
  it.each(CASES)("%s", (_title, yaml, error) => {
    expect(errorOf(yaml)).toBe(error);
  });
});

describe("the messages the 8.x entries give beyond its spec's examples", () => {
  it("names a job's script that is neither a string nor strings", () => {
    expect(errorOf("test:\n  script: 1")).toBe(
      "jobs:test:script config should be a string or an array of strings",
    );
    expect(errorOf("test:\n  script: [echo, [nested]]")).toBe(
      "jobs:test:script config should be a string or an array of strings",
    );
  });

  it("requires a script", () => {
    expect(errorOf("test:\n  stage: test")).toBe("jobs:test script can't be blank");
    expect(errorOf("test:\n  script: []")).toBe("jobs:test script can't be blank");
    expect(errorOf("test:\n  script: '  '")).toBe("jobs:test script can't be blank");
  });

  it("finds a job without a value blank", () => {
    expect(errorOf("test:")).toBe("jobs:test config can't be blank");
    expect(errorOf("test: {}\n")).toBe("jobs:test config can't be blank");
    expect(errorOf(".hidden:\ntest:\n  script: x")).toBe("jobs:.hidden config can't be blank");
  });

  it("lists the unknown keys of a job, downcased like every entry message", () => {
    expect(errorOf("Test:\n  script: x\n  foo: 1\n  Bar: 2")).toBe(
      "jobs:test config contains unknown keys: foo, bar",
    );
    expect(errorOf("test:\n  script: x\n  1: one")).toBe("jobs:test config contains unknown keys: 1");
  });

  it("lists the unknown keys of artifacts and environment", () => {
    expect(errorOf("test:\n  script: x\n  artifacts:\n    path: [a]")).toBe(
      "jobs:test:artifacts config contains unknown keys: path",
    );
    expect(errorOf("test:\n  script: x\n  environment:\n    name: a\n    kind: b")).toBe(
      "jobs:test:environment config contains unknown keys: kind",
    );
  });

  it("checks an environment's url and action", () => {
    expect(errorOf("test:\n  script: x\n  environment:\n    name: a\n    url: not a url")).toBe(
      "jobs:test:environment url must be a valid url",
    );
    expect(errorOf("test:\n  script: x\n  environment:\n    name: a\n    action: restart")).toBe(
      "jobs:test:environment action should be start or stop",
    );
    expect(errorOf("test:\n  script: x\n  environment:\n    url: https://example.com")).toBe(
      "jobs:test:environment name can't be blank",
    );
  });

  it("reports the file's entries before its jobs, and a job's own keys before its entries", () => {
    expect(errorOf("rspec:\n  script: 1\nimage: [a]")).toBe("image config should be a string");
    expect(errorOf("rspec:\n  script: 1\n  when: never")).toBe(
      "jobs:rspec when should be on_success, on_failure, always or manual",
    );
  });

  it("checks the old types only when there are no stages", () => {
    expect(errorOf("types: build\nrspec:\n  script: x")).toBe("types config should be an array of strings");
    expect(errorOf("stages: [test]\ntypes: build\nrspec:\n  script: x")).toBeUndefined();
  });

  it("checks stage before type, and type only without stage", () => {
    expect(errorOf("rspec:\n  script: x\n  stage: 1")).toBe("jobs:rspec:stage config should be a string");
    expect(errorOf("rspec:\n  script: x\n  stage: test\n  type: 1")).toBeUndefined();
  });

  it("words a YAML syntax error with its position, as Psych does", () => {
    expect(errorOf("invalid: yaml: test")).toMatch(/^\(<unknown>\): .* at line 1 column \d+$/);
    expect(errorOf("test:\n  script: [a, b\n")).toMatch(/^\(<unknown>\): .* at line \d+ column \d+$/);
  });
});
