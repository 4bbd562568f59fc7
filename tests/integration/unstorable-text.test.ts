/**
 * Text PostgreSQL cannot store (U+0000, unpaired UTF-16 surrogates) is refused with a 400 at every
 * boundary that takes outside input: the API router (path, query, JSON and multipart fields, keys
 * and nested values), the data service and local Storefront GraphQL endpoints (variables and
 * literals), the App Proxy and the admin pages' loaders and actions. Honest text (emoji, accents)
 * still goes through.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { createTestApp, type TestApp } from "../helpers/app";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { getConfig, resetConfigCache } from "../../app/config.server";
import { toApiError } from "../../app/api/router.server";
import { handleDataServiceRequest } from "../../app/services/data-service/graphql.server";
import { createApiKey } from "../../app/services/api-keys.server";
import { signAppProxyQuery } from "../../app/services/app-proxy-signing.server";
import { staffErrorMessage } from "../../app/lib/staff-errors";
import { staffForm, staffRequest, thrownResponse } from "../helpers/route";

type RouteFn = (args: LoaderFunctionArgs) => Promise<unknown> | unknown;
type RouteModule = { loader: RouteFn; action?: RouteFn };

let app: TestApp;
let admin: { id: string; token: string };
let shopper: { id: string; token: string };
let dataServiceKey: string;

beforeAll(async () => {
  app = await createTestApp();
  setAppContext(app.ctx);
  setPrisma(app.database.db);
  resetConfigCache();
  admin = await app.createUser({ role: "ADMIN", permissions: ["catalog.edit", "media.manage"] });
  shopper = await app.createUser();
  dataServiceKey = (await createApiKey(app.database.db, { name: "unstorable text test" })).key;
});
afterAll(async () => {
  await app?.close();
});

const NUL = "a\u0000b";
const LONE_HIGH = "a\ud800b";
const LONE_LOW = "a\udc00b";

function expectRefused(res: { status: number; body: any }, where?: RegExp) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.error).toMatchObject({ code: "bad_request", requestId: expect.any(String) });
  expect(res.body.error.message).toMatch(/U\+0000 or an unpaired UTF-16 surrogate/);
  if (where) expect(res.body.error.message).toMatch(where);
}

describe("the API router", () => {
  it("refuses NUL and lone surrogates in a JSON body, anonymously, with a 400 naming the field", async () => {
    for (const bad of [NUL, LONE_HIGH, LONE_LOW]) expectRefused(await app.api("POST", "/search", { body: { query: bad } }), /^body\.query /);
  });

  it("refuses them in the query string and in path parameters", async () => {
    expectRefused(await app.api("GET", "/products", { query: { query: NUL } }), /^query\.query /);
    expectRefused(await app.api("GET", "/products?query=a%00b"), /^query\.query /);
    expectRefused(await app.api("GET", "/stores/a%00"), /^params\.id /);
    // A surrogate cannot even be percent-encoded (it is not UTF-8): refused as bad encoding.
    expect((await app.api("GET", "/stores/a%ED%A0%80")).status).toBe(400);
  });

  it("refuses them nested in JSON, in object keys, and for signed-in callers too", async () => {
    expectRefused(await app.api("PATCH", "/users/me", { token: shopper.token, body: { interests: ["ok", LONE_HIGH] } }), /^body\.interests\.1 /);
    expectRefused(await app.api("POST", "/search", { body: { query: "dress", ["k\u0000"]: 1 } }), /^body\.k/);
  });

  it("refuses them in multipart fields and file names", async () => {
    const png = new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: "image/png" });
    const withTitle = new FormData();
    withTitle.set("file", png, "photo.png");
    withTitle.set("title", NUL);
    expectRefused(await app.api("POST", "/internal-media", { token: admin.token, body: withTitle }), /^body\.title /);
    const withName = new FormData();
    withName.set("file", png, `photo${NUL}.png`);
    expectRefused(await app.api("POST", "/internal-media", { token: admin.token, body: withName }), /^body\.file /);
  });

  it("lets honest text through: emoji (paired surrogates), accents, other control characters", async () => {
    const res = await app.api("GET", "/products", { query: { query: "robe d'été 👗\t" } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await app.api("POST", "/search", { body: { query: "👗 dress" } })).status).not.toBe(400);
  });

  it("maps PostgreSQL's own refusal of such text to a 400, for any path the boundaries miss", async () => {
    const dbError = await app.database.db.store.findUnique({ where: { id: NUL } }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(dbError).not.toBeNull();
    const err = toApiError(dbError);
    expect(err.status).toBe(400);
    const jsonError = await app.database.db.$queryRawUnsafe("select $1::jsonb", JSON.stringify({ a: LONE_LOW })).then(
      () => null,
      (e: unknown) => e,
    );
    expect(toApiError(jsonError).status).toBe(400);
  });
});

describe("the GraphQL endpoints", () => {
  async function dataService(query: string, variables?: Record<string, unknown>) {
    const res = await handleDataServiceRequest(
      new Request("http://localhost/api/graphql", { method: "POST", headers: { "content-type": "application/json", "x-api-key": dataServiceKey }, body: JSON.stringify({ query, variables }) }),
      app.ctx,
    );
    return { status: res.status, body: (await res.json()) as { errors?: { message: string; extensions: { code: string } }[]; data?: unknown } };
  }

  it("the data service refuses them in variables and in the document's string literals", async () => {
    const byVariable = await dataService("query ($p: ID!) { checkSavedProduct(userId: \"u\", productId: $p) }", { p: NUL });
    expect(byVariable.status).toBe(400);
    expect(byVariable.body.errors?.[0]).toMatchObject({ extensions: { code: "BAD_USER_INPUT" } });
    expect(byVariable.body.errors?.[0].message).toMatch(/^variables\.p /);
    const byLiteral = await dataService('{ checkSavedProduct(userId: "u", productId: "a\\u0000") }');
    expect(byLiteral.status).toBe(400);
    expect(byLiteral.body.errors?.[0].message).toMatch(/string of the query/);
    const lone = await dataService('{ checkSavedProduct(userId: "u", productId: "a\\ud800") }');
    expect(lone.status).toBe(400);
    // The same operation with honest text runs.
    const honest = await dataService("query ($p: ID!) { checkSavedProduct(userId: \"" + shopper.id + "\", productId: $p) }", { p: "gid://shopify/Product/1" });
    expect(honest.status, JSON.stringify(honest.body)).toBe(200);
  });

  it("the local Storefront endpoint refuses them too", async () => {
    const route = (await import("../../app/routes/api.storefront.graphql")) as unknown as { action: RouteFn };
    const ask = async (query: string, variables?: Record<string, unknown>) => {
      const res = (await route.action({
        request: new Request("http://localhost/api/storefront/graphql", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query, variables }) }),
        params: {},
        context: {},
      } as LoaderFunctionArgs)) as Response;
      return { status: res.status, body: (await res.json()) as { errors?: { message: string; extensions: { code: string } }[] } };
    };
    const literal = await ask('{ product(handle: "a\\u0000") { id } }');
    expect(literal.status).toBe(400);
    expect(literal.body.errors?.[0].extensions.code).toBe("BAD_USER_INPUT");
    const variable = await ask("query ($h: String!) { product(handle: $h) { id } }", { h: LONE_HIGH });
    expect(variable.status).toBe(400);
    expect((await ask('{ product(handle: "robe-été") { id } }')).status).toBe(200);
  });
});

describe("the App Proxy", () => {
  it("refuses a logged-in customer id the database cannot store", async () => {
    const proxy = (await import("../../app/routes/proxy.$")) as unknown as RouteModule;
    const secret = getConfig().SHOPIFY_API_SECRET;
    const params = { shop: "local.myshopify.com", logged_in_customer_id: "12\u00003", path_prefix: "/apps/fashion", timestamp: String(Math.floor(Date.now() / 1000)) };
    const qs = new URLSearchParams({ ...params, signature: signAppProxyQuery(params, secret) });
    const res = (await proxy.loader({ request: new Request(`http://localhost/proxy/api/users/me?${qs}`), params: {}, context: {} } as LoaderFunctionArgs)) as Response;
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({ code: "bad_request", requestId: expect.any(String) });
    expect(await app.database.db.user.count({ where: { shopify_customer_id: { startsWith: "12" } } })).toBe(0);
  });

  it("the proxied API call refuses them in its own input", async () => {
    const proxy = (await import("../../app/routes/proxy.$")) as unknown as RouteModule;
    const secret = getConfig().SHOPIFY_API_SECRET;
    const params = { shop: "local.myshopify.com", logged_in_customer_id: "", path_prefix: "/apps/fashion", timestamp: String(Math.floor(Date.now() / 1000)) };
    const qs = new URLSearchParams({ ...params, signature: signAppProxyQuery(params, secret) });
    const res = (await proxy.loader({ request: new Request(`http://localhost/proxy/api/stores/a%00?${qs}`), params: {}, context: {} } as LoaderFunctionArgs)) as Response;
    expect(res.status).toBe(400);
  });
});

describe("the admin pages", () => {
  it("an action refuses a form field with NUL (400 with the field), and creates nothing", async () => {
    const stores = await import("../../app/routes/app.stores");
    const res = await thrownResponse(
      Promise.resolve().then(() => stores.action({ request: staffForm("/app/stores", admin.token, { intent: "create", name: NUL, target_gender: "both" }), params: {}, context: {} })),
    );
    expect(res.status).toBe(400);
    expect(staffErrorMessage(await res.text())).toMatch(/^name .*U\+0000/);
    expect(await app.database.db.store.count({ where: { name: { startsWith: "a" } } })).toBe(0);
  });

  it("a loader refuses a search and a path id with NUL", async () => {
    const products = await import("../../app/routes/app.products");
    const res = await thrownResponse(Promise.resolve().then(() => products.loader({ request: staffRequest("/app/products?q=a%00", admin.token), params: {}, context: {} })));
    expect(res.status).toBe(400);
    const detail = await import("../../app/routes/app.stores.$id");
    const byId = await thrownResponse(Promise.resolve().then(() => detail.loader({ request: staffRequest("/app/stores/a%00", admin.token), params: { id: "a\u0000" }, context: {} })));
    expect(byId.status).toBe(400);
  });

  it("signed-out callers are still sent to the login first", async () => {
    const stores = await import("../../app/routes/app.stores");
    const res = await thrownResponse(Promise.resolve().then(() => stores.action({ request: staffForm("/app/stores", null, { intent: "create", name: NUL }), params: {}, context: {} })));
    expect(res.status).toBe(302);
  });
});
