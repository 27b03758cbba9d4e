import type { IncomingMessage, ServerResponse } from "node:http";
import {
  advertiseRefs,
  discardBody,
  type GitHttpResult,
  type GitService,
  type PushGate,
  type ServiceRpcResult,
  serviceRpc,
} from "@kiln/git";
import { clientAddress, GIT_CREDENTIALS, gitRefusalMessage, readCredentials } from "@kiln/rest-adapter";
import {
  decideGitAccess,
  type GitDenial,
  type GitGrant,
  gitPushAuthorizer,
  recordGitPush,
  type ServiceRuntime,
} from "@kiln/services";
import type { Logger } from "../logger.js";
import { HeldResponse } from "./held-response.js";
import { type GitRoute, parseGitRoute } from "./route.js";

/** Serves one git request; resolves with the status and the acting user, for the access log. */
export type GitHttpHandler = (
  req: IncomingMessage,
  res: ServerResponse,
) => Promise<{ status: number; userId: number | null }>;

/** What the git handler needs from the server: the services, the process's push gate, a log. */
export interface GitHttpOptions {
  runtime: ServiceRuntime;
  gate: PushGate;
  log: Logger;
}

const STATUS: Record<GitDenial, number> = {
  credentials_required: 401,
  bad_credentials: 401,
  // Not 401: git would tell its credential helper to forget a password that may be right.
  throttled: 429,
  not_found: 404,
  forbidden: 403,
};

/** How git requests fail by the client's fault (answered 4xx). */
const CLIENT_FAULTS = new Set<GitHttpResult["failure"]>(["bad_request", "bad_body", "too_large"]);

/**
 * A plain-text refusal: git shows its lines after `remote:`. A 401 names the Basic realm so that
 * git asks for credentials (or its credential helper supplies them); a 429 says when to retry.
 * The connection is closed, once what the client still sends of a refused POST's body is read (up
 * to a bound): closing on unread bytes would reset the connection, and the client would never see
 * the answer.
 */
async function answer(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  message: string,
  retryAfterSeconds?: number,
): Promise<void> {
  await discardBody(req);
  const body = `${message}\n`;
  const headers: Record<string, string | number> = {
    "Content-Type": "text/plain; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    "Cache-Control": "no-cache",
    Connection: "close",
  };
  if (status === 401) headers["WWW-Authenticate"] = 'Basic realm="Kiln"';
  if (retryAfterSeconds !== undefined) headers["Retry-After"] = retryAfterSeconds;
  res.writeHead(status, headers);
  res.end(body);
}

/** Aborts when the client goes away before its answer is complete: git is then killed. */
function disconnectSignal(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}

/**
 * Serves git's smart HTTP at `/<namespace>/<project>[.git]/info/refs?service=…` and
 * `POST …/git-upload-pack|git-receive-pack`: who may do what is decided by the services
 * ({@link decideGitAccess}, then per ref inside the push), the bytes are streamed both ways by
 * `@kiln/git` (no pack is held in memory; gzip request bodies are read), git is killed when the
 * client disconnects. After a push, the applied ref updates go to {@link recordGitPush} before
 * the answer ends. Failures of git are logged with its stderr; the client never sees a stack.
 */
export function createGitHttpHandler(options: GitHttpOptions): GitHttpHandler {
  const { runtime, gate, log } = options;
  return async (req, res) => {
    const [pathname = "/", search = ""] = (req.url ?? "/").split("?", 2);
    const route = parseGitRoute(pathname, search);
    if (!route) {
      await answer(req, res, 404, "Not Found");
      return { status: 404, userId: null };
    }
    if (!route.service) {
      await answer(req, res, 403, "Kiln serves git over smart HTTP only; use git 1.6.6 or newer.");
      return { status: 403, userId: null };
    }
    const decision = await decideGitAccess(runtime, {
      namespace: route.namespace,
      project: route.project,
      action: route.service === "git-receive-pack" ? "push" : "pull",
      credentials: readCredentials(req, GIT_CREDENTIALS),
      address: clientAddress(req),
    });
    if (!decision.granted) {
      const { denial, refusal, retryAfterSeconds } = decision;
      await answer(
        req,
        res,
        STATUS[denial],
        gitRefusalMessage(refusal, retryAfterSeconds),
        retryAfterSeconds,
      );
      return { status: STATUS[denial], userId: null };
    }
    const { grant } = decision;
    const userId = grant.identity?.user.id ?? null;
    const result = await serve(route, route.service, grant, req, res);
    if (!result.ok && result.failure !== "disconnected") {
      // A client's malformed request is its own business; git failing otherwise is ours.
      log[CLIENT_FAULTS.has(result.failure) ? "info" : "warn"](
        {
          path: pathname,
          project_id: grant.access.project.id,
          failure: result.failure,
          exit_code: result.exitCode,
          stderr: result.stderr.slice(0, 2000),
        },
        CLIENT_FAULTS.has(result.failure) ? "git request refused" : "git request failed",
      );
    }
    return { status: res.statusCode, userId };
  };

  async function serve(
    route: GitRoute,
    service: GitService,
    grant: GitGrant,
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<GitHttpResult> {
    const { gitDir } = grant.access;
    const signal = disconnectSignal(res);
    if (route.kind === "advertise") {
      return advertiseRefs(gitDir, service, res, {
        gitProtocol: req.headers["git-protocol"],
        signal,
        cacheCapabilities: true,
      });
    }
    if (service === "git-upload-pack") {
      // Authorized above: a listing served from memory is one this caller may read.
      return serviceRpc(gitDir, service, req, res, { signal, cacheRefListings: true });
    }
    const held = new HeldResponse(res);
    try {
      const result = await serviceRpc(gitDir, service, req, held, {
        signal,
        push: { gate, authorize: gitPushAuthorizer(runtime, grant, gitRefusalMessage) },
      });
      await afterReceive(grant, result);
      return result;
    } finally {
      held.release();
    }
  }

  async function afterReceive(grant: GitGrant, result: ServiceRpcResult): Promise<void> {
    const push = result.push;
    if (!push) return;
    if (push.ungated.length > 0) {
      log.error(
        { project_id: grant.access.project.id, refs: push.ungated },
        "refs were updated without the push gate deciding",
      );
    }
    try {
      await recordGitPush(runtime, grant, push.applied);
    } catch (error) {
      // The refs moved whatever happens here: the push stands, only its records are missing.
      log.error({ err: error, project_id: grant.access.project.id }, "recording a push failed");
    }
  }
}
