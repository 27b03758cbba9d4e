import { attempt } from "@kiln/client";
import * as vscode from "vscode";
import type { Accounts } from "./accounts.js";
import type { FileSide } from "./model/merge-requests.js";

/** The scheme of a file at a revision on a Kiln instance (read-only). */
export const BLOB_SCHEME = "kiln-blob";

interface BlobQuery {
  instance: string;
  side: FileSide | null;
}

/**
 * The URI of one side of a diff: the path (for the editor's language and title) and, in the query,
 * where to read it. A missing side (an added or deleted file) is an empty document.
 */
export function blobUri(instance: string, side: FileSide | null, fallbackPath: string): vscode.Uri {
  const query: BlobQuery = { instance, side };
  const path = `/${side?.path ?? fallbackPath}`;
  return vscode.Uri.from({ scheme: BLOB_SCHEME, path, query: JSON.stringify(query) });
}

/** Reads merge request files through `repository.blob`; such documents are read-only. */
export class BlobContentProvider implements vscode.TextDocumentContentProvider {
  constructor(private readonly accounts: Accounts) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const { instance, side } = JSON.parse(uri.query) as BlobQuery;
    if (!side) return "";
    const connection = (await this.accounts.all()).find((candidate) => candidate.account.url === instance);
    if (!connection) throw new Error(`Not signed in to ${instance}`);
    const blob = await attempt(() =>
      connection.client.repository.blob.query({ id: side.projectId, sha: side.ref, filepath: side.path }),
    );
    if (!blob.ok) throw new Error(`Could not read ${side.path} at ${side.ref}: ${blob.error.message}`);
    return Buffer.from(blob.value.content, "base64").toString("utf8");
  }
}
