/**
 * The one server process: embedded admin and vendor pages (/app), Shopify auth and webhooks,
 * the API (/api), the App Proxy (/proxy), uploaded files (/uploads) and their sizes (/images), the built React
 * storefront at the shopper paths. Run by `npm start` (scripts/start.ts builds first if needed).
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import compression from "compression";
import express from "express";
import type { ServerBuild } from "@remix-run/node";
import { boot } from "./app/boot.server";
import { ConfigError } from "./app/config.server";
import { isRemixRequest } from "./app/lib/request-routing";
import { csrfProtection } from "./app/lib/csrf.server";
import { securityHeaders } from "./app/lib/security-headers.server";
import { remixRequestHandler } from "./app/lib/remix-handler.server";
import { finalErrorHandler } from "./app/lib/express-errors.server";
import { robotsRoute, sitemapRoute, storefrontAssets, storefrontPage } from "./app/lib/storefront-html.server";
import { createPagePrefetch } from "./app/lib/storefront-prefetch.server";
import { SESSION_COOKIE } from "./app/api/auth.server";
import { createRequestHandler as createRemixFetchHandler } from "@remix-run/node";
import { appBaseUrl } from "./app/lib/app-url";
import { imageRoute, imageVariantCache } from "./app/lib/image-route.server";

const root = path.dirname(fileURLToPath(import.meta.url));
const buildDir = path.join(root, "build");

export async function startServer(env: Record<string, string | undefined> = process.env) {
  const startedAt = performance.now();
  const booted = await boot({ env });
  const { config, log } = booted;

  const serverBuildPath = path.join(buildDir, "server", "index.js");
  if (!fs.existsSync(serverBuildPath)) throw new Error(`No build at ${serverBuildPath}: run \`npm run build\` (npm start does it for you)`);
  const remixBuild = (await import(pathToFileURL(serverBuildPath).href)) as ServerBuild;

  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", config.TRUST_PROXY);
  app.use(compression());
  app.use(securityHeaders(config));
  app.use(csrfProtection(config, log));

  // A file missing under these prefixes is a 404 (finalErrorHandler), not the storefront's page
  // with 200: a broken image or script link must fail visibly (fallthrough: false).
  app.use(
    "/uploads",
    express.static(path.join(config.DATA_DIR, "uploads"), {
      index: false,
      maxAge: "7d",
      fallthrough: false,
      setHeaders: (res) => res.setHeader("X-Content-Type-Options", "nosniff"),
    }),
  );
  // Stored images in sizes and formats (`/images/<key>?w=320&fm=webp`), made on first request.
  app.use("/images", imageRoute({ storage: booted.ctx.storage, cache: imageVariantCache(config), log }));
  app.use("/assets", express.static(path.join(buildDir, "client", "assets"), { immutable: true, maxAge: "1y", index: false, fallthrough: false }));
  app.use(express.static(path.join(buildDir, "client"), { index: false, maxAge: "1h" }));
  const storefrontDir = path.join(buildDir, "storefront");
  app.use("/sf-assets", storefrontAssets(storefrontDir));
  const seo = { db: booted.ctx.db, origin: () => appBaseUrl(config), storefrontDir, log };
  app.get("/robots.txt", robotsRoute(seo));
  app.get("/sitemap.xml", sitemapRoute(seo));
  // The storefront's HTML carries its first API answers, made by the same built app in-process.
  const remixFetch = createRemixFetchHandler(remixBuild, "production");
  const prefetch = createPagePrefetch({ apiFetch: (request, clientIp) => remixFetch(request, { clientIp, cspNonce: "" }), sessionCookie: SESSION_COOKIE, log });
  const storefront = storefrontPage({ ...seo, prefetch });

  const remixHandler = remixRequestHandler(remixBuild, (req) => ({ clientIp: req.ip ?? req.socket.remoteAddress ?? "unknown" }));

  app.all("*", (req, res, next) => {
    const url = new URL(req.originalUrl, "http://local");
    if (isRemixRequest(url.pathname, url.searchParams)) return remixHandler(req, res, next);
    if (req.method !== "GET" && req.method !== "HEAD") return res.status(404).json({ error: { code: "not_found", message: "Not found" } });
    // The storefront is a single-page app: every shopper path gets its index, with the page's title, description and structured data.
    return storefront(req, res, next);
  });
  app.use(finalErrorHandler(log));

  const server = await new Promise<import("node:http").Server>((resolve, reject) => {
    const s = app.listen(config.PORT, config.HOST, () => resolve(s));
    s.once("error", (e: NodeJS.ErrnoException) => {
      void booted.shutdown();
      reject(e.code === "EADDRINUSE" ? new Error(`Port ${config.PORT} is already in use: start with another one, e.g. PORT=${config.PORT + 1} npm start`) : e);
    });
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.PORT;
  // PORT=0 let the system pick: links written from now on (emails) must carry the real one.
  if (config.PORT === 0) config.PORT = port;
  const host = config.HOST === "0.0.0.0" ? "localhost" : config.HOST;
  const baseUrl = `http://${host}:${port}`;

  let closing = false;
  const close = async () => {
    if (closing) return;
    closing = true;
    await new Promise<void>((r) => server.close(() => r()));
    await booted.shutdown();
  };

  return { ...booted, server, baseUrl, port, close, startMs: Math.round(performance.now() - startedAt) };
}

export async function main() {
  try {
    const s = await startServer();
    const lines = [
      "",
      `  Fashion Discovery is running (${s.config.APP_MODE} mode, ${s.embedded ? "embedded PGlite in " + path.join(s.config.DATA_DIR, "pgdata") : "PostgreSQL"}) — started in ${(s.startMs / 1000).toFixed(1)} s`,
      "",
      `  Storefront:  ${s.baseUrl}/`,
      `  Admin:       ${s.baseUrl}/app`,
      `  API docs:    ${s.baseUrl}/api/docs`,
      `  Health:      ${s.baseUrl}/api/health`,
    ];
    if (s.config.APP_MODE === "local") {
      lines.push(
        "",
        "  Demo accounts (password: demo-password):",
        "    admin@demo.local     admin with every permission",
        "    vendor@demo.local    vendor (Northwind Atelier)",
        "    shopper@demo.local   shopper",
      );
      if (s.seeded?.created) lines.push("", `  Demo data created: ${Object.entries(s.seeded.counts).map(([k, v]) => `${v} ${k}`).join(", ")}`);
    }
    console.log(lines.join("\n") + "\n");
    const stop = (signal: string) => {
      console.log(`\n  ${signal}: stopping…`);
      s.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    };
    process.on("SIGINT", () => stop("SIGINT"));
    process.on("SIGTERM", () => stop("SIGTERM"));
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(`\n${e.message}\n\nSee the Configuration section of README.md.\n`);
    } else console.error(`\n  Could not start: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) void main();
