import type { User } from "@kiln/domain";
import { account } from "@kiln/services";
import type { Form } from "../../http/form.js";
import type { WebRoute } from "../../route.js";
import { Field, FormErrors, PostForm, Submit } from "../components.js";
import { type FormFailure, NO_FAILURE } from "../failures.js";
import { run, submit } from "../operations.js";
import { pageRoute, type SignedInPage } from "../page.js";
import { startFreshSession } from "./sessions.js";

function ProfileForm(props: { user: Pick<User, "name" | "email" | "username">; failure: FormFailure }) {
  const { fields, general } = props.failure;
  return (
    <>
      <p>
        Username: <strong id="username">{props.user.username}</strong>
      </p>
      <FormErrors errors={general} />
      <PostForm action="/profile" id="profile_form">
        <Field
          name="name"
          label="Name"
          value={props.user.name}
          required
          autocomplete="name"
          errors={fields["name"]}
        />
        <Field
          name="email"
          label="Email"
          type="email"
          value={props.user.email}
          required
          autocomplete="email"
          errors={fields["email"]}
        />
        <Submit label="Update profile" id="update_profile" />
      </PostForm>
    </>
  );
}

function PasswordForm(props: { failure: FormFailure }) {
  const { fields, general } = props.failure;
  return (
    <>
      <p>After a password change, every other browser signed in as you is signed out.</p>
      <FormErrors errors={general} />
      <PostForm action="/profile/password" id="password_form">
        <Field
          name="current_password"
          label="Current password"
          type="password"
          required
          autocomplete="current-password"
          errors={fields["current_password"]}
        />
        <Field
          name="password"
          label="New password"
          type="password"
          required
          autocomplete="new-password"
          errors={fields["password"]}
        />
        <Field
          name="password_confirmation"
          label="Confirm new password"
          type="password"
          required
          autocomplete="new-password"
          errors={fields["password_confirmation"]}
        />
        <Submit label="Change password" id="change_password" />
      </PostForm>
    </>
  );
}

function PrivateToken(props: { token: string }) {
  return (
    <>
      <p>
        Your private token authenticates you to the API (<code>PRIVATE-TOKEN</code> header or{" "}
        <code>private_token</code> parameter). Keep it secret; reset it if it leaked.
      </p>
      <p class="secret" id="private_token">
        {props.token}
      </p>
      <PostForm action="/profile/reset_private_token" id="reset_private_token_form">
        <Submit label="Reset private token" id="reset_private_token" danger />
      </PostForm>
    </>
  );
}

async function updateProfile(page: SignedInPage, form: Form) {
  const entered = { name: form.text("name"), email: form.text("email") };
  const outcome = await submit(page, account.updateProfile, entered);
  if (outcome.ok)
    return page.redirect("/profile", { kind: "notice", text: "Profile was successfully updated." });
  const user = { ...entered, username: page.visitor.actor.user.username };
  return page.render("Account", <ProfileForm user={user} failure={outcome.failure} />, 400);
}

async function changePassword(page: SignedInPage, form: Form) {
  const outcome = await submit(page, account.changePassword, {
    current_password: form.text("current_password"),
    password: form.text("password"),
    password_confirmation: form.text("password_confirmation"),
  });
  if (!outcome.ok) return page.render("Password", <PasswordForm failure={outcome.failure} />, 400);
  // The change ended every session of the user, this one too: this browser goes on in a new one.
  await startFreshSession(page);
  return page.redirect("/profile/password", {
    kind: "notice",
    text: "Password was successfully updated. Your other sessions were signed out.",
  });
}

/** The account (name, email), password and private token pages. */
export const accountRoutes: WebRoute[] = [
  pageRoute(
    "GET",
    "/profile",
    async (page) =>
      page.render("Account", <ProfileForm user={page.visitor.actor.user} failure={NO_FAILURE} />),
    "signed_in",
  ),
  pageRoute("POST", "/profile", (page, form) => updateProfile(page, form as Form), "signed_in"),
  pageRoute(
    "GET",
    "/profile/password",
    async (page) => page.render("Password", <PasswordForm failure={NO_FAILURE} />),
    "signed_in",
  ),
  pageRoute("POST", "/profile/password", (page, form) => changePassword(page, form as Form), "signed_in"),
  pageRoute(
    "GET",
    "/profile/account",
    async (page) =>
      page.render("Private token", <PrivateToken token={await run(page, account.privateToken)} />),
    "signed_in",
  ),
  pageRoute(
    "POST",
    "/profile/reset_private_token",
    async (page) => {
      await run(page, account.resetPrivateToken);
      return page.redirect("/profile/account", { kind: "notice", text: "Your private token was reset." });
    },
    "signed_in",
  ),
];
