/** A request to the server under test. */
export interface ApiRequest {
  method?: string;
  /** Relative to `/api/v3` unless it starts with `/api` or is absolute. */
  path: string;
  /** Sent as the `PRIVATE-TOKEN` header. */
  token?: string;
  query?: Record<string, string | number | boolean | (string | number)[]>;
  /** Sent as a JSON body. */
  json?: unknown;
  /** Sent as `application/x-www-form-urlencoded`. */
  form?: Record<string, string | number | boolean>;
  headers?: Record<string, string>;
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
  const url = new URL(/^https?:/.test(path) ? path : `${baseUrl}${path.startsWith("/api") ? "" : "/api/v3"}${path}`);
  for (const [key, value] of Object.entries(query)) {
    if (Array.isArray(value)) for (const item of value) url.searchParams.append(`${key}[]`, String(item));
    else url.searchParams.set(key, String(value));
  }
  return url.toString();
}

/** Sends one request with `fetch` and reads the whole answer. */
export async function call<T = unknown>(baseUrl: string, request: ApiRequest): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...request.headers };
  if (request.token !== undefined) headers["PRIVATE-TOKEN"] = request.token;
  let body: string | undefined;
  if (request.json !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(request.json);
  } else if (request.form !== undefined) {
    headers["Content-Type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(Object.entries(request.form).map(([k, v]): [string, string] => [k, String(v)])).toString();
  }
  const response = await fetch(apiUrl(baseUrl, request.path, request.query), {
    method: request.method ?? "GET",
    headers,
    ...(body !== undefined ? { body } : {}),
  });
  const text = await response.text();
  let parsed: unknown = text;
  if ((response.headers.get("content-type") ?? "").includes("json") && text !== "") parsed = JSON.parse(text);
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}
