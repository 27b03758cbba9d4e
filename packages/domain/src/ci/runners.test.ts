import { describe, expect, it } from "vitest";
import { disableRefusal, runnerRefusal, showsRunnerToken } from "./runners.js";

const specific = { isShared: false, locked: false, projectCount: 1 };
const shared = { isShared: true, locked: false, projectCount: 0 };
const admin = { isAdmin: true, manages: false };
const master = { isAdmin: false, manages: true };
const stranger = { isAdmin: false, manages: false };

describe("runner rules (8.x lib/api/runners.rb)", () => {
  it("shows shared runners to anyone, specific ones to administrators and their masters", () => {
    expect(runnerRefusal("show", stranger, shared)).toBeNull();
    expect(runnerRefusal("show", stranger, specific)).toBe("runner_no_access");
    expect(runnerRefusal("show", master, specific)).toBeNull();
    expect(runnerRefusal("show", admin, specific)).toBeNull();
  });

  it("lets only administrators change or remove shared runners", () => {
    expect(runnerRefusal("update", master, shared)).toBe("runner_shared");
    expect(runnerRefusal("delete", master, shared)).toBe("runner_shared");
    expect(runnerRefusal("update", admin, shared)).toBeNull();
    expect(runnerRefusal("update", stranger, specific)).toBe("runner_no_access");
  });

  it("removes a runner of several projects only for administrators", () => {
    const many = { ...specific, projectCount: 2 };
    expect(runnerRefusal("delete", master, many)).toBe("runner_many_projects");
    expect(runnerRefusal("delete", stranger, many)).toBe("runner_many_projects");
    expect(runnerRefusal("delete", admin, many)).toBeNull();
    expect(runnerRefusal("delete", master, specific)).toBeNull();
  });

  it("enables neither shared nor locked runners, even for administrators", () => {
    expect(runnerRefusal("enable", admin, shared)).toBe("runner_shared");
    expect(runnerRefusal("enable", admin, { ...specific, locked: true })).toBe("runner_locked");
    expect(runnerRefusal("enable", admin, specific)).toBeNull();
    expect(runnerRefusal("enable", master, specific)).toBeNull();
    expect(runnerRefusal("enable", stranger, specific)).toBe("runner_no_access");
  });

  it("shows the token of specific runners and to administrators; keeps a runner's last project", () => {
    expect(showsRunnerToken(stranger, shared)).toBe(false);
    expect(showsRunnerToken(admin, shared)).toBe(true);
    expect(showsRunnerToken(master, specific)).toBe(true);
    expect(disableRefusal(specific)).toBe("runner_last_project");
    expect(disableRefusal({ ...specific, projectCount: 2 })).toBeNull();
  });
});
