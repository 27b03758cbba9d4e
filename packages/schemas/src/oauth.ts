import { TOKEN_SCOPES } from "@kiln/domain";
import { z } from "zod";
import { Id, ShortText } from "./primitives.js";

/** A list of token scopes, as an array or OAuth's space-separated string; unknown ones are refused. */
export const TokenScopes = z
  .union([z.array(z.string()), z.string().transform((scopes) => scopes.split(/[\s,]+/))])
  .transform((scopes) => [...new Set(scopes.filter((scope) => scope !== ""))])
  .pipe(z.array(z.enum(TOKEN_SCOPES, { error: "is not a known scope" })).min(1, { error: "can't be blank" }));

/** A new OAuth application (profile page, `POST /applications`). */
export const CreateOAuthApplicationInput = z.object({
  name: ShortText.min(1, { error: "can't be blank" }),
  /** One or more redirect URIs, one per line. */
  redirect_uri: z.string().min(1, { error: "can't be blank" }).max(2000),
  /** Default `api`. */
  scopes: TokenScopes.optional(),
});
export type CreateOAuthApplicationInput = z.infer<typeof CreateOAuthApplicationInput>;

/** One OAuth application by id. */
export const OAuthApplicationIdInput = z.object({ id: Id });

/** The query of `/oauth/authorize`, as the consent step reads it. */
export const OAuthAuthorizeInput = z.object({
  client_id: z.string().max(200),
  redirect_uri: z.string().max(2000),
  response_type: z.string().max(100),
  scope: z.string().max(500).optional(),
  state: z.string().max(2000).optional(),
  code_challenge: z.string().max(200).optional(),
  code_challenge_method: z.string().max(20).optional(),
});
export type OAuthAuthorizeInput = z.infer<typeof OAuthAuthorizeInput>;

/** Where the consent step sends the browser back to (approve, deny). */
export const OAuthRedirectJson = z.object({ redirectTo: z.string() });

/** `GET /applications` (admin): v3's (later GitLab's) application entity. */
export const OAuthApplicationJson = z.object({
  id: z.number(),
  application_id: z.string(),
  application_name: z.string(),
  callback_url: z.string(),
});

/** `POST /applications`: the entity with its secret, shown this once. */
export const OAuthApplicationWithSecretJson = OAuthApplicationJson.extend({ secret: z.string() });
