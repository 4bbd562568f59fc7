/**
 * The one typed client of the API, used by the React storefront and the theme app blocks.
 * Paths and payload shapes come from the contract; nothing here repeats them.
 */
import { ErrorBody, buildPath, endpoints, type EndpointDef, type EndpointInput, type EndpointOutput, type Endpoints } from "~/contract";

export class ApiClientError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    readonly requestId?: string,
  ) {
    super(message);
    this.name = "ApiClientError";
  }
}

export interface ApiClientOptions {
  /** Where `/api` lives: "" for same origin, `https://app.example.com`, or an App Proxy prefix such as `/apps/fashion`. */
  baseUrl?: string;
  /** The API's mount point under baseUrl. */
  apiPrefix?: string;
  fetch?: typeof fetch;
  /** Bearer token for non-browser clients; browsers rely on the httpOnly cookie. */
  getToken?: () => string | null | undefined;
  credentials?: RequestCredentials;
  /** Extra headers on every request (e.g. the data service's x-api-key). */
  headers?: Record<string, string>;
}

function toQueryString(query: Record<string, unknown> | undefined): string {
  if (!query) return "";
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) v.forEach((item) => qs.append(k, String(item)));
    else if (typeof v === "object") {
      for (const [sub, sv] of Object.entries(v as Record<string, unknown>)) if (sv !== undefined) qs.append(`${k}[${sub}]`, String(sv));
    } else qs.append(k, String(v));
  }
  const s = qs.toString();
  return s ? `?${s}` : "";
}

type Methods = { [K in keyof Endpoints]: (input?: EndpointInput<Endpoints[K]>) => Promise<EndpointOutput<Endpoints[K]>> };
type StrictMethods = { [K in keyof Endpoints]: {} extends EndpointInput<Endpoints[K]> ? (input?: EndpointInput<Endpoints[K]>) => Promise<EndpointOutput<Endpoints[K]>> : (input: EndpointInput<Endpoints[K]>) => Promise<EndpointOutput<Endpoints[K]>> };

export type ApiClient = StrictMethods & {
  call<E extends EndpointDef>(def: E, input?: EndpointInput<E>): Promise<EndpointOutput<E>>;
  url(def: EndpointDef, input?: { params?: Record<string, unknown>; query?: Record<string, unknown> }): string;
};

export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const baseUrl = (options.baseUrl ?? "").replace(/\/$/, "");
  const prefix = options.apiPrefix ?? "/api";
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));

  const url: ApiClient["url"] = (def, input) =>
    `${baseUrl}${prefix}${buildPath(def.path, input?.params)}${toQueryString(input?.query)}`;

  async function call<E extends EndpointDef>(def: E, input?: EndpointInput<E>): Promise<EndpointOutput<E>> {
    const parts = (input ?? {}) as { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };
    const headers: Record<string, string> = { accept: "application/json", ...options.headers };
    const token = options.getToken?.();
    if (token) headers.authorization = `Bearer ${token}`;
    let body: BodyInit | undefined;
    if (parts.body instanceof FormData) body = parts.body;
    else if (parts.body !== undefined || (def.method !== "GET" && def.method !== "DELETE" && def.body)) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(parts.body ?? {});
    }
    const res = await doFetch(url(def, parts), {
      method: def.method,
      headers,
      body,
      credentials: options.credentials ?? "include",
    });
    const text = await res.text();
    const data: unknown = text ? safeJson(text) : undefined;
    if (!res.ok) {
      const parsed = ErrorBody.safeParse(data);
      if (parsed.success) {
        const e = parsed.data.error;
        throw new ApiClientError(res.status, e.code, e.message, e.details, e.requestId);
      }
      throw new ApiClientError(res.status, "http_error", `Request failed with status ${res.status}`);
    }
    return data as EndpointOutput<E>;
  }

  const methods = Object.fromEntries(
    Object.entries(endpoints).map(([name, def]) => [name, (input?: unknown) => call(def as EndpointDef, input as never)]),
  ) as Methods;

  return Object.assign(methods, { call, url }) as ApiClient;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export { endpoints };
