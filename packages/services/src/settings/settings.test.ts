import { describe, expect, it } from "vitest";
import { forEachDialect } from "../__tests__/harness.js";

forEachDialect((h) => {
  describe("application settings", () => {
    it("start from GitLab's defaults and are for administrators only", async () => {
      const alice = await h().user("alice");
      await expect(h().as(alice).settings.get()).rejects.toMatchObject({ code: "FORBIDDEN" });
      await expect(h().anonymous.settings.get()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
      const { settings, stamps } = await h().system.settings.get();
      expect(settings).toMatchObject({
        default_projects_limit: 10,
        signin_enabled: true,
        default_branch_protection: 2,
        restricted_visibility_levels: [],
        max_attachment_size: 10,
        max_artifacts_size: 100,
        default_project_visibility: 0,
      });
      expect(stamps.updated_at).toBe(stamps.created_at);
      expect(Date.parse(stamps.created_at)).not.toBeNaN();
    });

    it("keep what was changed, normalising visibilities written 0/1/2", async () => {
      await h().system.settings.update({
        default_project_visibility: 1,
        restricted_visibility_levels: [2, 0],
      });
      const { settings, stamps } = await h().system.settings.update({ signin_enabled: false });
      expect(settings).toMatchObject({
        default_project_visibility: 10,
        restricted_visibility_levels: [0, 20],
        signin_enabled: false,
        default_projects_limit: 10,
      });
      expect(stamps.updated_at >= stamps.created_at).toBe(true);
      expect((await h().system.settings.get()).settings.signin_enabled).toBe(false);
    });

    it("refuse an enabled domain blacklist without domains", async () => {
      await expect(h().system.settings.update({ domain_blacklist_enabled: true })).rejects.toMatchObject({
        cause: { kind: "validation", fields: { domain_blacklist: [expect.any(String)] } },
      });
      const ok = await h().system.settings.update({
        domain_blacklist_enabled: true,
        domain_blacklist: ["spam.test"],
      });
      expect(ok.settings.domain_blacklist).toEqual(["spam.test"]);
    });

    it("take max_artifacts_size in megabytes, greater than 0", async () => {
      await expect(h().system.settings.update({ max_artifacts_size: 0 })).rejects.toMatchObject({
        code: "BAD_REQUEST",
      });
      expect((await h().system.settings.update({ max_artifacts_size: 5 })).settings.max_artifacts_size).toBe(
        5,
      );
    });

    it("apply default_projects_limit to new users", async () => {
      await h().system.settings.update({ default_projects_limit: 3 });
      expect((await h().user("bob")).projects_limit).toBe(3);
    });
  });
});
