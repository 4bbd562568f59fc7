/**
 * The client library's runtime, without zod: it only needs each endpoint's method, path and
 * whether it takes a body. `createApiClient` (./index.ts) runs it over the whole contract; the
 * theme blocks run it over the few endpoints they call (a route table generated from the contract
 * at build time, extensions/theme-blocks/vite.config.ts), so their scripts stay small.
 * Types come from the contract (type-only imports, erased at build time).
 */
import type { EndpointDef, EndpointInput, EndpointOutput } from "~/contract/endpoint";
import { buildPath } from "~/contract/path";

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

/** What the runtime reads of an endpoint definition. */
export type RouteDef = Pick<EndpointDef, "method" | "path"> & { body?: unknown };

export function toQueryString(query: Record<string, unknown> | undefined): string {
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

/** The API's error body (`ErrorBody` of the contract), checked without zod. */
function errorOf(data: unknown): { code: string; message: string; details?: unknown; requestId?: string } | null {
  if (!data || typeof data !== "object") return null;
  const e = (data as { error?: unknown }).error;
  if (!e || typeof e !== "object") return null;
  const { code, message, details, requestId } = e as Record<string, unknown>;
  if (typeof code !== "string" || typeof message !== "string") return null;
  return { code, message, details, requestId: typeof requestId === "string" ? requestId : undefined };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

type Methods<T> = {
  [K in keyof T]: {} extends EndpointInput<T[K]>
    ? (input?: EndpointInput<T[K]>) => Promise<EndpointOutput<T[K]>>
    : (input: EndpointInput<T[K]>) => Promise<EndpointOutput<T[K]>>;
};

export interface ClientBase {
  call<E extends EndpointDef>(def: E, input?: EndpointInput<E>): Promise<EndpointOutput<E>>;
  url(def: RouteDef, input?: { params?: Record<string, unknown>; query?: Record<string, unknown> }): string;
}

/** A client with one method per route of `routes` (typed by the contract's definitions). */
export type ClientFor<T> = Methods<T> & ClientBase;

export function createRouteClient<T extends Record<string, EndpointDef>>(routes: T, options: ApiClientOptions = {}): ClientFor<T> {
  const baseUrl = (options.baseUrl ?? "").replace(/\/$/, "");
  const prefix = options.apiPrefix ?? "/api";
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));

  const url: ClientBase["url"] = (def, input) => `${baseUrl}${prefix}${buildPath(def.path, input?.params)}${toQueryString(input?.query)}`;

  async function call(def: RouteDef, input?: unknown): Promise<unknown> {
    const parts = (input ?? {}) as { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };
    const headers: Record<string, string> = { accept: "application/json", ...options.headers };
    const token = options.getToken?.();
    if (token) headers.authorization = `Bearer ${token}`;
    let body: BodyInit | undefined;
    if (typeof FormData !== "undefined" && parts.body instanceof FormData) body = parts.body;
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
      const e = errorOf(data);
      if (e) throw new ApiClientError(res.status, e.code, e.message, e.details, e.requestId);
      throw new ApiClientError(res.status, "http_error", `Request failed with status ${res.status}`);
    }
    return data;
  }

  const methods = Object.fromEntries(Object.entries(routes).map(([name, def]) => [name, (input?: unknown) => call(def, input)]));
  return Object.assign(methods, { call, url }) as unknown as ClientFor<T>;
}
