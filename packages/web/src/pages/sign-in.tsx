import { DomainError, type User } from "@kiln/domain";
import type { Served } from "@kiln/rest-adapter";
import {
  endWebSession,
  signInWithPassword,
  startWebSession,
  twoFactorRequiredNow,
  verifySecondFactor,
} from "@kiln/services";
import { clearCookie, readCookie } from "../http/cookies.js";
import type { Form } from "../http/form.js";
import { localPath } from "../http/local-path.js";
import type { WebRoute } from "../route.js";
import { Field, FormErrors, PostForm, Submit } from "./components.js";
import { type Page, pageRoute, SIGN_IN_PATH, SIGN_OUT_PATH, TWO_FACTOR_PATH } from "./page.js";
import {
  clearSecondFactor,
  pendingSecondFactor,
  type SecondFactorPending,
  secondFactorCookie,
} from "./second-factor.js";
import { SESSION_COOKIE, sessionCookie } from "./visitor.js";

/** Where a user lands after signing in without asking for a page. */
export const HOME_PATH = "/profile";

/** What sign-in answers to a wrong login or password alike (Devise's words). */
export const INVALID_LOGIN = "Invalid login or password.";

function SignInForm(props: { login: string; redirectTo: string; errors: string[]; enabled: boolean }) {
  if (!props.enabled) {
    return (
      <p class="flash alert" id="signin_disabled">
        Signing in with a password is disabled on this server.
      </p>
    );
  }
  return (
    <div class="narrow">
      <FormErrors errors={props.errors} />
      <PostForm action={SIGN_IN_PATH} id="sign_in_form">
        <input type="hidden" name="redirect_to" value={props.redirectTo} />
        <Field
          name="login"
          label="Username or email"
          value={props.login}
          required
          autocomplete="username"
          autofocus
        />
        <Field name="password" label="Password" type="password" required autocomplete="current-password" />
        <Submit label="Sign in" id="sign_in" />
      </PostForm>
    </div>
  );
}

function TwoFactorForm(props: { errors: string[] }) {
  return (
    <div class="narrow">
      <FormErrors errors={props.errors} />
      <PostForm action="/users/two_factor" id="two_factor_form">
        <Field
          name="code"
          label="Authentication code"
          hint="The six-digit code of your authenticator app, or one of your recovery codes."
          required
          autocomplete="one-time-code"
          autofocus
        />
        <Submit label="Verify code" id="verify_code" />
      </PostForm>
    </div>
  );
}

/** Signs the browser in as `userId`: a new session (any earlier one of this browser ends), then on to `redirectTo`. */
async function signIn(page: Page, userId: number, redirectTo: string): Promise<Served> {
  const previous = readCookie(page.req, SESSION_COOKIE);
  if (previous) await endWebSession(page.web.runtime, previous);
  const { cookieValue } = await startWebSession(page.web.runtime, {
    userId,
    address: page.address,
    userAgent: page.req.headers["user-agent"] ?? "",
  });
  page.cookies.push(await sessionCookie(page.web, cookieValue));
  return page.redirect(localPath(redirectTo, HOME_PATH));
}

async function showSignIn(page: Page, form: { login: string; redirectTo: string }, errors: string[] = []) {
  const { signin_enabled } = await page.web.runtime.settings();
  return page.render(
    "Sign in",
    <SignInForm login={form.login} redirectTo={form.redirectTo} errors={errors} enabled={signin_enabled} />,
    errors.length > 0 ? 401 : 200,
  );
}

/** A wait as people say it: "45 seconds", "1 minute", "10 minutes" (minutes rounded up). */
function waitWords(seconds: number): string {
  if (seconds < 60) return seconds === 1 ? "1 second" : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? "1 minute" : `${minutes} minutes`;
}

/** The message of a refused sign-in, never telling whether the login or the password was wrong. */
function signInRefusal(error: unknown): string {
  if (!DomainError.is(error)) throw error;
  const failure = error.failure;
  if (failure.kind !== "rate_limited") return INVALID_LOGIN;
  const wait = waitWords(failure.retryAfterSeconds);
  return failure.reason === "sign_in_account_locked"
    ? `This account is locked after too many failed sign-ins. Try again in ${wait}.`
    : `Too many sign-in attempts from your address. Try again in ${wait}.`;
}

async function postSignIn(page: Page, form: Form): Promise<Served> {
  const entered = { login: form.text("login"), redirectTo: localPath(form.text("redirect_to"), "") };
  const { runtime } = page.web;
  if (!(await runtime.settings()).signin_enabled) return showSignIn(page, entered);
  let signedIn: { user: User; needsSecondFactor: boolean };
  try {
    signedIn = await signInWithPassword(runtime, {
      login: entered.login,
      password: form.text("password"),
      address: page.address,
      surface: "web",
    });
  } catch (error) {
    return showSignIn(page, entered, [signInRefusal(error)]);
  }
  const { user } = signedIn;
  if (!signedIn.needsSecondFactor) {
    // GitLab's behaviour: past the grace period, enrolment comes before anything else.
    const enrol = await twoFactorRequiredNow(runtime, user);
    return signIn(page, user.id, enrol ? TWO_FACTOR_PATH : entered.redirectTo);
  }
  const pending: SecondFactorPending = { userId: user.id, redirectTo: entered.redirectTo };
  page.cookies.push(secondFactorCookie(page, pending));
  return page.redirect("/users/two_factor");
}

async function postTwoFactor(page: Page, form: Form): Promise<Served> {
  const pending = pendingSecondFactor(page);
  if (!pending) return page.redirect(SIGN_IN_PATH, { kind: "alert", text: "Sign in again." });
  let accepted: boolean;
  try {
    accepted = await verifySecondFactor(page.web.runtime, {
      userId: pending.userId,
      code: form.text("code").trim(),
      address: page.address,
    });
  } catch (error) {
    return page.render("Two-factor authentication", <TwoFactorForm errors={[signInRefusal(error)]} />, 401);
  }
  if (!accepted) {
    return page.render(
      "Two-factor authentication",
      <TwoFactorForm errors={["Invalid two-factor code."]} />,
      401,
    );
  }
  page.cookies.push(clearSecondFactor(page));
  return signIn(page, pending.userId, pending.redirectTo);
}

/** Sign in (username or email, and password), its second step, sign out, and `/`. */
export const signInRoutes: WebRoute[] = [
  pageRoute("GET", "/", async (page) => page.redirect(page.user ? HOME_PATH : SIGN_IN_PATH)),
  pageRoute("GET", SIGN_IN_PATH, async (page) => {
    const redirectTo = localPath(page.url.searchParams.get("redirect_to"), "");
    if (page.user) return page.redirect(localPath(redirectTo, HOME_PATH));
    return showSignIn(page, { login: "", redirectTo });
  }),
  pageRoute("POST", SIGN_IN_PATH, (page, form) => postSignIn(page, form as Form)),
  pageRoute("GET", "/users/two_factor", async (page) => {
    if (!pendingSecondFactor(page)) return page.redirect(SIGN_IN_PATH);
    return page.render("Two-factor authentication", <TwoFactorForm errors={[]} />);
  }),
  pageRoute("POST", "/users/two_factor", (page, form) => postTwoFactor(page, form as Form)),
  pageRoute(
    "POST",
    SIGN_OUT_PATH,
    async (page) => {
      const cookieValue = readCookie(page.req, SESSION_COOKIE);
      if (cookieValue) await endWebSession(page.web.runtime, cookieValue);
      page.cookies.push(clearCookie(SESSION_COOKIE, { secure: page.secure }));
      return page.redirect(SIGN_IN_PATH, { kind: "notice", text: "Signed out successfully." });
    },
    "signed_in",
  ),
];
