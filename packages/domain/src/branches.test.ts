import { describe, expect, it } from "vitest";
import { AccessLevel } from "./access.js";
import {
  defaultBranchProtection,
  mayMergeInto,
  type ProtectedBranch,
  PushRefusal,
  pushRefusal,
  type RefChange,
} from "./branches.js";
import { BranchProtection } from "./settings.js";

const { GUEST, REPORTER, DEVELOPER, MASTER, OWNER } = AccessLevel;

function rule(flags: Partial<ProtectedBranch> = {}): ProtectedBranch {
  return {
    id: 1,
    project_id: 1,
    name: "main",
    developers_can_push: false,
    developers_can_merge: false,
    created_at: "",
    updated_at: "",
    ...flags,
  };
}

const rights = (level: AccessLevel, defaultBranch: string | null = "main") => ({
  level,
  pushCode: level >= DEVELOPER,
  defaultBranch,
});
const change = (ref: string, kind: RefChange["kind"] = "update", forced = false): RefChange => ({
  ref,
  kind,
  forced,
});

describe("push refusal", () => {
  it("refuses everything to those without push_code", () => {
    for (const level of [GUEST, REPORTER]) {
      expect(pushRefusal(change("refs/heads/topic"), undefined, rights(level))).toBe(PushRefusal.PUSH_CODE);
      expect(pushRefusal(change("refs/tags/v1", "create"), undefined, rights(level))).toBe(
        PushRefusal.PUSH_CODE,
      );
    }
  });

  it("lets developers do anything to unprotected branches but delete the default one", () => {
    for (const kind of ["create", "update", "delete"] as const) {
      expect(
        pushRefusal(change("refs/heads/topic", kind, kind === "update"), undefined, rights(DEVELOPER)),
      ).toBeNull();
    }
    expect(pushRefusal(change("refs/heads/main", "delete"), undefined, rights(OWNER))).toBe(
      PushRefusal.DELETE_DEFAULT,
    );
  });

  it("on a protected branch: masters push, developers only when allowed, nobody force-pushes or deletes", () => {
    const table: [AccessLevel, Partial<ProtectedBranch>, RefChange["kind"], boolean, string | null][] = [
      [DEVELOPER, {}, "update", false, PushRefusal.PROTECTED_BRANCH],
      [DEVELOPER, { developers_can_merge: true }, "update", false, PushRefusal.PROTECTED_BRANCH],
      [DEVELOPER, { developers_can_push: true }, "update", false, null],
      [DEVELOPER, { developers_can_push: true }, "update", true, PushRefusal.FORCE_PUSH_PROTECTED],
      [DEVELOPER, { developers_can_push: true }, "create", false, null],
      [MASTER, {}, "update", false, null],
      [OWNER, {}, "create", false, null],
      [MASTER, {}, "update", true, PushRefusal.FORCE_PUSH_PROTECTED],
      [OWNER, {}, "update", true, PushRefusal.FORCE_PUSH_PROTECTED],
      [MASTER, { developers_can_push: true }, "delete", false, PushRefusal.DELETE_PROTECTED],
    ];
    for (const [level, flags, kind, forced, expected] of table) {
      expect(
        pushRefusal(change("refs/heads/stable", kind, forced), rule(flags), rights(level)),
        `${level} ${kind}`,
      ).toBe(expected);
    }
  });

  it("lets developers create tags, and only masters change or delete them", () => {
    expect(pushRefusal(change("refs/tags/v1", "create"), undefined, rights(DEVELOPER))).toBeNull();
    expect(pushRefusal(change("refs/tags/v1", "update"), undefined, rights(DEVELOPER))).toBe(
      PushRefusal.CHANGE_TAGS,
    );
    expect(pushRefusal(change("refs/tags/v1", "delete"), undefined, rights(DEVELOPER))).toBe(
      PushRefusal.CHANGE_TAGS,
    );
    expect(pushRefusal(change("refs/tags/v1", "delete"), undefined, rights(MASTER))).toBeNull();
  });
});

describe("default branch protection", () => {
  it("follows the setting", () => {
    expect(defaultBranchProtection(BranchProtection.NONE)).toBeNull();
    expect(defaultBranchProtection(BranchProtection.DEVELOPERS_CAN_PUSH)).toEqual({
      developers_can_push: true,
      developers_can_merge: true,
    });
    expect(defaultBranchProtection(BranchProtection.FULL)).toEqual({
      developers_can_push: false,
      developers_can_merge: false,
    });
  });
});

describe("merging into a branch", () => {
  it("is for masters, and for developers where the branch is unprotected or lets them", () => {
    expect(mayMergeInto(REPORTER, undefined)).toBe(false);
    expect(mayMergeInto(DEVELOPER, undefined)).toBe(true);
    expect(mayMergeInto(DEVELOPER, rule())).toBe(false);
    expect(mayMergeInto(DEVELOPER, rule({ developers_can_merge: true }))).toBe(true);
    expect(mayMergeInto(DEVELOPER, rule({ developers_can_push: true }))).toBe(true);
    expect(mayMergeInto(MASTER, rule())).toBe(true);
  });
});
