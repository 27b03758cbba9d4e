// Shared with the tRPC procedures: the services present these shapes.
export {
  presentAuthor,
  presentGhost,
  presentIssue,
  presentMergeRequest,
  presentMilestone,
} from "@kiln/services";
