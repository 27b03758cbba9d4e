import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** An OAuth client's redirect endpoint on loopback: answers `reply` and records each query it is sent. */
export interface RedirectTarget {
  server: Server;
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  received: URLSearchParams[];
  close(): Promise<void>;
}

/** Starts a {@link RedirectTarget} on a free loopback port. */
export async function startRedirectTarget(reply: string): Promise<RedirectTarget> {
  const received: URLSearchParams[] = [];
  const server = createServer((req, res) => {
    received.push(new URL(req.url ?? "/", "http://client.invalid").searchParams);
    res.writeHead(200, { "Content-Type": "text/plain" });
    res.end(reply);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return { server, origin: `http://127.0.0.1:${port}`, received, close };
}

/**
 * A small browser for the web pages' end-to-end tests: `fetch` with a cookie jar, redirects left
 * to the test, and the CSRF token of the last page's forms sent with each post.
 */
export class Browser {
  readonly cookies = new Map<string, string>();
  /** The HTML of the last page fetched. */
  html = "";

  constructor(readonly origin: string) {}

  /** GETs a path; the answer is not followed when it redirects. */
  async get(path: string): Promise<Response> {
    return this.#send(path, { method: "GET" });
  }

  /** Posts a form, with the CSRF token of the last page unless `csrf` is false. */
  async post(path: string, fields: Record<string, string | string[]>, csrf = true): Promise<Response> {
    const body = new URLSearchParams();
    if (csrf) body.append("authenticity_token", this.csrfToken());
    for (const [name, value] of Object.entries(fields)) {
      for (const item of Array.isArray(value) ? value : [value]) body.append(name, item);
    }
    return this.#send(path, {
      method: "POST",
      body,
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
  }

  /** Follows a redirect answer (303) with a GET. */
  async follow(response: Response): Promise<Response> {
    const location = response.headers.get("location");
    if (!location) throw new Error(`not a redirect: ${response.status}`);
    return this.get(location);
  }

  /** Signs in through the sign-in page; answers the redirect of the sign-in. */
  async signIn(login: string, password: string, redirectTo = ""): Promise<Response> {
    await this.get(`/users/sign_in${redirectTo ? `?redirect_to=${encodeURIComponent(redirectTo)}` : ""}`);
    return this.post("/users/sign_in", { login, password, redirect_to: redirectTo });
  }

  /** The CSRF token of the last page's forms. */
  csrfToken(): string {
    const found = /name="authenticity_token" value="([^"]*)"/.exec(this.html);
    if (!found?.[1]) throw new Error("the last page has no form");
    return found[1];
  }

  /** The text of the element with this id on the last page (tags removed, entities as they are). */
  textOf(id: string): string | undefined {
    const found = new RegExp(`id="${id}"[^>]*>([\\s\\S]*?)</`).exec(this.html);
    return found?.[1]?.replace(/<[^>]*>/g, "").trim();
  }

  /** The named fields of the form with this id on the last page, entities decoded (its hidden fields, say). */
  formFields(id: string): Record<string, string> {
    const form = new RegExp(`<form[^>]*id="${id}"[^>]*>([\\s\\S]*?)</form>`).exec(this.html)?.[1];
    if (form === undefined) throw new Error(`the last page has no form ${id}`);
    const fields: Record<string, string> = {};
    for (const input of form.matchAll(/<input(?:[^>"]|"[^"]*")*>/g)) {
      const name = /name="([^"]*)"/.exec(input[0])?.[1];
      const value = /value="([^"]*)"/.exec(input[0])?.[1];
      if (name !== undefined) fields[decodeEntities(name)] = decodeEntities(value ?? "");
    }
    return fields;
  }

  async #send(path: string, init: RequestInit): Promise<Response> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    const response = await fetch(`${this.origin}${path}`, {
      ...init,
      redirect: "manual",
      headers: { ...(init.headers as Record<string, string>), ...(cookie ? { Cookie: cookie } : {}) },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair?.indexOf("=") ?? -1;
      if (!pair || at < 0) continue;
      const name = pair.slice(0, at);
      const value = pair.slice(at + 1);
      if (/Max-Age=0/.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    this.html = await response.text();
    return response;
  }
}

/** The text of HTML with its entities (those preact writes in attributes) decoded. */
function decodeEntities(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}
