import { apiRequest, type FuzzTarget } from "./api-requests.js";
import { oddMessage } from "./framing.js";
import { gitRequest } from "./git-requests.js";
import { unknownRequest, uploadRequest } from "./other-requests.js";
import { Rng, requestSeed } from "./prng.js";
import type { FuzzRequest } from "./wire.js";

export type { FuzzTarget } from "./api-requests.js";

/**
 * Request `index` of the campaign seeded with `seed`: the same request for the same seed, index and
 * fixture, whatever was generated before it. Most go to the v3 routes; the rest to git's smart
 * HTTP, the uploads' served paths and paths that are not Kiln's.
 */
export function generateRequest(target: FuzzTarget, seed: number, index: number): FuzzRequest {
  const rng = new Rng(requestSeed(seed, index));
  const surface = rng.weighted({ api: 80, git: 8, uploads: 5, unknown: 7 });
  const generate = { api: apiRequest, git: gitRequest, uploads: uploadRequest, unknown: unknownRequest }[
    surface
  ];
  const request = generate(rng, target, seed, index);
  return oddMessage(rng, { ...request, traits: [`surface:${surface}`, ...request.traits] });
}
