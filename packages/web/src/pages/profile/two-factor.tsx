import type { CurrentPasswordInput } from "@kiln/schemas";
import { type Operation, twoFactor } from "@kiln/services";
import type { Form } from "../../http/form.js";
import type { WebRoute } from "../../route.js";
import { Field, FormErrors, PostForm, Submit } from "../components.js";
import { type FormFailure, formFailure, NO_FAILURE } from "../failures.js";
import { run, submit } from "../operations.js";
import { pageRoute, type SignedInPage, TWO_FACTOR_PATH } from "../page.js";

const TITLE = "Two-factor authentication";

/** A secret being enrolled, as the setup form shows it (again, after a wrong code). */
interface Setup {
  secret: string;
  qrDataUri: string;
}

/** Only a QR code the services drew goes back into an `<img>` (the setup form carries it). */
const QR_DATA_URI = /^data:image\/svg\+xml;base64,[A-Za-z0-9+/]+={0,2}$/;
const BASE32 = /^[A-Z2-7]{16,128}$/;

type Status = Awaited<ReturnType<typeof twoFactor.status.run>>;

function StatusSection(props: { status: Status; failure: FormFailure }) {
  const { status } = props;
  if (!status.enabled) {
    return (
      <section>
        <p id="two_factor_status">Two-factor authentication is not enabled.</p>
        {status.graceEndsAt && (
          <p class="flash alert" id="two_factor_required">
            This server requires two-factor authentication. Set it up before {status.graceEndsAt}; after that
            you can do nothing else until you have.
          </p>
        )}
        <p>
          With it, signing in asks for a code from an authenticator app on your phone (FreeOTP, Google
          Authenticator and the like) besides your password.
        </p>
        <PostForm action={`${TWO_FACTOR_PATH}/begin`} id="begin_two_factor_form">
          <Submit label="Set up two-factor authentication" id="begin_two_factor" />
        </PostForm>
      </section>
    );
  }
  const { fields, general } = props.failure;
  return (
    <section>
      <p id="two_factor_status">Two-factor authentication is enabled.</p>
      <p id="recovery_codes_left">
        {status.recoveryCodesLeft} of your recovery codes {status.recoveryCodesLeft === 1 ? "is" : "are"}{" "}
        left.
      </p>
      <p>
        The API's <code>POST /session</code> and the OAuth password grant no longer take your password: use a
        personal access token instead.
      </p>
      <FormErrors errors={general} />
      <h2>New recovery codes</h2>
      <PostForm action={`${TWO_FACTOR_PATH}/codes`} id="regenerate_recovery_codes_form">
        <Field
          name="password"
          id="regenerate_password"
          label="Current password"
          type="password"
          required
          autocomplete="current-password"
          errors={fields["regenerate_password"]}
        />
        <Submit label="Regenerate recovery codes" id="regenerate_recovery_codes" />
      </PostForm>
      <h2>Turn it off</h2>
      <PostForm action={`${TWO_FACTOR_PATH}/disable`} id="disable_two_factor_form">
        <Field
          name="password"
          id="disable_password"
          label="Current password"
          type="password"
          required
          autocomplete="current-password"
          errors={fields["disable_password"]}
        />
        <Submit label="Disable two-factor authentication" id="disable_two_factor" danger />
      </PostForm>
    </section>
  );
}

function SetupSection(props: { setup: Setup; failure: FormFailure }) {
  const { fields, general } = props.failure;
  return (
    <section>
      <FormErrors errors={general} />
      <p>Scan this QR code with your authenticator app:</p>
      <img
        id="two_factor_qr"
        src={props.setup.qrDataUri}
        alt="QR code of your two-factor secret"
        width={200}
        height={200}
      />
      <p>Or enter this secret by hand (time-based, 6 digits, 30 seconds):</p>
      <p class="secret" id="two_factor_secret">
        {props.setup.secret}
      </p>
      <PostForm action={`${TWO_FACTOR_PATH}/confirm`} id="confirm_two_factor_form">
        <input type="hidden" name="secret" value={props.setup.secret} />
        <input type="hidden" name="qr" value={props.setup.qrDataUri} />
        <Field
          name="code"
          label="Code from the app"
          required
          autocomplete="one-time-code"
          autofocus
          errors={fields["code"]}
        />
        <Submit label="Enable two-factor authentication" id="confirm_two_factor" />
      </PostForm>
    </section>
  );
}

function RecoveryCodes(props: { codes: string[] }) {
  return (
    <section>
      <div class="flash notice" role="status" id="recovery_codes_hint">
        Store these recovery codes somewhere safe (a password manager, or printed): each signs you in once if
        you lose your phone. They are shown this once.
      </div>
      <ul id="recovery_codes" class="secret">
        {props.codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <p>
        <a href={TWO_FACTOR_PATH} id="recovery_codes_done">
          I have stored them
        </a>
      </p>
    </section>
  );
}

async function statusPage(page: SignedInPage, failure: FormFailure = NO_FAILURE, status = 200) {
  const current = await run(page, twoFactor.status);
  return page.render(TITLE, <StatusSection status={current} failure={failure} />, status);
}

async function setupPage(page: SignedInPage, setup: Setup, failure: FormFailure = NO_FAILURE, status = 200) {
  return page.render(TITLE, <SetupSection setup={setup} failure={failure} />, status);
}

async function confirm(page: SignedInPage, form: Form) {
  const confirmed = await submit(page, twoFactor.confirm, { code: form.text("code").trim() });
  if (confirmed.ok) return page.render(TITLE, <RecoveryCodes codes={confirmed.value.recoveryCodes} />);
  const shown = { secret: form.text("secret"), qrDataUri: form.text("qr") };
  // A form that cannot show the same secret again starts over with a new one.
  if (!BASE32.test(shown.secret) || !QR_DATA_URI.test(shown.qrDataUri))
    return page.redirect(TWO_FACTOR_PATH, { kind: "alert", text: "Start the setup again." });
  return setupPage(page, shown, confirmed.failure, 400);
}

/**
 * Runs an operation asking for the password again (disable, new recovery codes); a wrong password
 * is shown under the field of the form that sent it.
 */
async function withPassword<O>(
  page: SignedInPage,
  form: Form,
  operation: Operation<typeof CurrentPasswordInput, O>,
  field: string,
  then: (value: O) => ReturnType<typeof statusPage>,
) {
  const outcome = await submit(page, operation, { password: form.text("password") });
  if (outcome.ok) return then(outcome.value);
  const { fields, general } = outcome.failure;
  return statusPage(
    page,
    { fields: fields["password"] ? { [field]: fields["password"] } : {}, general },
    400,
  );
}

/** The two-factor page: status, enrolment (QR code, confirm, recovery codes once), new codes, disable. */
export const twoFactorRoutes: WebRoute[] = [
  pageRoute("GET", TWO_FACTOR_PATH, (page) => statusPage(page), "signed_in"),
  pageRoute(
    "POST",
    `${TWO_FACTOR_PATH}/begin`,
    async (page) => {
      try {
        return setupPage(page, await run(page, twoFactor.begin));
      } catch (error) {
        return statusPage(page, formFailure(error), 400);
      }
    },
    "signed_in",
  ),
  pageRoute("POST", `${TWO_FACTOR_PATH}/confirm`, (page, form) => confirm(page, form as Form), "signed_in"),
  pageRoute(
    "POST",
    `${TWO_FACTOR_PATH}/codes`,
    (page, form) =>
      withPassword(
        page,
        form as Form,
        twoFactor.regenerateRecoveryCodes,
        "regenerate_password",
        async ({ recoveryCodes }) => page.render(TITLE, <RecoveryCodes codes={recoveryCodes} />),
      ),
    "signed_in",
  ),
  pageRoute(
    "POST",
    `${TWO_FACTOR_PATH}/disable`,
    (page, form) =>
      withPassword(page, form as Form, twoFactor.disable, "disable_password", async () =>
        page.redirect(TWO_FACTOR_PATH, { kind: "notice", text: "Two-factor authentication was disabled." }),
      ),
    "signed_in",
  ),
];
