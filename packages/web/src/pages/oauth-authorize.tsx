import { DomainError, OOB_REDIRECT_URI } from "@kiln/domain";
import { decodeParams, type Params, type Served } from "@kiln/rest-adapter";
import type { OAuthAuthorizeInput } from "@kiln/schemas";
import { invoke, oauth, type PreAuthorization } from "@kiln/services";
import type { Form } from "../http/form.js";
import type { WebRoute } from "../route.js";
import { PostForm, Submit } from "./components.js";
import { type Page, pageRoute, type SignedInPage } from "./page.js";

/** The consent page (Doorkeeper's path, which GitLab's clients use). */
export const AUTHORIZE_PATH = "/oauth/authorize";
const DENY_PATH = "/oauth/authorize/deny";

/** The parameters of an authorization request, as the query and the consent forms carry them. */
const FIELDS = [
  "client_id",
  "redirect_uri",
  "response_type",
  "scope",
  "state",
  "code_challenge",
  "code_challenge_method",
] as const;

/** What each scope lets the application do, in plain words. */
const SCOPE_WORDS: Record<string, string> = {
  api: "Act as you through the API and git over HTTP: read and change everything you may, in every project you can see.",
  read_user: "Read your profile: your username, name and email address. Nothing else.",
};

/** The request's parameters from the query (GET) or the consent form (POST); absent ones stay absent. */
function requestParams(source: (name: string) => string | null): Params {
  const params: Params = {};
  for (const name of FIELDS) {
    const value = source(name);
    if (value !== null) params[name] = value;
  }
  return params;
}

/** Errors never sent back to the client: the redirect URI cannot be trusted, so the user is told. */
const UNTRUSTED: Record<string, string> = {
  oauth_invalid_client:
    "The application asking for access is unknown to Kiln: its client id is not registered.",
  oauth_invalid_redirect_uri:
    "The redirect URI the application sent is not one it registered, so Kiln will not send you back to it.",
};

/**
 * Runs a step of the authorize flow on the request's parameters. An unknown client, a redirect URI
 * it did not register or a malformed request is an error page (400), never a redirect.
 */
async function authorizeStep<O>(
  page: Page,
  step: (input: OAuthAuthorizeInput) => Promise<O>,
  params: Params,
): Promise<{ ok: true; value: O } | { ok: false; served: Served }> {
  try {
    return { ok: true, value: await step(decodeParams(oauth.preAuthorize.input, params)) };
  } catch (error) {
    if (!DomainError.is(error)) throw error;
    const failure = error.failure;
    const reason = "reason" in failure ? failure.reason : "";
    const message =
      UNTRUSTED[reason] ??
      "The authorization request is malformed: it needs client_id, redirect_uri and response_type.";
    return { ok: false, served: page.error(400, message) };
  }
}

/**
 * The CSP's `form-action` sources of the consent page: Kiln, and the client's redirect URI, which
 * the answer to the form redirects to (browsers check a form's redirects against `form-action`).
 */
function formTargets(redirectUri: string): string[] {
  const url = new URL(redirectUri);
  return ["'self'", url.origin === "null" ? url.protocol : url.origin];
}

function HiddenParams(props: { params: Params }) {
  return (
    <>
      {FIELDS.filter((name) => typeof props.params[name] === "string").map((name) => (
        <input key={name} type="hidden" name={name} value={props.params[name] as string} />
      ))}
    </>
  );
}

function Consent(props: {
  consent: Extract<PreAuthorization, { kind: "consent" }>;
  params: Params;
  user: string;
}) {
  const { consent } = props;
  return (
    <div id="oauth_consent">
      <p id="oauth_application">
        <strong id="oauth_application_name">{consent.application.name}</strong> asks to use your Kiln account{" "}
        <strong>{props.user}</strong>.
      </p>
      <h2>It will be able to</h2>
      <ul id="oauth_scopes">
        {consent.scopes.map((scope) => (
          <li key={scope} id={`oauth_scope_${scope}`}>
            <code>{scope}</code>: {SCOPE_WORDS[scope] ?? scope}
          </li>
        ))}
      </ul>
      <p class="hint" id="oauth_redirect_uri">
        {consent.redirectUri === OOB_REDIRECT_URI
          ? "A code will be shown here for you to copy into the application."
          : `You will be sent back to ${consent.redirectUri}`}
      </p>
      <div class="actions">
        <PostForm action={AUTHORIZE_PATH} id="oauth_authorize_form" class="inline">
          <HiddenParams params={props.params} />
          <Submit label="Authorize" id="authorize" />
        </PostForm>{" "}
        <PostForm action={DENY_PATH} id="oauth_deny_form" class="inline">
          <HiddenParams params={props.params} />
          <Submit label="Deny" id="deny" danger />
        </PostForm>
      </div>
    </div>
  );
}

/**
 * The out-of-band answer (Doorkeeper's native redirect): a page with the code to copy, or with why
 * there is none, since there is no client address to send the browser to.
 */
function showOutOfBand(page: SignedInPage, answer: URL): Served {
  const code = answer.searchParams.get("code");
  if (code !== null) {
    return page.render(
      "Authorization code",
      <div id="oauth_out_of_band">
        <p>
          Copy this code and paste it where the application asks for it. It works once, within ten minutes.
        </p>
        <p>
          <code id="authorization_code">{code}</code>
        </p>
      </div>,
    );
  }
  const why = answer.searchParams.get("error_description") ?? "The authorization request was refused.";
  const denied = answer.searchParams.get("error") === "access_denied";
  return page.render("Authorization refused", <p id="error_message">{why}</p>, denied ? 200 : 400);
}

/** Sends the browser back to the client with the answer, or shows it when the client asked out of band. */
function answerClient(page: SignedInPage, redirectTo: string): Served {
  const answer = new URL(redirectTo);
  if (`${answer.protocol}${answer.pathname}` === OOB_REDIRECT_URI) return showOutOfBand(page, answer);
  return page.redirectToClient(redirectTo);
}

async function showConsent(page: SignedInPage): Promise<Served> {
  const params = requestParams((name) => page.url.searchParams.get(name));
  const checked = await authorizeStep(
    page,
    (input) => invoke(oauth.preAuthorize, page.context, input),
    params,
  );
  if (!checked.ok) return checked.served;
  const found = checked.value;
  if (found.kind === "redirect") return answerClient(page, found.redirectTo);
  return page.render(
    `Authorize ${found.application.name}?`,
    <Consent consent={found} params={params} user={page.visitor.actor.user.username} />,
    200,
    { formAction: formTargets(found.redirectUri) },
  );
}

/** Approves or denies the request the consent form carries, checked again from scratch. */
async function decide(page: SignedInPage, form: Form, decision: "approve" | "deny"): Promise<Served> {
  const params = requestParams((name) => (name in form.params ? form.text(name) : null));
  const decided = await authorizeStep(page, (input) => invoke(oauth[decision], page.context, input), params);
  if (!decided.ok) return decided.served;
  return answerClient(page, decided.value.redirectTo);
}

/** The OAuth 2.0 consent page: asks the signed-in user, then sends the browser back to the client. */
export const authorizeRoutes: WebRoute[] = [
  pageRoute("GET", AUTHORIZE_PATH, showConsent, "signed_in"),
  pageRoute("POST", AUTHORIZE_PATH, (page, form) => decide(page, form as Form, "approve"), "signed_in"),
  pageRoute("POST", DENY_PATH, (page, form) => decide(page, form as Form, "deny"), "signed_in"),
];
