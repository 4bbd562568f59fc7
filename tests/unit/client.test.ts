import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ApiClientError, createApiClient } from "../../app/client";
import { endpoints } from "../../app/contract";
import { access, endpoint } from "../../app/contract/endpoint";

interface Recorded {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
  credentials: RequestCredentials | undefined;
}

function fakeFetch(respond: (req: Recorded) => Response | Promise<Response> = () => json(200, {})) {
  const calls: Recorded[] = [];
  const fn = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const rec: Recorded = {
      url: String(input),
      method: init?.method ?? "GET",
      headers: { ...(init?.headers as Record<string, string>) },
      body: init?.body as string | undefined,
      credentials: init?.credentials,
    };
    calls.push(rec);
    return respond(rec);
  }) as typeof fetch;
  return { fn, calls };
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

describe("createApiClient", () => {
  it("has a method for every endpoint of the contract", () => {
    const client = createApiClient({ fetch: fakeFetch().fn });
    for (const name of Object.keys(endpoints)) expect(typeof (client as unknown as Record<string, unknown>)[name], name).toBe("function");
  });

  it("builds URLs from path parameters and query, under baseUrl and /api", async () => {
    const f = fakeFetch(() => json(200, { userId: "u/1", role: "ADMIN", permissions: [] }));
    const client = createApiClient({ fetch: f.fn, baseUrl: "https://app.example.com/" });
    await client.getPermissions({ params: { id: "u/1" } });
    expect(f.calls[0].url).toBe("https://app.example.com/api/users/admin/u%2F1/permissions");
    expect(f.calls[0].method).toBe("GET");
    expect(f.calls[0].body).toBeUndefined();

    await client.listProducts({ query: { limit: 3, query: "linen shirt", target_gender: "menswear", cursor: undefined } });
    const u = new URL(f.calls[1].url);
    expect(u.pathname).toBe("/api/products");
    expect(Object.fromEntries(u.searchParams)).toEqual({ limit: "3", query: "linen shirt", target_gender: "menswear" });

    await client.listAdmins({ query: { roles: ["ADMIN", "VENDOR"] } });
    expect(new URL(f.calls[2].url).searchParams.getAll("roles")).toEqual(["ADMIN", "VENDOR"]);
  });

  it("an App Proxy prefix and a custom apiPrefix are honoured", async () => {
    const f = fakeFetch(() => json(200, { products: [], pageInfo: { hasNextPage: false, endCursor: null } }));
    await createApiClient({ fetch: f.fn, baseUrl: "/apps/fashion", apiPrefix: "" }).listProducts();
    expect(f.calls[0].url).toBe("/apps/fashion/products");
    await createApiClient({ fetch: f.fn }).listProducts();
    expect(f.calls[1].url).toBe("/api/products");
  });

  it("url() encodes nested query objects as a[b]", () => {
    const client = createApiClient({ fetch: fakeFetch().fn });
    const def = endpoint({ method: "GET", path: "/internal-media", summary: "", tags: [], access: access.public, response: z.unknown() });
    const url = client.url(def, { query: { similar_to_color: { l: 50, a: -3, b: undefined }, page: 2, skip: null } });
    expect(decodeURIComponent(url)).toBe("/api/internal-media?similar_to_color[l]=50&similar_to_color[a]=-3&page=2");
  });

  it("sends the bearer token from getToken, read at each call", async () => {
    let token: string | null = "tok-1";
    const f = fakeFetch(() => json(200, { id: "u1" }));
    const client = createApiClient({ fetch: f.fn, getToken: () => token });
    await client.getMe();
    expect(f.calls[0].headers.authorization).toBe("Bearer tok-1");
    expect(f.calls[0].headers.accept).toBe("application/json");
    expect(f.calls[0].credentials).toBe("include");
    token = null;
    await client.getMe();
    expect(f.calls[1].headers.authorization).toBeUndefined();
  });

  it("sends JSON bodies and extra headers", async () => {
    const f = fakeFetch(() => json(200, { user: { id: "u1" }, token: "t" }));
    const client = createApiClient({ fetch: f.fn, headers: { "x-api-key": "k" }, credentials: "omit" });
    const out = await client.login({ body: { email: "a@b.test", password: "secret-pass" } });
    expect(out).toEqual({ user: { id: "u1" }, token: "t" });
    const c = f.calls[0];
    expect(c.method).toBe("POST");
    expect(c.url).toBe("/api/auth/login");
    expect(c.headers["content-type"]).toBe("application/json");
    expect(c.headers["x-api-key"]).toBe("k");
    expect(c.credentials).toBe("omit");
    expect(JSON.parse(c.body!)).toEqual({ email: "a@b.test", password: "secret-pass" });
  });

  it("sends {} for a body endpoint called without one, and no body for bodiless endpoints", async () => {
    const f = fakeFetch(() => json(200, { ok: true }));
    const client = createApiClient({ fetch: f.fn });
    await client.updateMe();
    expect(f.calls[0].method).toBe("PATCH");
    expect(f.calls[0].body).toBe("{}");
    await client.logout();
    expect(f.calls[1].method).toBe("POST");
    expect(f.calls[1].body).toBeUndefined();
    expect(f.calls[1].headers["content-type"]).toBeUndefined();
  });

  it("returns undefined for an empty success body", async () => {
    const f = fakeFetch(() => new Response(null, { status: 204 }));
    expect(await createApiClient({ fetch: f.fn }).deleteMe()).toBeUndefined();
  });

  it("throws ApiClientError with the server's status, code, message and request id", async () => {
    const f = fakeFetch(() =>
      json(400, { error: { code: "bad_request", message: "User ID is required", details: { where: "body", issues: [] }, requestId: "req-9" } }),
    );
    const client = createApiClient({ fetch: f.fn });
    const err = await client.upgradeToLead({ body: { userId: "", email: "a@b.test", origin: "x" } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiClientError);
    expect(err).toBeInstanceOf(Error);
    expect(err).toMatchObject({ status: 400, code: "bad_request", message: "User ID is required", requestId: "req-9", details: { where: "body", issues: [] } });
  });

  it("a non-JSON error becomes http_error", async () => {
    const f = fakeFetch(() => new Response("<html>Bad gateway</html>", { status: 502, headers: { "content-type": "text/html" } }));
    const err = await createApiClient({ fetch: f.fn }).getMe().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiClientError);
    expect(err).toMatchObject({ status: 502, code: "http_error", message: "Request failed with status 502" });

    const odd = fakeFetch(() => json(500, { message: "not our error shape" }));
    const err2 = await createApiClient({ fetch: odd.fn }).getMe().catch((e: unknown) => e);
    expect(err2).toMatchObject({ status: 500, code: "http_error" });
  });

  it("a missing path parameter fails before any request", async () => {
    const f = fakeFetch();
    const client = createApiClient({ fetch: f.fn });
    await expect(client.getPermissions({ params: { id: "" } })).rejects.toThrow(/Missing path parameter/);
    expect(f.calls).toHaveLength(0);
  });
});
