import type { PersonalAccessToken } from "@kiln/domain";
import { tokens } from "@kiln/services";
import type { Form } from "../../http/form.js";
import type { WebRoute } from "../../route.js";
import { Field, FormErrors, ListTable, PostForm, RowAction, Submit } from "../components.js";
import { type FormFailure, NO_FAILURE } from "../failures.js";
import { run, submit } from "../operations.js";
import { pageRoute, type SignedInPage } from "../page.js";
import { ScopeChoices } from "./scopes.js";

function TokenForm(props: { failure: FormFailure; name?: string; expiresAt?: string; scopes?: string[] }) {
  const { fields, general } = props.failure;
  const chosen = props.scopes ?? ["api"];
  return (
    <section aria-labelledby="new_token_heading">
      <h2 id="new_token_heading">New personal access token</h2>
      <FormErrors errors={general} />
      <PostForm action="/profile/personal_access_tokens" id="new_personal_access_token_form">
        <Field name="name" label="Name" value={props.name ?? ""} required errors={fields["name"]} />
        <Field
          name="expires_at"
          label="Expires at"
          type="date"
          value={props.expiresAt ?? ""}
          hint="Optional. The token stops working at the start of that day (UTC)."
          errors={fields["expires_at"]}
        />
        <ScopeChoices chosen={chosen} errors={fields["scopes"]} />
        <Submit label="Create personal access token" id="create_personal_access_token" />
      </PostForm>
    </section>
  );
}

function TokenList(props: { tokens: PersonalAccessToken[] }) {
  if (props.tokens.length === 0)
    return <p id="no_personal_access_tokens">You have no personal access tokens.</p>;
  return (
    <ListTable id="personal_access_tokens" columns={["Name", "Created", "Expires", "State"]}>
      {props.tokens.map((token) => (
        <tr key={token.id} id={`personal_access_token_${token.id}`}>
          <td>{token.name}</td>
          <td>{token.created_at}</td>
          <td>{token.expires_at ?? "Never"}</td>
          <td>{token.revoked ? "Revoked" : "Active"}</td>
          <td>
            {!token.revoked && (
              <RowAction
                action="/profile/personal_access_tokens/revoke"
                field="id"
                value={token.id}
                label={`Revoke ${token.name}`}
                id={`revoke_personal_access_token_${token.id}`}
              />
            )}
          </td>
        </tr>
      ))}
    </ListTable>
  );
}

function CreatedToken(props: { token: string }) {
  return (
    <div class="flash notice" role="status">
      <p>Your new personal access token is shown this once; copy it now:</p>
      <p class="secret" id="created_personal_access_token">
        {props.token}
      </p>
    </div>
  );
}

async function tokensPage(
  page: SignedInPage,
  extra: {
    created?: string;
    failure?: FormFailure;
    entered?: { name: string; expiresAt: string; scopes: string[] };
  },
  status = 200,
) {
  const list = await run(page, tokens.listPersonal);
  return page.render(
    "Personal access tokens",
    <>
      {extra.created && <CreatedToken token={extra.created} />}
      <p>
        Personal access tokens authenticate you to the API and to git over HTTP, like your password would.
      </p>
      <TokenForm failure={extra.failure ?? NO_FAILURE} {...extra.entered} />
      <h2>Your tokens</h2>
      <TokenList tokens={list} />
    </>,
    status,
  );
}

async function createToken(page: SignedInPage, form: Form) {
  const entered = {
    name: form.text("name"),
    expiresAt: form.text("expires_at"),
    scopes: form.list("scopes"),
  };
  const params: Record<string, unknown> = { name: entered.name, scopes: entered.scopes };
  if (entered.expiresAt) params["expires_at"] = entered.expiresAt;
  const outcome = await submit(page, tokens.createPersonal, params);
  if (!outcome.ok) return tokensPage(page, { failure: outcome.failure, entered }, 400);
  return tokensPage(page, { created: outcome.value.token });
}

/** The personal access tokens page: created (shown once), listed, revoked. */
export const tokenRoutes: WebRoute[] = [
  pageRoute("GET", "/profile/personal_access_tokens", (page) => tokensPage(page, {}), "signed_in"),
  pageRoute(
    "POST",
    "/profile/personal_access_tokens",
    (page, form) => createToken(page, form as Form),
    "signed_in",
  ),
  pageRoute(
    "POST",
    "/profile/personal_access_tokens/revoke",
    async (page, form) => {
      const revoked = await submit(page, tokens.revokePersonal, { id: (form as Form).text("id") });
      if (!revoked.ok) return page.error(404, "That token does not exist or was revoked already.");
      return page.redirect("/profile/personal_access_tokens", {
        kind: "notice",
        text: "The token was revoked.",
      });
    },
    "signed_in",
  ),
];
