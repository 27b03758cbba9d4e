import { describe, expect, it } from "vitest";
import { projectsOfRemotes, remoteKey } from "./remotes.js";

describe("remoteKey", () => {
  it("reduces every way git writes a remote to host/path", () => {
    for (const url of [
      "https://kiln.example.com/acme/widgets.git",
      "http://ada:secret@Kiln.Example.com:8080/acme/widgets",
      "git@kiln.example.com:acme/widgets.git",
      "ssh://git@kiln.example.com:2222/acme/widgets.git/",
      "kiln.example.com:acme/Widgets",
    ]) {
      expect(remoteKey(url), url).toBe("kiln.example.com/acme/widgets");
    }
  });

  it("keeps nested namespaces and refuses what is not a remote", () => {
    expect(remoteKey("https://kiln.example.com/gitlab/acme/widgets.git")).toBe(
      "kiln.example.com/gitlab/acme/widgets",
    );
    expect(remoteKey("/srv/git/widgets.git")).toBeNull();
    expect(remoteKey("https://kiln.example.com/")).toBeNull();
  });
});

describe("projectsOfRemotes", () => {
  const widgets = {
    id: 1,
    http_url_to_repo: "http://kiln.example.com/acme/widgets.git",
    ssh_url_to_repo: "git@kiln.example.com:acme/widgets.git",
  };
  const gadgets = {
    id: 2,
    http_url_to_repo: "http://kiln.example.com/acme/gadgets.git",
    ssh_url_to_repo: "git@kiln.example.com:acme/gadgets.git",
  };

  it("matches by the HTTP or the SSH clone URL, whatever the remote's scheme", () => {
    expect(projectsOfRemotes(["https://kiln.example.com/acme/widgets"], [widgets, gadgets])).toEqual([
      widgets,
    ]);
    expect(projectsOfRemotes(["ssh://git@kiln.example.com/acme/gadgets.git"], [widgets, gadgets])).toEqual([
      gadgets,
    ]);
  });

  it("does not match a project of the same name elsewhere", () => {
    expect(projectsOfRemotes(["https://github.com/acme/widgets.git"], [widgets])).toEqual([]);
    expect(projectsOfRemotes(["https://kiln.example.com/other/widgets.git"], [widgets])).toEqual([]);
  });
});
