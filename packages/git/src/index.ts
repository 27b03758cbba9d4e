/**
 * @kiln/git: bare repositories on disk through the system `git`, never a re-implementation of it.
 */

export {
  type ArchiveFormat,
  type ArchiveOptions,
  type ArchiveStream,
  archive,
  archiveFormat,
  archivePrefix,
} from "./archive.js";
export { type Blob, type FileAtRevision, readBlob, readFile } from "./blobs.js";
export { createBranch, deleteBranch, findBranch, listBranches, type RepoBranch } from "./branches.js";
export { commitsBetween, getCommit, type ListCommitsOptions, lastCommitFor, listCommits } from "./commits.js";
export { type Comparison, compare } from "./compare.js";
export { commitDiff, type DiffBetweenOptions, diffBetween, diffCommits } from "./diff.js";
export { DEFAULT_MAX_PATCH_BYTES } from "./diff-parse.js";
export type { GitErrorSubject } from "./errors.js";
export { GitError, type GitErrorKind } from "./errors.js";
export {
  DEFAULT_GIT_TIMEOUT_MS,
  type GitOptions,
  type GitResult,
  gitEnvironment,
  gitText,
  runGit,
  spawnGit,
} from "./exec.js";
export { type CommitFilesOptions, type CommitFilesResult, commitFiles, type FileAction } from "./files.js";
export {
  type Housekeeping,
  type HousekeepingOptions,
  startHousekeeping,
} from "./housekeeping/start.js";
export type { SweepReport } from "./housekeeping/sweep.js";
export { type AdvertiseRefsOptions, advertiseRefs } from "./http/advertise.js";
export { BodyError, decodeBody } from "./http/body.js";
export { discardBody } from "./http/discard.js";
export type { Framing } from "./http/framing.js";
export { type Packet, PKT_FLUSH, PKT_MAX, PktLineReader, pktLine } from "./http/pkt-line.js";
export {
  DEFAULT_RECEIVE_BODY_LIMIT,
  DEFAULT_RPC_TIMEOUT_MS,
  DEFAULT_UPLOAD_BODY_LIMIT,
  type GitHttpRequest,
  type PushAuthorization,
  type ServiceRpcOptions,
  type ServiceRpcResult,
  serviceRpc,
} from "./http/rpc.js";
export {
  advertisementContentType,
  type GitService,
  NO_CACHE_HEADERS,
  parseGitService,
  requestContentType,
  resultContentType,
  sanitizeGitProtocol,
  serviceCommand,
  wantsProtocolV2,
} from "./http/service.js";
export type { GitHttpFailure, GitHttpResponse, GitHttpResult } from "./http/stream.js";
export {
  canMerge,
  landMerge,
  type MergeCheck,
  type MergeOptions,
  type MergeResult,
  merge,
  writeMergeCommit,
} from "./merge.js";
export { branchesContaining, isAncestor, mergeBase } from "./merge-base.js";
export { type PushCommit, type PushCommits, type PushCommitsOptions, pushCommits } from "./push/commits.js";
export { PushGate, type PushGateOptions, type PushSession } from "./push/gate.js";
export { type ReceiveReport, ReportStatusReader } from "./push/report-status.js";
export {
  type AuthorizePush,
  isNullSha,
  type PushContext,
  type PushOutcome,
  type PushRefusal,
  type RefUpdate,
  type RefUpdateKind,
} from "./push/types.js";
export {
  branchHead,
  getDefaultBranch,
  isEmptyRepository,
  resolveCommit,
  resolveCommits,
  setDefaultBranch,
} from "./refs.js";
export { type CreateRepositoryOptions, REPOSITORY_CONFIG, RepositoryStore } from "./repository-store.js";
export { type CreateTagOptions, createTag, deleteTag, findTag, listTags, type RepoTag } from "./tags.js";
export { listTree, type RepoTreeObject } from "./tree.js";
export type {
  CommitDetail,
  CommitStats,
  DiffLimits,
  DiffResult,
  GitIdentity,
  RawCommit,
  RepoDiff,
} from "./types.js";
export {
  assertFilePath,
  assertRevision,
  isObjectId,
  isValidBranchName,
  isValidRefName,
  isValidTagName,
} from "./validate.js";
export { checkGitVersion, MIN_GIT_VERSION, parseGitVersion } from "./version.js";
