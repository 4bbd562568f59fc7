/**
 * The HTTP server of the throughput benchmark, run as its own process (so the load generator
 * does not share its event loop): `tsx scripts/bench/serve.ts` with DATABASE_URL, DATA_DIR and
 * WORKER=off in the environment. Prints one JSON line `{"port", "mode"}` when it listens.
 *
 * With an up-to-date build in build/ it is the app's own server (server.ts `startServer`: Express,
 * Remix, the /api route). Without one (or with a build older than the sources) it is Express with
 * the same API handler mounted at /api through a minimal adapter, and says so in `mode`.
 */
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const env = { ...process.env, PORT: "0", HOST: "127.0.0.1" };

async function remixServer() {
  const { startServer } = await import("../../server");
  const s = await startServer(env);
  return { port: s.port, mode: "server.ts (Express + Remix build)", close: s.close };
}

async function apiOnlyServer() {
  const [{ default: express }, { default: compression }, { boot }, { handleApiRequest }] = await Promise.all([
    import("express"),
    import("compression"),
    import("../../app/boot.server"),
    import("../../app/api/index.server"),
  ]);
  const booted = await boot({ env, seed: false });
  const app = express();
  app.disable("x-powered-by");
  app.use(compression());
  app.all("/api/*", async (req, res) => {
    try {
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) {
        if (Array.isArray(v)) v.forEach((x) => headers.append(k, x));
        else if (v !== undefined) headers.set(k, v);
      }
      const init: RequestInit & { duplex?: "half" } = { method: req.method, headers };
      if (req.method !== "GET" && req.method !== "HEAD") {
        init.body = Readable.toWeb(req) as unknown as ReadableStream;
        init.duplex = "half";
      }
      const response = await handleApiRequest(new Request(`http://${req.headers.host ?? "127.0.0.1"}${req.originalUrl}`, init), booted.ctx, {
        clientIp: req.ip ?? req.socket.remoteAddress ?? "unknown",
      });
      res.status(response.status);
      response.headers.forEach((v, k) => res.setHeader(k, v));
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch (e) {
      res.status(500).json({ error: { code: "internal", message: e instanceof Error ? e.message : String(e) } });
    }
  });
  const server = await new Promise<import("node:http").Server>((resolve, reject) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
    s.once("error", reject);
  });
  const address = server.address();
  return {
    port: typeof address === "object" && address ? address.port : 0,
    mode: "Express + the API handler at /api, without Remix",
    close: async () => {
      await new Promise<void>((r) => server.close(() => r()));
      await booted.shutdown();
    },
  };
}

/** Newest modification time of the server's sources (app/ and server.ts). */
function newestSource(dir: string): number {
  let newest = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, newestSource(p));
    else if (/\.(ts|tsx)$/.test(e.name)) newest = Math.max(newest, fs.statSync(p).mtimeMs);
  }
  return newest;
}

/**
 * BENCH_SERVER: `build` (server.ts on the build), `api` (the API handler without Remix) or `auto`
 * (default): the build when it exists and is newer than every source file, else the API handler
 * (a stale build would measure old code).
 */
function choose(): { use: "build" | "api"; why: string } {
  const wanted = process.env.BENCH_SERVER ?? "auto";
  const buildFile = path.join(root, "build", "server", "index.js");
  if (wanted === "api") return { use: "api", why: "BENCH_SERVER=api" };
  if (!fs.existsSync(buildFile)) return wanted === "build" ? { use: "build", why: "" } : { use: "api", why: "no build in build/" };
  if (wanted === "build") return { use: "build", why: "" };
  const built = fs.statSync(buildFile).mtimeMs;
  const newest = Math.max(newestSource(path.join(root, "app")), fs.statSync(path.join(root, "server.ts")).mtimeMs);
  return newest > built ? { use: "api", why: "build/ is older than the sources in app/" } : { use: "build", why: "" };
}

const choice = choose();
const s = await (choice.use === "build"
  ? remixServer()
  : apiOnlyServer().then((x) => ({ ...x, mode: `Express + the API handler at /api, without Remix (${choice.why}; \`npm run build\` first, or --server=build, to measure the whole server.ts stack)` })));
process.stdout.write(`${JSON.stringify({ port: s.port, mode: s.mode })}\n`);
let closing = false;
const stop = () => {
  if (closing) return;
  closing = true;
  s.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
