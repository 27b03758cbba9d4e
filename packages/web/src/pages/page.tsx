import type { IncomingMessage, ServerResponse } from "node:http";
import { DomainError, type User } from "@kiln/domain";
import { BodyError, clientAddress, drainBeforeAnswer, type Served } from "@kiln/rest-adapter";
import { type Actor, type Context, twoFactorRequiredNow, type WebSession } from "@kiln/services";
import type { VNode } from "preact";
import { render } from "preact-render-to-string";
import { clearCookie, setCookie } from "../http/cookies.js";
import { CSRF_FIELD, csrfTokenMatches } from "../http/csrf.js";
import { type Form, readForm } from "../http/form.js";
import { contentSecurityPolicy, PAGE_HEADERS } from "../http/headers.js";
import type { WebContext, WebRoute } from "../route.js";
import { CsrfToken } from "./components.js";
import { FLASH_COOKIE, type Flash, flashValue, readFlash } from "./flash.js";
import { Layout } from "./layout.js";
import { identifyVisitor, isSecure, type Visitor } from "./visitor.js";

/** The sign-in page. */
export const SIGN_IN_PATH = "/users/sign_in";
/** The profile's two-factor authentication page (enrolment). */
export const TWO_FACTOR_PATH = "/profile/two_factor_auth";
/** Sign-out. */
export const SIGN_OUT_PATH = "/users/sign_out";

/** One page request: who sends it, its URL, and how to answer it. */
export class Page {
  /** `Set-Cookie` values of the answer. */
  readonly cookies: string[];
  readonly #flash: Flash | null;

  constructor(
    readonly web: WebContext,
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly url: URL,
    readonly visitor: Visitor,
    cookies: string[],
  ) {
    this.cookies = cookies;
    this.#flash = readFlash(req);
    if (this.#flash) this.cookies.push(clearCookie(FLASH_COOKIE, { secure: this.secure }));
  }

  /** True when cookies are `Secure`. */
  get secure(): boolean {
    return isSecure(this.web);
  }

  /** The signed-in user, or null. */
  get user(): User | null {
    return this.visitor.signedIn ? this.visitor.actor.user : null;
  }

  /** The client's address, as the API's sign-ins read it (for the sign-in throttle). */
  get address(): string {
    return clientAddress(this.req);
  }

  /** The services' context of the visitor (anonymous before sign-in). */
  get context(): Context {
    return {
      runtime: this.web.runtime,
      actor: this.visitor.signedIn ? this.visitor.actor : null,
      system: false,
    };
  }

  /**
   * Answers a page: `title` and `content` in the layout, with the security headers of every page;
   * `formAction` widens where its forms may lead (the CSP's `form-action`, Kiln only by default).
   */
  render(title: string, content: VNode, status = 200, options: { formAction?: string[] } = {}): Served {
    const page = (
      <CsrfToken.Provider value={this.visitor.csrfToken}>
        <Layout title={title} user={this.user} flash={this.#flash} path={this.url.pathname}>
          {content}
        </Layout>
      </CsrfToken.Provider>
    );
    const html = `<!DOCTYPE html>\n${render(page)}`;
    this.res.writeHead(status, {
      ...PAGE_HEADERS,
      ...(options.formAction ? { "Content-Security-Policy": contentSecurityPolicy(options.formAction) } : {}),
      "Content-Type": "text/html; charset=utf-8",
      "Content-Length": Buffer.byteLength(html),
      ...(this.cookies.length > 0 ? { "Set-Cookie": this.cookies } : {}),
    });
    this.res.end(this.req.method === "HEAD" ? undefined : html);
    return this.served(status);
  }

  /** Answers `303 See Other` to a path of Kiln, with a message for the page it leads to. */
  redirect(location: string, flash?: Flash): Served {
    if (flash) this.cookies.push(setCookie(FLASH_COOKIE, flashValue(flash), { secure: this.secure }));
    return this.sendRedirect(303, location);
  }

  /**
   * Answers `302 Found` to an OAuth client's redirect URI, built by the services from the URI the
   * application registered (never from the request alone).
   */
  redirectToClient(location: string): Served {
    return this.sendRedirect(302, location);
  }

  private sendRedirect(status: 302 | 303, location: string): Served {
    this.res.writeHead(status, {
      ...PAGE_HEADERS,
      Location: location,
      "Content-Length": 0,
      ...(this.cookies.length > 0 ? { "Set-Cookie": this.cookies } : {}),
    });
    this.res.end();
    return this.served(status);
  }

  /** Answers an error page. */
  error(status: 403 | 404 | 400 | 413, message: string): Served {
    const titles = { 400: "Bad request", 403: "Forbidden", 404: "Not found", 413: "Request too large" };
    return this.render(titles[status], <p id="error_message">{message}</p>, status);
  }

  private served(status: number): Served {
    return { status, userId: this.user?.id ?? null };
  }
}

/** A page request of a signed-in user. */
export type SignedInPage = Page & { visitor: { signedIn: true; actor: Actor; session: WebSession } };

/** What a page route does with its request; `form` is the posted form, null for a GET. */
type PageHandler<P extends Page> = (page: P, form: Form | null) => Promise<Served>;

/** Who may open a page: anyone, signed-in users (others go to sign-in first), or administrators (404 for others). */
type Audience = "anyone" | "signed_in" | "admin";

/**
 * A route of a page. Every POST carries the visitor's CSRF token (their session's, or their
 * cookie's before sign-in), else it is refused with a 403 page before anything else happens. A
 * page for signed-in users sends anyone else to sign in, and back afterwards.
 */
export function pageRoute(
  method: "GET" | "POST",
  path: string | RegExp,
  handler: PageHandler<Page>,
): WebRoute;
export function pageRoute(
  method: "GET" | "POST",
  path: string | RegExp,
  handler: PageHandler<SignedInPage>,
  audience: "signed_in" | "admin",
): WebRoute;
export function pageRoute(
  method: "GET" | "POST",
  path: string | RegExp,
  handler: PageHandler<SignedInPage>,
  audience: Audience = "anyone",
): WebRoute {
  return {
    method,
    path,
    handle: async (web, req, res) => {
      const { visitor, cookies } = await identifyVisitor(web, req);
      const url = new URL(req.url ?? "/", "http://kiln.invalid");
      const page = new Page(web, req, res, url, visitor, cookies);
      try {
        const form = method === "POST" ? await readForm(req) : null;
        // Before the CSRF check: sending a visitor to sign in changes nothing (a form of a session
        // that has since ended lands there, not on a 403).
        if (audience !== "anyone" && !visitor.signedIn) return page.redirect(signInPath(url, method));
        if (form && !csrfTokenMatches(visitor.csrfToken, form.text(CSRF_FIELD))) {
          return page.error(
            403,
            "This form has expired or was not sent from Kiln. Go back, reload the page and try again.",
          );
        }
        if (await mustEnrolFirst(page)) {
          return page.redirect(TWO_FACTOR_PATH, {
            kind: "alert",
            text: "This server requires two-factor authentication: set it up to go on.",
          });
        }
        if (audience === "admin" && !page.user?.is_admin)
          return page.error(404, "The page you were looking for doesn't exist.");
        return await handler(page as SignedInPage, form);
      } catch (error) {
        return answerFailure(page, error);
      }
    },
  };
}

/**
 * True when the signed-in visitor is past the grace period of a required second factor and asks
 * for anything but enrolment or sign-out (GitLab's behaviour: nothing else until they enrol).
 */
async function mustEnrolFirst(page: Page): Promise<boolean> {
  const path = page.url.pathname;
  if (
    !page.user ||
    path === SIGN_OUT_PATH ||
    path === TWO_FACTOR_PATH ||
    path.startsWith(`${TWO_FACTOR_PATH}/`)
  )
    return false;
  return twoFactorRequiredNow(page.web.runtime, page.user);
}

/** The sign-in page, coming back to the page a GET asked for. */
function signInPath(url: URL, method: string): string {
  if (method !== "GET") return SIGN_IN_PATH;
  return `${SIGN_IN_PATH}?${new URLSearchParams({ redirect_to: `${url.pathname}${url.search}` })}`;
}

/** Known failures as error pages; anything else is a bug, for the front door to log (a bare 500). */
async function answerFailure(page: Page, error: unknown): Promise<Served> {
  if (page.res.headersSent) throw error;
  if (error instanceof BodyError) {
    await drainBeforeAnswer(page.req, page.res);
    return page.error(error.reason === "too_large" ? 413 : 400, error.message);
  }
  if (DomainError.is(error) && (error.kind === "not_found" || error.kind === "forbidden")) {
    return page.error(404, "The page you were looking for doesn't exist.");
  }
  throw error;
}
