import { describe, expect, it } from "vitest";
import { forEachDialect } from "./__tests__/harness.js";
import { ensureRootUser, type RootBootstrap } from "./bootstrap.js";

forEachDialect((h) => {
  describe("ensureRootUser", () => {
    it("run by several starts at once on an empty database, creates root once and the others find it", async () => {
      const outcomes: RootBootstrap[] = await Promise.all(
        [1, 2, 3].map(() => ensureRootUser(h().runtime, undefined)),
      );
      const created = outcomes.filter((outcome) => outcome.created);
      expect(created).toHaveLength(1);
      expect(outcomes.filter((outcome) => !outcome.created)).toHaveLength(2);
      const password = created[0]?.created ? created[0].generatedPassword : null;
      const session = await h().anonymous.session.signIn({ login: "root", password: password as string });
      expect(session.user).toMatchObject({ username: "root", is_admin: true });
    });
  });
});
