// Shared with the tRPC procedures: the services present these shapes.
export {
  presentSshKey,
  presentUser,
  presentUserBasic,
  presentUserPublic,
  presentUserWithPrivateToken,
} from "@kiln/services";
