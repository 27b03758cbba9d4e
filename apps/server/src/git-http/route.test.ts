import { describe, expect, it } from "vitest";
import { isGitRequest, parseGitRoute } from "./route.js";

describe("git routes", () => {
  it("takes git's GETs of info/refs and POSTs to the services, with or without .git", () => {
    expect(isGitRequest("GET", "/alice/app.git/info/refs")).toBe(true);
    expect(isGitRequest("GET", "/alice/app/info/refs")).toBe(true);
    expect(isGitRequest("POST", "/alice/app.git/git-upload-pack")).toBe(true);
    expect(isGitRequest("POST", "/alice/app.git/git-receive-pack")).toBe(true);
    expect(isGitRequest("POST", "/alice/app.git/info/refs")).toBe(false);
    expect(isGitRequest("GET", "/alice/app.git/git-upload-pack")).toBe(false);
    expect(isGitRequest("GET", "/alice/app.git/objects/info/packs")).toBe(false);
    expect(isGitRequest("GET", "/a/b/c.git/info/refs")).toBe(false);
  });

  it("decodes the project and the service", () => {
    expect(parseGitRoute("/alice/my.app.git/info/refs", "service=git-receive-pack")).toEqual({
      namespace: "alice",
      project: "my.app",
      kind: "advertise",
      service: "git-receive-pack",
    });
    expect(parseGitRoute("/alice/app/git-upload-pack", "")).toMatchObject({
      project: "app",
      kind: "rpc",
      service: "git-upload-pack",
    });
    expect(parseGitRoute("/alice/app.git/info/refs", "")?.service).toBeUndefined();
    expect(parseGitRoute("/alice/app.git/info/refs", "service=git-upload-archive")?.service).toBeUndefined();
  });

  it("names no project for segments that are not one valid path", () => {
    for (const path of [
      "/%2e%2e/app.git/info/refs",
      "/alice/%2e%2e.git/info/refs",
      "/alice/..%2fother.git/info/refs",
      "/alice/a%5cb.git/info/refs",
      "/alice/a%00.git/info/refs",
      "/alice/%E0%A4%A.git/info/refs",
      "/alice/.git/info/refs",
      "/-x/app.git/info/refs",
    ]) {
      expect(parseGitRoute(path, "service=git-upload-pack"), path).toBeNull();
    }
  });
});
