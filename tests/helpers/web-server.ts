/**
 * The Express app as server.ts assembles it (security headers, CSRF check, Remix in its one mode,
 * the storefront fallback, the final error handler) over a test app's database, with a Remix
 * build made of the real route modules the test names instead of the Vite build (integration
 * tests run without `npm run build`). Requests go over real HTTP.
 */
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express from "express";
import type { ServerBuild } from "@remix-run/node";
import type { AppConfig } from "../../app/config.server";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { csrfProtection } from "../../app/lib/csrf.server";
import { finalErrorHandler } from "../../app/lib/express-errors.server";
import { remixRequestHandler } from "../../app/lib/remix-handler.server";
import { isRemixRequest } from "../../app/lib/request-routing";
import { securityHeaders } from "../../app/lib/security-headers.server";
import type { TestApp } from "./app";

type RouteModule = ServerBuild["routes"][string]["module"];
/** A route module as written: resource routes have no component. */
type TestRouteModule = Omit<RouteModule, "default"> & { default?: RouteModule["default"] };

export interface TestRoute {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  module: TestRouteModule;
}

/** A stand-in for the storefront's built index.html (a module script, no inline script). */
export const STOREFRONT_HTML = '<!doctype html><html><head><script type="module" src="/sf-assets/index.js"></script></head><body><div id="root"></div></body></html>';

/** The build of the named routes under the real root and entry (imported once the database is set: they load shopify.server). */
export async function serverBuild(routes: TestRoute[]): Promise<ServerBuild> {
  const entry = await import("../../app/entry.server");
  const root = await import("../../app/root");
  const all: TestRoute[] = [{ id: "root", path: "", module: root }, ...routes.map((r) => ({ ...r, parentId: r.parentId ?? "root" }))];
  return {
    mode: "production",
    entry: { module: entry },
    routes: Object.fromEntries(all.map((r) => [r.id, { id: r.id, parentId: r.parentId, path: r.path, index: r.index, module: r.module as RouteModule }])),
    assets: {
      entry: { imports: [], module: "/assets/entry.client.js" },
      url: "/assets/manifest.js",
      version: "test",
      routes: Object.fromEntries(
        all.map((r) => [
          r.id,
          {
            id: r.id,
            parentId: r.parentId,
            path: r.path,
            index: r.index,
            module: `/assets/${r.id.replace(/\W/g, "_")}.js`,
            hasAction: Boolean(r.module.action),
            hasLoader: Boolean(r.module.loader),
            hasClientAction: false,
            hasClientLoader: false,
            hasErrorBoundary: Boolean(r.module.ErrorBoundary),
            imports: [],
            css: [],
          },
        ]),
      ),
    },
    publicPath: "/",
    assetsBuildDirectory: "build/client",
    future: { v3_fetcherPersist: true, v3_relativeSplatPath: true, v3_throwAbortReason: true, v3_lazyRouteDiscovery: true, v3_singleFetch: true },
    isSpaMode: false,
  };
}

export interface WebServer {
  baseUrl: string;
  close(): Promise<void>;
}

export async function startWebServer(
  app: TestApp,
  opts: { routes: TestRoute[]; config?: Partial<AppConfig>; trustProxy?: boolean; expressEnv?: "development" | "production" },
): Promise<WebServer> {
  setPrisma(app.database.db);
  setAppContext(app.ctx);
  const config = { ...app.ctx.config, ...opts.config };
  const web = express();
  web.set("env", opts.expressEnv ?? "development");
  web.disable("x-powered-by");
  web.set("trust proxy", opts.trustProxy ?? false);
  web.use(securityHeaders(config));
  web.use(csrfProtection(config, app.ctx.log));
  const remix = remixRequestHandler(await serverBuild(opts.routes), (req) => ({ clientIp: req.ip ?? "unknown" }));
  web.use("/uploads", express.static(app.dataDir, { index: false }));
  web.all("*", (req, res, next) => {
    const url = new URL(req.originalUrl, "http://local");
    if (isRemixRequest(url.pathname, url.searchParams)) return remix(req, res, next);
    if (req.method !== "GET" && req.method !== "HEAD") return res.status(404).json({ error: { code: "not_found", message: "Not found" } });
    res.setHeader("Cache-Control", "no-cache");
    return res.type("html").send(STOREFRONT_HTML);
  });
  web.use(finalErrorHandler(app.ctx.log));
  const server: Server = await new Promise((resolve) => {
    const s = web.listen(0, "127.0.0.1", () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
