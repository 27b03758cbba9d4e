import { request as httpRequest } from "node:http";

/** A request to the server under test. */
export interface ApiRequest {
  method?: string;
  /** Relative to `/api/v3` unless it starts with `/api` or is absolute. */
  path: string;
  /** Sent as the `PRIVATE-TOKEN` header. */
  token?: string;
  query?: Record<string, string | number | boolean | (string | number)[]>;
  /** Sent as a JSON body (on any method, GET included). */
  json?: unknown;
  /** Sent as `application/x-www-form-urlencoded`. */
  form?: Record<string, string | number | boolean>;
  /** Sent as is, with the given headers (set `Content-Type` yourself). */
  body?: string | Buffer;
  headers?: Record<string, string>;
  /** The local address to send from (another loopback address, `127.0.0.2`, to be another client). */
  localAddress?: string;
}

/** What came back: the status, the headers and the body (parsed when it is JSON). */
export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** Builds the URL of a request against a server base URL. */
export function apiUrl(baseUrl: string, path: string, query: ApiRequest["query"] = {}): string {
  const url = new URL(
    /^https?:/.test(path) ? path : `${baseUrl}${path.startsWith("/api") ? "" : "/api/v3"}${path}`,
  );
  for (const [key, value] of Object.entries(query)) {
    if (Array.isArray(value)) for (const item of value) url.searchParams.append(`${key}[]`, String(item));
    else url.searchParams.set(key, String(value));
  }
  return url.toString();
}

function encodeBody(request: ApiRequest, headers: Record<string, string>): string | Buffer | undefined {
  if (request.json !== undefined) {
    headers["Content-Type"] = "application/json";
    return JSON.stringify(request.json);
  }
  if (request.form !== undefined) {
    headers["Content-Type"] = "application/x-www-form-urlencoded";
    return new URLSearchParams(
      Object.entries(request.form).map(([k, v]): [string, string] => [k, String(v)]),
    ).toString();
  }
  return request.body;
}

/** Sends one request over a fresh connection and reads the whole answer. */
export function call<T = unknown>(baseUrl: string, request: ApiRequest): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...request.headers };
  if (request.token !== undefined) headers["PRIVATE-TOKEN"] = request.token;
  const body = encodeBody(request, headers);
  if (body !== undefined) headers["Content-Length"] = String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      apiUrl(baseUrl, request.path, request.query),
      { method: request.method ?? "GET", headers, agent: false, localAddress: request.localAddress },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (value !== undefined)
              responseHeaders.set(name, Array.isArray(value) ? value.join(", ") : value);
          }
          let parsed: unknown = text;
          if ((res.headers["content-type"] ?? "").includes("json") && text !== "") parsed = JSON.parse(text);
          resolve({ status: res.statusCode ?? 0, headers: responseHeaders, body: parsed as T, text });
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}
