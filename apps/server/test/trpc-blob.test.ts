import type { FileJson } from "@kiln/schemas";
import { beforeAll, describe, expect, it } from "vitest";
import { commitTo, type MergeFixture, mergeFixture } from "./merge-requests-support.js";
import { onEachDatabase } from "./support.js";
import { dataOf, trpcCall } from "./trpc-support.js";

/** What `repository.blob` answers. */
interface BlobContent {
  id: string;
  size: number;
  encoding: "base64";
  content: string;
}

// The editor's diff reads both sides of a merge request's files through repository.blob: it must
// answer the bytes the v3 files API answers, to exactly the callers v3 answers.
onEachDatabase("tRPC repository.blob reads a file at a revision as v3's files API does", (ctx) => {
  let fixture: MergeFixture;
  const blob = (token: string, sha: string, filepath: string) =>
    trpcCall<BlobContent>(
      ctx(),
      "query",
      "repository.blob",
      { id: fixture.project.id, sha, filepath },
      { token },
    );

  beforeAll(async () => {
    fixture = await mergeFixture(ctx(), "tb");
    commitTo(
      fixture.repo,
      "feature",
      { "app.txt": "one\ntwo\nthree\nfour\n", "bin.dat": "\u0000\u00ff\u0001" },
      { from: "master" },
    );
  });

  it("answers a file at a branch or a sha, base64, as GET …/repository/files does", async () => {
    const { token } = fixture.cast.people.reporter;
    for (const ref of ["master", "feature"]) {
      for (const path of ref === "master" ? ["app.txt"] : ["app.txt", "bin.dat"]) {
        const v3 = await ctx().api<FileJson>({
          path: `/projects/${fixture.project.id}/repository/files`,
          query: { file_path: path, ref },
          token,
        });
        expect(v3.status).toBe(200);
        const trpc = await blob(token, ref, path);
        expect(dataOf(trpc), `${path} at ${ref}`).toEqual({
          id: v3.body.blob_id,
          size: v3.body.size,
          encoding: "base64",
          content: v3.body.content,
        });
      }
    }
    const at = await blob(token, "master", "app.txt");
    expect(Buffer.from(dataOf(at).content, "base64").toString()).toBe("one\ntwo\nthree\n");
  });

  it("is 404 for a file or revision that is not there", async () => {
    const { token } = fixture.cast.people.reporter;
    for (const [sha, path] of [
      ["master", "missing.txt"],
      ["no-such-branch", "app.txt"],
    ] as const) {
      const trpc = await blob(token, sha, path);
      expect(trpc.status).toBe(404);
      expect(trpc.body.error?.data.failure?.kind).toBe("not_found");
    }
  });

  describe("is refused where v3 refuses", () => {
    for (const role of ["guest", "outsider"] as const) {
      it(`a ${role} of the private project`, async () => {
        const { token } = fixture.cast.people[role];
        const v3 = await ctx().api({
          path: `/projects/${fixture.project.id}/repository/files`,
          query: { file_path: "app.txt", ref: "master" },
          token,
        });
        const trpc = await blob(token, "master", "app.txt");
        expect(v3.status).not.toBe(200);
        expect(trpc.status).toBe(v3.status);
        expect(trpc.body.result).toBeUndefined();
      });
    }
  });
});
