import { describe, expect, it } from "vitest";
import { MAX_CONFIG_LENGTH } from "./load.js";
import { planPipeline } from "./plan.js";
import type { PlanResult } from "./types.js";

const push = { ref: "master", tag: false, source: "push" } as const;

/** The result is one of the two shapes, whatever the input; an error is a non-empty string. */
function expectWellFormed(result: PlanResult): void {
  if (result.ok) {
    expect(Array.isArray(result.plan.jobs)).toBe(true);
  } else {
    expect(typeof result.error).toBe("string");
    expect(result.error.length).toBeGreaterThan(0);
  }
}

function errorOf(yaml: string): string {
  const result = planPipeline(yaml, push);
  if (result.ok) throw new Error("expected an error");
  return result.error;
}

/** A small deterministic PRNG (mulberry32), so a failure can be replayed from its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VALID = `
.t: &t
  stage: test
  tags: [docker]
  only: [master, /^release-/]
variables: {A: "1"}
before_script: [bundle install]
rspec:
  <<: *t
  script: [rspec]
  artifacts: {paths: [out], expire_in: 1 week}
deploy:
  stage: deploy
  script: cap deploy
  environment: {name: production, url: "https://example.com"}
  when: manual
`;

describe("planPipeline on hostile input", () => {
  it("refuses the billion laughs", () => {
    let yaml = "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n";
    for (let i = 1; i < 10; i++)
      yaml += `a${i}: &a${i} [${Array(10)
        .fill(`*a${i - 1}`)
        .join(", ")}]\n`;
    expect(errorOf(`${yaml}job:\n  script: [*a9]\n`)).toMatch(/alias/i);
  });

  it("refuses a billion laughs made of merge keys", () => {
    let yaml = ".l0: &l0 {a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7, h: 8, i: 9, j: 10}\n";
    for (let i = 1; i < 10; i++) {
      const items = Array.from({ length: 10 }, (_, k) => `k${k}: *l${i - 1}`).join(", ");
      yaml += `.l${i}: &l${i} {${items}}\n`;
    }
    expectWellFormed(planPipeline(`${yaml}job:\n  script: x\n  variables: *l9\n`, push));
  });

  it("refuses a file past the size bound", () => {
    expect(errorOf(`job:\n  script: "${"x".repeat(MAX_CONFIG_LENGTH)}"\n`)).toBe(
      `.gitlab-ci.yml is too large (more than ${MAX_CONFIG_LENGTH} characters)`,
    );
  });

  it("refuses a deeply nested document before parsing it (V8 aborted the process on the second one)", () => {
    const tooDeep = ".gitlab-ci.yml is nested too deeply (more than 200 levels)";
    expect(errorOf("[".repeat(MAX_CONFIG_LENGTH))).toBe(tooDeep);
    expect(errorOf("[".repeat(20_000))).toBe(tooDeep);
    expect(errorOf(`job:\n  script: ${"[".repeat(50_000)}${"]".repeat(50_000)}\n`)).toBe(tooDeep);
    expect(errorOf(`${"{a: ".repeat(20_000)}1${"}".repeat(20_000)}`)).toBe(tooDeep);
    expect(errorOf(`job:\n  script:\n    ${"- ".repeat(50_000)}x\n`)).toBe(tooDeep);
    expect(errorOf(Array.from({ length: 300 }, (_, i) => `${" ".repeat(i)}k${i}:\n`).join(""))).toBe(tooDeep);
  });

  it("reads nesting real files have, and brackets or indentation inside scripts", () => {
    const nested = `job:\n  script: [x]\n  variables: {A: "${"[".repeat(500)}"}\n  tags: ${"[".repeat(50)}${"]".repeat(50)}\n`;
    expect(errorOf(nested)).toBe("jobs:job tags should be an array of strings");
    const script = `job:\n  script:\n    - |\n${Array.from({ length: 300 }, (_, i) => `      ${" ".repeat(i)}echo [[[ {{ - ? :`).join("\n")}\n`;
    const result = planPipeline(script, push);
    expect(result.ok && result.plan.jobs[0]?.commands.trimEnd().split("\n")).toHaveLength(300);
  });

  it("answers an alias to no anchor, and an anchor used inside itself", () => {
    expect(errorOf("job:\n  script: *nothing")).toMatch(/^\(<unknown>\): /);
    expectWellFormed(planPipeline("a: &a [*a]\njob:\n  script: x\n", push));
  });

  it("reads documents that are not a mapping as an invalid format", () => {
    for (const yaml of ["42", "~", "true", "[1, 2]", "'text'", "!!binary aGVsbG8=", "--- |\n  block\n"]) {
      expect(errorOf(yaml)).toBe("Invalid configuration format");
    }
  });

  it("answers keys that are not strings", () => {
    expect(errorOf("1.5:\n  script: x")).toBe("jobs:1.5 name should be a symbol");
    expect(errorOf("true:\n  script: x")).toBe("jobs:true name should be a symbol");
    expect(errorOf("~:\n  script: x")).toBe("jobs:job name can't be blank");
    expect(errorOf("? [a, b]\n: {script: x}")).toMatch(/^jobs:.* name should be a symbol$/);
    expect(errorOf("? {a: 1}\n: {script: x}")).toMatch(/^jobs:.* name should be a symbol$/);
  });

  it("plans jobs named like Object's own properties without touching Object.prototype", () => {
    const result = planPipeline("__proto__:\n  script: x\nconstructor:\n  script: y\n", push);
    expect(result.ok && result.plan.jobs.map((job) => job.name)).toEqual(["__proto__", "constructor"]);
    expect(({} as Record<string, unknown>)["script"]).toBeUndefined();
  });

  it("answers values of types YAML has and JSON lacks", () => {
    expectWellFormed(planPipeline("job:\n  script: !!binary aGVsbG8=", push));
    expectWellFormed(planPipeline("job:\n  script: !!set {a, b}", push));
    expectWellFormed(planPipeline("job:\n  script: !!omap [a: 1]", push));
    expectWellFormed(planPipeline("job:\n  script: !ruby/object:Foo {}", push));
    expect(errorOf("job:\n  script: x\n  variables: {WHEN: 2016-01-01, N: 1:30}")).toBe(
      "jobs:job:variables config should be a hash of key value pairs",
    );
  });

  it("matches a /regex/ written to backtrack forever in linear time, so a push cannot stall the server", () => {
    const yaml = "job:\n  script: x\n  only: ['/^(a+)+$/', '/(x|x|xx)*y/']\n";
    const ref = `${"a".repeat(50_000)}!`;
    const result = planPipeline(yaml, { ref, tag: false, source: "push" });
    expect(result.ok && result.plan.jobs).toEqual([]);
  });

  it("refuses the Ruby regexps RE2 cannot run, as invalid patterns", () => {
    for (const pattern of ["/(?<n>x)\\k<n>/", "/(?=a)b/", "/a{2000}/"]) {
      expect(errorOf(`job:\n  script: x\n  only: ['${pattern}']\n`)).toBe(
        "jobs:job:only config should be an array of strings or regexps",
      );
    }
  });

  // 1,500 plans each: about 3 s alone, but `.ci/run` starts this package's tests beside every other
  // package's build and tests on two cores, where they took past vitest's 20 s. They prove that
  // nothing throws, not how fast: a deadline that fits the work.
  const fuzz = { timeout: 120_000 };

  it("never throws on random text over YAML's punctuation", fuzz, () => {
    const alphabet = [
      "a",
      "b",
      ":",
      " ",
      "\n",
      "  ",
      "-",
      "[",
      "]",
      "{",
      "}",
      ",",
      "&a",
      "*a",
      "<<",
      "!",
      "|",
      ">",
      "'",
      '"',
      "#",
      "?",
      "%",
      "@",
      "`",
      "\t",
      "\\",
      "/",
      ".",
      "1",
      "~",
      "script",
      "stage",
    ];
    for (let seed = 1; seed <= 1500; seed++) {
      const next = random(seed);
      const length = Math.floor(next() * 60);
      let text = "";
      for (let i = 0; i < length; i++) text += alphabet[Math.floor(next() * alphabet.length)];
      expectWellFormed(planPipeline(text, push));
    }
  });

  it("never throws on a real file garbled", fuzz, () => {
    for (let seed = 1; seed <= 1500; seed++) {
      const next = random(seed);
      const chars = [...VALID];
      const edits = 1 + Math.floor(next() * 6);
      for (let e = 0; e < edits; e++) {
        const at = Math.floor(next() * chars.length);
        const kind = next();
        if (kind < 0.4) chars.splice(at, 1);
        else if (kind < 0.8) chars.splice(at, 0, chars[Math.floor(next() * chars.length)]!);
        else chars.splice(at, 0, ...chars.slice(at, at + Math.floor(next() * 20)));
      }
      const context = {
        ref: next() < 0.5 ? "master" : "release-1",
        tag: next() < 0.3,
        source: "push",
      } as const;
      expectWellFormed(planPipeline(chars.join(""), context));
    }
  });
});
