/**
 * Every /api path answers in the API's JSON error shape, also when Remix's own route matching
 * finds no route: the `api.$` splat does not match a path holding a line break (`%0A`, `%0D`,
 * U+2028), which used to get the HTML 404 page. Served here by Remix's request handler over the
 * app's real root, entry and API routes (a hand-made server build of those modules).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import { createTestApp, type TestApp } from "../helpers/app";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";

let app: TestApp;
let handle: (request: Request) => Promise<Response>;

beforeAll(async () => {
  app = await createTestApp();
  setAppContext(app.ctx);
  setPrisma(app.database.db);
  const route = (id: string, parentId: string | undefined, path: string | undefined, module: object, index = false) => ({ id, parentId, path, index, caseSensitive: undefined, module });
  const asset = (id: string, parentId: string | undefined, path: string | undefined, hasLoader: boolean, index = false) => ({
    id, parentId, path, index, module: `/${id}.js`, hasLoader, hasAction: false, hasClientLoader: false, hasClientAction: false, hasErrorBoundary: id === "root", imports: [], css: [],
  });
  const build = {
    mode: "production",
    entry: { module: await import("../../app/entry.server") },
    routes: {
      root: route("root", undefined, "", await import("../../app/root")),
      "routes/api": route("routes/api", "root", "api", await import("../../app/routes/api")),
      "routes/api.$": route("routes/api.$", "root", "api/*", await import("../../app/routes/api.$")),
    },
    assets: {
      entry: { module: "/entry.client.js", imports: [] },
      url: "/manifest.js",
      version: "test",
      routes: { root: asset("root", undefined, "", false), "routes/api": asset("routes/api", "root", "api", true), "routes/api.$": asset("routes/api.$", "root", "api/*", true) },
    },
    publicPath: "/",
    assetsBuildDirectory: "/tmp",
    future: { v3_fetcherPersist: true, v3_relativeSplatPath: true, v3_throwAbortReason: true, v3_singleFetch: true, v3_lazyRouteDiscovery: true, v3_routeConfig: true, unstable_optimizeDeps: false },
    isSpaMode: false,
  } as unknown as ServerBuild;
  const handler = createRequestHandler(build, "production");
  handle = (request) => handler(request, { clientIp: "127.0.0.1" } as never);
});
afterAll(async () => {
  await app?.close();
});

async function expectJsonError(res: Response, status: number | number[]) {
  expect([status].flat(), `${res.status} ${await res.clone().text()}`).toContain(res.status);
  expect(res.headers.get("content-type")).toMatch(/application\/json/);
  const body = (await res.json()) as { error: { code: string; message: string; requestId: string } };
  expect(body.error).toMatchObject({ code: expect.any(String), message: expect.any(String), requestId: expect.any(String) });
  return body;
}

it("an ordinary unknown id answers the API's JSON 404 (through the api.$ route)", async () => {
  await expectJsonError(await handle(new Request("http://localhost/api/stores/unknown-store")), 404);
});

it("path ids holding %0A, %0D or U+2028 answer the API's JSON error, not the HTML 404 page", async () => {
  for (const id of ["a%0A", "a%0Db", "%0A", "x%E2%80%A8y"]) {
    const body = await expectJsonError(await handle(new Request(`http://localhost/api/stores/${id}`)), [400, 404]);
    expect(body.error.message).not.toMatch(/<html/i);
  }
  await expectJsonError(await handle(new Request("http://localhost/api/no-such%0Aendpoint", { method: "POST" })), 404);
  // A NUL in the id is the API's 400 (text the database cannot store), in the same shape.
  await expectJsonError(await handle(new Request("http://localhost/api/stores/a%0A%00")), 400);
});
