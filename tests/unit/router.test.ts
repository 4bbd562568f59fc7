import { describe, expect, it } from "vitest";
import { endpoints, type EndpointDef } from "../../app/contract";
import { buildPath } from "../../app/contract/endpoint";
import { ApiError } from "../../app/api/errors.server";
import { compileRoutes, errorResponse, parseQuery, toApiError } from "../../app/api/router.server";
import { clearSessionCookie, readCookie, sessionCookie, tokenFromRequest } from "../../app/api/auth.server";

describe("parseQuery", () => {
  const q = (s: string) => parseQuery(new URLSearchParams(s));

  it("keeps single values as strings", () => {
    expect(q("limit=3&query=linen%20shirt")).toEqual({ limit: "3", query: "linen shirt" });
    expect(q("")).toEqual({});
    expect(q("flag=")).toEqual({ flag: "" });
  });

  it("turns repeated keys and key[] into arrays", () => {
    expect(q("roles=ADMIN&roles=VENDOR")).toEqual({ roles: ["ADMIN", "VENDOR"] });
    expect(q("ids=a&ids=b&ids=c")).toEqual({ ids: ["a", "b", "c"] });
    expect(q("ids[]=a")).toEqual({ ids: ["a"] });
    expect(q("ids[]=a&ids[]=b")).toEqual({ ids: ["a", "b"] });
  });

  it("turns a[b]=c into nested objects", () => {
    expect(q("similar_to_color[l]=50&similar_to_color[a]=-3&similar_to_color[threshold]=10&page=2")).toEqual({
      similar_to_color: { l: "50", a: "-3", threshold: "10" },
      page: "2",
    });
  });
});

describe("compileRoutes", () => {
  const routes = compileRoutes();
  const all = Object.entries(endpoints) as [string, EndpointDef][];

  it("compiles every endpoint once", () => {
    expect(routes).toHaveLength(all.length);
    expect(new Set(routes.map((r) => r.name))).toEqual(new Set(all.map(([n]) => n)));
  });

  it("every endpoint path and method pair is unique", () => {
    const keys = all.map(([, d]) => `${d.method} ${d.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("each endpoint's own path (with sample parameters) resolves to that endpoint first", () => {
    for (const [name, def] of all) {
      const concrete = def.path.replace(/\{(\w+)\}/g, "sample-$1");
      const first = routes.find((r) => r.def.method === def.method && r.regex.test(concrete));
      // A static path that happens to look like sample-… cannot exist, so this is the endpoint itself.
      expect(first?.name, `${def.method} ${concrete}`).toBe(name);
    }
  });

  it("static paths come before parameterised paths that would also match them", () => {
    routes.forEach((r, i) => {
      if (r.paramNames.length > 0) return;
      routes.forEach((other, j) => {
        if (other.paramNames.length === 0 || other.def.method !== r.def.method || !other.regex.test(r.def.path)) return;
        expect(i, `${r.def.path} before ${other.def.path}`).toBeLessThan(j);
      });
    });
    // /users/me is static; whatever parameterised /users/… paths exist must not shadow it.
    const me = routes.findIndex((r) => r.def.path === "/users/me");
    expect(me).toBeGreaterThanOrEqual(0);
    const getMe = routes.find((r) => r.def.method === "GET" && r.regex.test("/users/me"));
    expect(getMe?.name).toBe("getMe");
    // The rule behind it: more static segments first, then fewer parameters.
    for (let i = 1; i < routes.length; i++) {
      const a = routes[i - 1];
      const b = routes[i];
      expect(a.staticSegments > b.staticSegments || (a.staticSegments === b.staticSegments && a.paramNames.length <= b.paramNames.length)).toBe(true);
    }
  });

  it("extracts path parameters and accepts a trailing slash", () => {
    const r = routes.find((x) => x.name === "getPermissions")!;
    expect(r.paramNames).toEqual(["id"]);
    const m = r.regex.exec("/users/admin/abc-123/permissions/");
    expect(m?.[1]).toBe("abc-123");
    expect(r.regex.test("/users/admin/a/b/permissions")).toBe(false);
    expect(r.regex.test("/prefix/users/admin/a/permissions")).toBe(false);
  });

  it("escapes regex characters in static segments", () => {
    const openapi = routes.find((x) => x.name === "openapi")!;
    expect(openapi.regex.test("/openapi.json")).toBe(true);
    expect(openapi.regex.test("/openapiXjson")).toBe(false);
  });
});

describe("buildPath", () => {
  it("fills and encodes parameters", () => {
    expect(buildPath("/users/admin/{id}/permissions", { id: "gid://shopify/Customer/1" })).toBe("/users/admin/gid%3A%2F%2Fshopify%2FCustomer%2F1/permissions");
    expect(buildPath("/a/{x}/b/{y}", { x: 1, y: "two" })).toBe("/a/1/b/two");
    expect(buildPath("/products")).toBe("/products");
  });

  it("refuses a missing parameter", () => {
    expect(() => buildPath("/users/admin/{id}/permissions", {})).toThrow(/Missing path parameter "id"/);
    expect(() => buildPath("/users/admin/{id}/permissions", { id: "" })).toThrow();
  });
});

describe("error responses", () => {
  it("errorResponse writes the error body and headers", async () => {
    const res = errorResponse(429, "rate_limited", "slow down", "req-1", undefined, { "retry-after": "7" });
    expect(res.status).toBe(429);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.headers.get("x-request-id")).toBe("req-1");
    expect(res.headers.get("retry-after")).toBe("7");
    expect(await res.json()).toEqual({ error: { code: "rate_limited", message: "slow down", requestId: "req-1" } });

    const withDetails = errorResponse(400, "bad_request", "bad", "req-2", { issues: [] });
    expect((await withDetails.json()).error.details).toEqual({ issues: [] });
  });

  it("toApiError keeps ApiErrors and hides everything else", () => {
    const e = new ApiError(404, "gone");
    expect(toApiError(e)).toBe(e);
    expect(e.code).toBe("not_found");
    const hidden = toApiError(new TypeError("x is undefined"));
    expect(hidden.status).toBe(500);
    expect(hidden.message).not.toContain("undefined");
  });
});

describe("session tokens from requests", () => {
  it("reads a bearer token before the cookie", () => {
    const both = new Request("http://x/api/users/me", { headers: { authorization: "Bearer tok-1", cookie: "fd_session=tok-2" } });
    expect(tokenFromRequest(both)).toEqual({ token: "tok-1", via: "bearer" });
    const cookie = new Request("http://x/api/users/me", { headers: { cookie: "a=1; fd_session=tok%2F2; b=3" } });
    expect(tokenFromRequest(cookie)).toEqual({ token: "tok/2", via: "cookie" });
    expect(tokenFromRequest(new Request("http://x/", { headers: { authorization: "Basic abc" } }))).toBeNull();
    expect(tokenFromRequest(new Request("http://x/", { headers: { authorization: "Bearer  " } }))).toBeNull();
  });

  it("readCookie finds a cookie by exact name", () => {
    expect(readCookie("fd_session_old=1; fd_session=2", "fd_session")).toBe("2");
    expect(readCookie("x=1", "fd_session")).toBeNull();
    expect(readCookie(null, "fd_session")).toBeNull();
  });

  it("session cookies are httpOnly, Lax and Secure when asked", () => {
    expect(sessionCookie("a b", { secure: false, maxAgeSeconds: 60 })).toBe("fd_session=a%20b; Path=/; HttpOnly; SameSite=Lax; Max-Age=60");
    expect(sessionCookie("t", { secure: true, maxAgeSeconds: 60 })).toContain("; Secure");
    expect(clearSessionCookie(false)).toBe("fd_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0");
  });
});
