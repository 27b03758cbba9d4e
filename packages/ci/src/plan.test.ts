import { describe, expect, it } from "vitest";
import { planPipeline } from "./plan.js";
import type { JobPlan, PipelineContext, PipelinePlan } from "./types.js";

const push = (ref: string, extra: Partial<PipelineContext> = {}): PipelineContext => ({
  ref,
  tag: false,
  source: "push",
  ...extra,
});
const tag = (ref: string): PipelineContext => ({ ref, tag: true, source: "push" });

function plan(yaml: string, context: PipelineContext = push("master")): PipelinePlan {
  const result = planPipeline(yaml, context);
  if (!result.ok) throw new Error(`expected a plan, got: ${result.error}`);
  return result.plan;
}

const names = (yaml: string, context: PipelineContext) => plan(yaml, context).jobs.map((job) => job.name);
const job = (yaml: string, name: string, context?: PipelineContext): JobPlan | undefined =>
  plan(yaml, context).jobs.find((candidate) => candidate.name === name);

/** A Rails project's file of the 8.x era: a template shared through an anchor and merge keys. */
const RAILS = `
image: ruby:2.3
services:
  - postgres:9.5
  - redis:latest
variables:
  RAILS_ENV: test
  DATABASE_URL: postgres://postgres@postgres/test
cache:
  key: bundle
  paths: [vendor/bundle]
before_script:
  - bundle install --path vendor/bundle
stages: [build, test, deploy]

.test_template: &test_definition
  stage: test
  tags: [docker, postgres]
  except: [tags]

assets:
  stage: build
  script: bundle exec rake assets:precompile
  artifacts:
    name: "assets-$CI_BUILD_REF_NAME"
    paths: [public/assets]
    expire_in: 1 week

rspec:
  <<: *test_definition
  script:
    - bundle exec rake db:schema:load
    - bundle exec rspec
  dependencies: [assets]

rubocop:
  <<: *test_definition
  script: bundle exec rubocop
  allow_failure: true
  variables:
    RAILS_ENV: lint

production:
  stage: deploy
  image: alpine:3.4
  before_script: []
  script: ./deploy.sh
  after_script: [./notify.sh]
  cache: {}
  environment: production
  when: manual
  only: [master]
`;

describe("planPipeline on a Rails project's file", () => {
  it("plans every job of master in stage order, with what the runner needs", () => {
    expect(plan(RAILS)).toEqual({
      stages: ["build", "test", "deploy"],
      jobs: [
        {
          name: "assets",
          stage: "build",
          stageIndex: 0,
          commands: "bundle install --path vendor/bundle\nbundle exec rake assets:precompile",
          when: "on_success",
          allowFailure: false,
          tags: [],
          variables: [
            { key: "RAILS_ENV", value: "test", public: true },
            { key: "DATABASE_URL", value: "postgres://postgres@postgres/test", public: true },
          ],
          options: {
            image: "ruby:2.3",
            services: ["postgres:9.5", "redis:latest"],
            artifacts: { name: "assets-$CI_BUILD_REF_NAME", paths: ["public/assets"], expire_in: "1 week" },
            cache: { key: "bundle", paths: ["vendor/bundle"] },
          },
        },
        {
          name: "rspec",
          stage: "test",
          stageIndex: 1,
          commands: "bundle install --path vendor/bundle\nbundle exec rake db:schema:load\nbundle exec rspec",
          when: "on_success",
          allowFailure: false,
          tags: ["docker", "postgres"],
          variables: [
            { key: "RAILS_ENV", value: "test", public: true },
            { key: "DATABASE_URL", value: "postgres://postgres@postgres/test", public: true },
          ],
          options: {
            image: "ruby:2.3",
            services: ["postgres:9.5", "redis:latest"],
            cache: { key: "bundle", paths: ["vendor/bundle"] },
            dependencies: ["assets"],
          },
        },
        {
          name: "rubocop",
          stage: "test",
          stageIndex: 1,
          commands: "bundle install --path vendor/bundle\nbundle exec rubocop",
          when: "on_success",
          allowFailure: true,
          tags: ["docker", "postgres"],
          variables: [
            { key: "RAILS_ENV", value: "lint", public: true },
            { key: "DATABASE_URL", value: "postgres://postgres@postgres/test", public: true },
          ],
          options: {
            image: "ruby:2.3",
            services: ["postgres:9.5", "redis:latest"],
            cache: { key: "bundle", paths: ["vendor/bundle"] },
          },
        },
        {
          name: "production",
          stage: "deploy",
          stageIndex: 2,
          commands: "./deploy.sh",
          when: "manual",
          allowFailure: false,
          tags: [],
          variables: [
            { key: "RAILS_ENV", value: "test", public: true },
            { key: "DATABASE_URL", value: "postgres://postgres@postgres/test", public: true },
          ],
          options: {
            image: "alpine:3.4",
            services: ["postgres:9.5", "redis:latest"],
            cache: {},
            after_script: ["./notify.sh"],
            environment: "production",
          },
          environment: "production",
        },
      ],
    });
  });

  it("leaves out the template, the tests on a tag and the deploy off master", () => {
    expect(names(RAILS, push("feature"))).toEqual(["assets", "rspec", "rubocop"]);
    expect(names(RAILS, tag("v1.0"))).toEqual(["assets"]);
  });
});

describe("only and except", () => {
  const file = (only: string, except = "[]") =>
    `job:\n  script: make\n  only: ${only}\n  except: ${except}\n`;

  it("match ref names exactly", () => {
    expect(names(file("[master]"), push("master"))).toEqual(["job"]);
    expect(names(file("[master]"), push("master2"))).toEqual([]);
    expect(names(file("[master, develop]"), push("develop"))).toEqual(["job"]);
  });

  it("match /regex/ unanchored, as Ruby's =~", () => {
    expect(names(file("['/^release-.*$/']"), push("release-1.2"))).toEqual(["job"]);
    expect(names(file("['/^release-.*$/']"), push("pre-release-1.2"))).toEqual([]);
    expect(names(file("['/release/']"), push("pre-release-1.2"))).toEqual(["job"]);
    expect(names(file("['/\\Afeature\\z/']"), push("feature"))).toEqual(["job"]);
    expect(names(file("['/\\Afeature\\z/']"), push("my-feature"))).toEqual([]);
    expect(names(file("['/\\Afeature\\z/']"), push("Afeature"))).toEqual([]);
    expect(names(file("['/^v\\h+$/']"), push("v1f"))).toEqual(["job"]);
    expect(names(file("['/(?i)^MASTER$/']"), push("master"))).toEqual(["job"]);
  });

  it("know branches, tags and triggers", () => {
    expect(names(file("[branches]"), push("any"))).toEqual(["job"]);
    expect(names(file("[branches]"), tag("v1"))).toEqual([]);
    expect(names(file("[tags]"), tag("v1"))).toEqual(["job"]);
    expect(names(file("[tags]"), push("master"))).toEqual([]);
    expect(names(file("[triggers]"), push("master", { source: "trigger" }))).toEqual(["job"]);
    expect(names(file("[triggers]"), push("master"))).toEqual([]);
    expect(names(file("[triggers]"), push("master", { source: "api" }))).toEqual([]);
  });

  it("leave out what except matches, even when only matches", () => {
    expect(names(file("[branches]", "[master]"), push("master"))).toEqual([]);
    expect(names(file("[branches]", "[master]"), push("develop"))).toEqual(["job"]);
    expect(names(file("[]", "['/^wip-/']"), push("wip-x"))).toEqual([]);
    expect(names(file("[master, tags]", "[triggers]"), push("master", { source: "trigger" }))).toEqual([]);
    expect(names(file("[master, tags]", "[triggers]"), tag("v2"))).toEqual(["job"]);
  });

  it("hold a pattern with @namespace/project only in that project", () => {
    const inProject = push("master", { projectPath: "group/app" });
    expect(names(file("[master@group/app]"), inProject)).toEqual(["job"]);
    expect(names(file("[master@fork/app]"), inProject)).toEqual([]);
    expect(names(file("[master@group/app]"), push("master"))).toEqual([]);
    expect(
      names(file("[branches]", "[branches@group/app]"), push("master", { projectPath: "fork/app" })),
    ).toEqual(["job"]);
  });

  it("restrict nothing when empty", () => {
    expect(names(file("[]"), push("anything"))).toEqual(["job"]);
  });

  it("may leave no job at all: the plan is empty, not an error", () => {
    expect(plan(file("[master]"), push("develop"))).toEqual({
      stages: ["build", "test", "deploy"],
      jobs: [],
    });
  });
});

describe("templates", () => {
  it("take a job as template through an alias", () => {
    const yaml = "job1: &JOBTMPL\n  stage: build\n  script: execute-script-for-job\n\njob2: *JOBTMPL\n";
    expect(plan(yaml).jobs.map(({ name, stage, commands }) => ({ name, stage, commands }))).toEqual([
      { name: "job1", stage: "build", commands: "execute-script-for-job" },
      { name: "job2", stage: "build", commands: "execute-script-for-job" },
    ]);
  });

  it("take a hidden job as template and never plan it", () => {
    const yaml = ".template: &JOBTMPL\n  stage: build\n  script: run\n\njob1: *JOBTMPL\njob2: *JOBTMPL\n";
    expect(names(yaml, push("master"))).toEqual(["job1", "job2"]);
  });

  it("let a job add to and override a template's keys", () => {
    const yaml = `
.base: &base
  stage: build
  tags: [linux]
  variables: {A: "1"}
.docker: &docker
  <<: *base
  tags: [docker]
job:
  <<: *docker
  script: make
  variables: {A: "2"}
`;
    expect(job(yaml, "job")).toMatchObject({
      stage: "build",
      tags: ["docker"],
      variables: [{ key: "A", value: "2", public: true }],
    });
  });

  it("merge several templates, the first winning", () => {
    const yaml =
      ".a: &a\n  stage: build\n.b: &b\n  stage: deploy\n  when: manual\njob:\n  <<: [*a, *b]\n  script: x\n";
    expect(job(yaml, "job")).toMatchObject({ stage: "build", when: "manual" });
  });

  it("merge as Psych does: over the keys written above `<<`, under the ones written below", () => {
    const yaml =
      ".t: &t\n  stage: build\n  when: manual\njob:\n  stage: deploy\n  <<: *t\n  when: always\n  script: x\n";
    expect(job(yaml, "job")).toMatchObject({ stage: "build", when: "always" });
  });

  it("keep a `<<` that merges no mapping as a key of its own", () => {
    expect(planPipeline("job:\n  <<: text\n  script: x\n", push("master"))).toEqual({
      ok: false,
      error: "jobs:job config contains unknown keys: <<",
    });
  });

  it("let a thousand jobs share one template", () => {
    const jobs = Array.from({ length: 1000 }, (_, i) => `job${i}:\n  <<: *t\n  script: echo ${i}\n`).join("");
    expect(plan(`.t: &t\n  stage: test\n  tags: [a]\n${jobs}`).jobs).toHaveLength(1000);
  });
});

describe("what a job inherits", () => {
  it("joins before_script and script into commands, the job's before_script replacing the file's", () => {
    const yaml =
      "before_script: [pwd]\nrspec:\n  script: rspec\nlint:\n  before_script: [ls]\n  script: [a, b]\n";
    expect(job(yaml, "rspec")?.commands).toBe("pwd\nrspec");
    expect(job(yaml, "lint")?.commands).toBe("ls\na\nb");
  });

  it("hands after_script over in options, the job's replacing the file's", () => {
    const yaml =
      "after_script: [cleanup]\nrspec:\n  script: rspec\nlint:\n  after_script: [other]\n  script: x\n";
    expect(job(yaml, "rspec")?.options.after_script).toEqual(["cleanup"]);
    expect(job(yaml, "lint")?.options.after_script).toEqual(["other"]);
  });

  it("takes the file's image, services and cache unless it has its own", () => {
    const yaml =
      "image: ruby:2.1\nservices: [mysql]\ncache: {paths: [a]}\n" +
      "one:\n  script: x\ntwo:\n  script: x\n  image: ruby:2.3\n  services: [postgresql]\n  cache: {key: k, untracked: true}\n";
    expect(job(yaml, "one")?.options).toEqual({
      image: "ruby:2.1",
      services: ["mysql"],
      cache: { paths: ["a"] },
    });
    expect(job(yaml, "two")?.options).toEqual({
      image: "ruby:2.3",
      services: ["postgresql"],
      cache: { key: "k", untracked: true },
    });
  });

  it("has the file's variables overridden by its own, in the file's order", () => {
    const yaml = "variables:\n  A: a\n  B: b\njob:\n  script: x\n  variables:\n    C: c\n    A: own\n";
    expect(job(yaml, "job")?.variables).toEqual([
      { key: "A", value: "own", public: true },
      { key: "B", value: "b", public: true },
      { key: "C", value: "c", public: true },
    ]);
  });

  it("has no variables when neither the file nor the job has any, or the job's are empty", () => {
    expect(job("job:\n  script: x", "job")?.variables).toEqual([]);
    expect(job("job:\n  script: x\n  variables:", "job")?.variables).toEqual([]);
  });

  it("has empty options when nothing applies", () => {
    expect(job("job:\n  script: x", "job")?.options).toEqual({});
  });
});

describe("stages", () => {
  it("order the jobs by stage, then as the file lists them", () => {
    const yaml =
      "stages: [lint, build, deploy]\n" +
      "ship:\n  stage: deploy\n  script: x\nmake:\n  stage: build\n  script: x\ncheck:\n  stage: lint\n  script: x\n" +
      "make2:\n  stage: build\n  script: x\n";
    expect(plan(yaml).jobs.map((j) => [j.name, j.stageIndex])).toEqual([
      ["check", 0],
      ["make", 1],
      ["make2", 1],
      ["ship", 2],
    ]);
  });

  it("default to test for a job and to build, test, deploy for the file", () => {
    expect(job("job:\n  script: x", "job")).toMatchObject({ stage: "test", stageIndex: 1 });
  });

  it("accept the old types and type", () => {
    const yaml = "types: [compile, check]\njob:\n  type: check\n  script: x\n";
    expect(plan(yaml)).toMatchObject({
      stages: ["compile", "check"],
      jobs: [{ stage: "check", stageIndex: 1 }],
    });
  });
});

describe("a job's own keys", () => {
  it("keep when, allow_failure and tags", () => {
    const yaml = "job:\n  script: x\n  when: on_failure\n  allow_failure: true\n  tags: [ruby, postgres]\n";
    expect(job(yaml, "job")).toMatchObject({
      when: "on_failure",
      allowFailure: true,
      tags: ["ruby", "postgres"],
    });
    for (const when of ["on_success", "on_failure", "always", "manual"]) {
      expect(job(`job:\n  script: x\n  when: ${when}`, "job")?.when).toBe(when);
    }
  });

  it("read YAML 1.1 booleans as Ruby did", () => {
    expect(job("job:\n  script: x\n  allow_failure: yes", "job")?.allowFailure).toBe(true);
    expect(job("job:\n  script: x\n  tags: [y, n]", "job")?.tags).toEqual(["y", "n"]);
  });

  it("name an environment by a string or a mapping", () => {
    expect(job("job:\n  script: x\n  environment: review/$CI_BUILD_REF_NAME", "job")?.environment).toBe(
      "review/$CI_BUILD_REF_NAME",
    );
    const yaml =
      "review:\n  script: x\n  environment:\n    name: review\n    url: https://review.example.com\n    on_stop: stop\n" +
      "stop:\n  script: y\n  when: manual\n  environment:\n    name: review\n    action: stop\n";
    expect(job(yaml, "review")?.environment).toBe("review");
    expect(job(yaml, "stop")?.options.environment).toBe("review");
  });

  it("keep the artifacts of a job as given", () => {
    const yaml =
      "job:\n  script: x\n  artifacts:\n    untracked: true\n    when: on_failure\n    expire_in: 3 mins 4 sec\n";
    expect(job(yaml, "job")?.options.artifacts).toEqual({
      untracked: true,
      when: "on_failure",
      expire_in: "3 mins 4 sec",
    });
  });

  it("read a key given twice as its last value, as Psych does", () => {
    expect(job("job:\n  script: one\n  script: two", "job")?.commands).toBe("two");
  });
});
