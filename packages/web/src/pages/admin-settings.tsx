import type { ApplicationSettings } from "@kiln/domain";
import { settings } from "@kiln/services";
import type { Form } from "../http/form.js";
import type { WebRoute } from "../route.js";
import { Checkbox, Field, FormErrors, PostForm, Submit } from "./components.js";
import { type FormFailure, NO_FAILURE } from "./failures.js";
import { run, submit } from "./operations.js";
import { pageRoute, type SignedInPage } from "./page.js";

/** The switches of the page, as checkboxes. */
const SWITCHES = [
  ["signin_enabled", "Sign-in with a password enabled"],
  ["signup_enabled", "Sign-up enabled"],
  ["gravatar_enabled", "Gravatar enabled"],
  ["user_oauth_applications", "Users may register OAuth applications"],
  ["require_two_factor_authentication", "Require two-factor authentication of everyone"],
] as const;

/** The numbers of the page. */
const NUMBERS = [
  ["default_projects_limit", "Default projects limit", "Projects a new user may create."],
  ["max_attachment_size", "Maximum attachment size (MB)", undefined],
  ["max_artifacts_size", "Maximum artifacts size (MB)", undefined],
  [
    "session_expire_delay",
    "Session duration (minutes)",
    "How long a browser stays signed in unused; 0 keeps it signed in until the browser closes.",
  ],
  [
    "two_factor_grace_period",
    "Two-factor grace period (hours)",
    "While two-factor authentication is required, how long a user may still sign in without it.",
  ],
] as const;

/** The texts of the page; empty means none. */
const TEXTS = [
  ["home_page_url", "Home page URL"],
  ["after_sign_out_path", "After sign-out path"],
  ["sign_in_text", "Sign-in text"],
] as const;

type Values = Record<string, string | number | boolean | null>;

function SettingsForm(props: { values: Values; failure: FormFailure }) {
  const { fields, general } = props.failure;
  return (
    <>
      <FormErrors errors={general} />
      <PostForm action="/admin/application_settings" id="application_settings_form">
        <fieldset>
          <legend>Access</legend>
          {SWITCHES.map(([name, label]) => (
            <Checkbox key={name} name={name} label={label} checked={props.values[name] === true} />
          ))}
        </fieldset>
        {NUMBERS.map(([name, label, hint]) => (
          <Field
            key={name}
            name={name}
            label={label}
            type="number"
            value={String(props.values[name] ?? "")}
            hint={hint}
            errors={fields[name]}
          />
        ))}
        {TEXTS.map(([name, label]) => (
          <Field
            key={name}
            name={name}
            label={label}
            value={String(props.values[name] ?? "")}
            errors={fields[name]}
          />
        ))}
        <Submit label="Save settings" id="save_application_settings" />
      </PostForm>
    </>
  );
}

/** The form's fields as the settings update's parameters (unchecked boxes are false, empty texts none). */
function settingsParams(form: Form): Values {
  const params: Values = {};
  for (const [name] of SWITCHES) params[name] = form.checked(name);
  for (const [name] of NUMBERS) params[name] = form.text(name);
  for (const [name] of TEXTS) params[name] = form.text(name) === "" ? null : form.text(name);
  return params;
}

const shown = (current: ApplicationSettings): Values => current as unknown as Values;

async function saveSettings(page: SignedInPage, form: Form) {
  const params = settingsParams(form);
  const outcome = await submit(page, settings.update, params);
  if (outcome.ok) {
    return page.redirect("/admin/application_settings", {
      kind: "notice",
      text: "Application settings saved.",
    });
  }
  return page.render("Application settings", <SettingsForm values={params} failure={outcome.failure} />, 400);
}

/** The administrators' application settings page (404 to anyone else). */
export const adminRoutes: WebRoute[] = [
  pageRoute(
    "GET",
    "/admin/application_settings",
    async (page) => {
      const view = await run(page, settings.get);
      return page.render(
        "Application settings",
        <SettingsForm values={shown(view.settings)} failure={NO_FAILURE} />,
      );
    },
    "admin",
  ),
  pageRoute("POST", "/admin/application_settings", (page, form) => saveSettings(page, form as Form), "admin"),
];
