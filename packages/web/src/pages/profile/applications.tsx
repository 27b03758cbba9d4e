import type { OAuthApplication } from "@kiln/domain";
import {
  type OAuthApplicationWithSecret,
  type OAuthAuthorization,
  oauthApplications,
  oauthAuthorizations,
} from "@kiln/services";
import type { Form } from "../../http/form.js";
import type { WebRoute } from "../../route.js";
import { Field, FormErrors, ListTable, PostForm, RowAction, Submit, TextArea } from "../components.js";
import { type FormFailure, NO_FAILURE } from "../failures.js";
import { run, submit } from "../operations.js";
import { pageRoute, type SignedInPage } from "../page.js";
import { ScopeChoices } from "./scopes.js";

const APPLICATIONS_PATH = "/profile/applications";

/** What the form was filled with, shown again when it is refused. */
interface Entered {
  name: string;
  redirectUri: string;
  scopes: string[];
}

function ApplicationForm(props: { failure: FormFailure; entered?: Entered | undefined }) {
  const { fields, general } = props.failure;
  return (
    <section aria-labelledby="new_application_heading">
      <h2 id="new_application_heading">New application</h2>
      <FormErrors errors={general} />
      <PostForm action={APPLICATIONS_PATH} id="new_oauth_application_form">
        <Field name="name" label="Name" value={props.entered?.name ?? ""} required errors={fields["name"]} />
        <TextArea
          name="redirect_uri"
          label="Redirect URIs (one per line)"
          value={props.entered?.redirectUri ?? ""}
          required
          rows={3}
          errors={fields["redirect_uri"]}
        />
        <ScopeChoices chosen={props.entered?.scopes ?? ["api"]} errors={fields["scopes"]} />
        <Submit label="Save application" id="create_oauth_application" />
      </PostForm>
    </section>
  );
}

/** The client id and the secret just minted, shown this once. */
function Credentials(props: { minted: OAuthApplicationWithSecret }) {
  return (
    <div class="flash notice" role="status" id="oauth_application_credentials">
      <p>
        The credentials of <strong>{props.minted.application.name}</strong>. The secret is shown this once;
        copy it now.
      </p>
      <p>Application id (client_id):</p>
      <p class="secret" id="oauth_application_uid">
        {props.minted.application.uid}
      </p>
      <p>Secret (client_secret):</p>
      <p class="secret" id="oauth_application_secret">
        {props.minted.secret}
      </p>
    </div>
  );
}

function ApplicationList(props: { applications: OAuthApplication[] }) {
  if (props.applications.length === 0)
    return <p id="no_oauth_applications">You have registered no applications.</p>;
  return (
    <ListTable id="oauth_applications" columns={["Name", "Application id", "Redirect URIs", "Scopes"]}>
      {props.applications.map((application) => (
        <tr key={application.id} id={`oauth_application_${application.id}`}>
          <td>{application.name}</td>
          <td>
            <code>{application.uid}</code>
          </td>
          <td>
            {application.redirect_uri.split("\n").map((uri) => (
              <div key={uri}>{uri}</div>
            ))}
          </td>
          <td>{application.scopes}</td>
          <td>
            <RowAction
              action={`${APPLICATIONS_PATH}/reset_secret`}
              field="id"
              value={application.id}
              label={`Reset the secret of ${application.name}`}
              id={`reset_secret_oauth_application_${application.id}`}
            />{" "}
            <RowAction
              action={`${APPLICATIONS_PATH}/delete`}
              field="id"
              value={application.id}
              label={`Delete ${application.name}`}
              id={`delete_oauth_application_${application.id}`}
            />
          </td>
        </tr>
      ))}
    </ListTable>
  );
}

function AuthorizationList(props: { authorizations: OAuthAuthorization[] }) {
  if (props.authorizations.length === 0)
    return <p id="no_oauth_authorizations">You have authorised no applications.</p>;
  return (
    <ListTable id="oauth_authorizations" columns={["Application", "Scopes", "Authorised"]}>
      {props.authorizations.map(({ application, scopes, created_at }) => (
        <tr key={application.id} id={`oauth_authorization_${application.id}`}>
          <td>{application.name}</td>
          <td>{scopes.join(" ")}</td>
          <td>{created_at}</td>
          <td>
            <RowAction
              action={`${APPLICATIONS_PATH}/revoke_authorization`}
              field="application_id"
              value={application.id}
              label={`Revoke ${application.name}`}
              id={`revoke_oauth_authorization_${application.id}`}
            />
          </td>
        </tr>
      ))}
    </ListTable>
  );
}

async function applicationsPage(
  page: SignedInPage,
  extra: { minted?: OAuthApplicationWithSecret; failure?: FormFailure; entered?: Entered },
  status = 200,
) {
  const mayRegister =
    (await page.web.runtime.settings()).user_oauth_applications || page.visitor.actor.user.is_admin;
  const applications = await run(page, oauthApplications.listOwn);
  const authorizations = await run(page, oauthAuthorizations.listOwn);
  return page.render(
    "Applications",
    <>
      {extra.minted && <Credentials minted={extra.minted} />}
      <p>Applications you register here can ask Kiln users, through OAuth 2.0, to act for them.</p>
      {mayRegister ? (
        <ApplicationForm failure={extra.failure ?? NO_FAILURE} entered={extra.entered} />
      ) : (
        <p class="flash alert" id="oauth_applications_disabled">
          On this server only administrators may register OAuth applications.
        </p>
      )}
      <h2>Your applications</h2>
      <ApplicationList applications={applications} />
      <h2>Authorised applications</h2>
      <p>The applications you allowed to act for you. Revoking one ends every token it holds for you.</p>
      <AuthorizationList authorizations={authorizations} />
    </>,
    status,
  );
}

async function createApplication(page: SignedInPage, form: Form) {
  const entered = {
    name: form.text("name"),
    redirectUri: form.text("redirect_uri"),
    scopes: form.list("scopes"),
  };
  const outcome = await submit(page, oauthApplications.createOwn, {
    name: entered.name,
    redirect_uri: entered.redirectUri,
    scopes: entered.scopes,
  });
  if (!outcome.ok) return applicationsPage(page, { failure: outcome.failure, entered }, 400);
  return applicationsPage(page, { minted: outcome.value });
}

/** The applications page: one's OAuth applications (secret shown once) and the ones one authorised. */
export const applicationRoutes: WebRoute[] = [
  pageRoute("GET", APPLICATIONS_PATH, (page) => applicationsPage(page, {}), "signed_in"),
  pageRoute("POST", APPLICATIONS_PATH, (page, form) => createApplication(page, form as Form), "signed_in"),
  pageRoute(
    "POST",
    `${APPLICATIONS_PATH}/reset_secret`,
    async (page, form) => {
      const reset = await submit(page, oauthApplications.resetSecretOwn, { id: (form as Form).text("id") });
      if (!reset.ok) return page.error(404, "That application does not exist.");
      return applicationsPage(page, { minted: reset.value });
    },
    "signed_in",
  ),
  pageRoute(
    "POST",
    `${APPLICATIONS_PATH}/delete`,
    async (page, form) => {
      const deleted = await submit(page, oauthApplications.deleteOwn, { id: (form as Form).text("id") });
      if (!deleted.ok) return page.error(404, "That application does not exist.");
      return page.redirect(APPLICATIONS_PATH, { kind: "notice", text: "The application was deleted." });
    },
    "signed_in",
  ),
  pageRoute(
    "POST",
    `${APPLICATIONS_PATH}/revoke_authorization`,
    async (page, form) => {
      const revoked = await submit(page, oauthAuthorizations.revokeOwn, {
        application_id: (form as Form).text("application_id"),
      });
      if (!revoked.ok) return page.error(404, "You have not authorised that application.");
      return page.redirect(APPLICATIONS_PATH, {
        kind: "notice",
        text: "The application's access was revoked.",
      });
    },
    "signed_in",
  ),
];
