/**
 * The React storefront: `npx vite build --config storefront/vite.config.ts` writes build/storefront,
 * which the server serves at the shopper paths. Assets go under /sf-assets (the Remix app owns /assets).
 */
import { fileURLToPath } from "node:url";
import path from "node:path";
import { defineConfig, type Plugin } from "vite";
import react from "@vitejs/plugin-react";
import { endpoints } from "../app/contract/index";
import { routeTableModule } from "../extensions/theme-blocks/vite.config";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "..");
const appDir = path.join(repo, "app");

/** The storefront runs in the browser: importing a server-only module (`*.server.ts`) is a build error. */
function noServerModules(): Plugin {
  return {
    name: "storefront:no-server-modules",
    enforce: "pre",
    async resolveId(source, importer, options) {
      if (!importer || importer.includes("node_modules")) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (resolved && /\.server\.[cm]?[jt]sx?$/.test(resolved.id.split("?")[0])) {
        this.error(`The storefront must not import server-only module ${resolved.id} (from ${importer})`);
      }
      return resolved;
    },
  };
}

/**
 * In the build, `src/lib/api-routes.ts` (the contract's endpoints in tests and dev) becomes the
 * route table generated from the contract: method and path per endpoint, no zod schema.
 */
function apiRouteTable(): Plugin {
  const file = path.join(here, "src", "lib", "api-routes.ts");
  return {
    name: "storefront:api-route-table",
    apply: "build",
    load(id) {
      if (id.split("?")[0] !== file) return null;
      return `${routeTableModule(endpoints as never)}\nexport const apiRoutes = {${Object.keys(endpoints).join(", ")}};`;
    },
  };
}

/**
 * The contract is declarations only (zod schemas, endpoint definitions, constants), but a bundler
 * must assume a call may do something. Marked pure here, a schema or a definition that no
 * storefront module uses is left out of the build (and zod with them where none is used).
 */
function pureContract(): Plugin {
  const dir = path.join(appDir, "contract") + path.sep;
  return {
    name: "storefront:pure-contract",
    apply: "build",
    enforce: "post",
    transform(code, id) {
      if (!id.startsWith(dir)) return null;
      // A call that starts an expression (after `=`, `(`, `,`, `:`, `[`, `?`, `return`): `z.string().min(1)`, `endpoint({…})`, `Base.extend({…})`.
      return { code: code.replace(/([=(,:[?]\s*|\breturn\s+)(?=[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\()/g, "$1/*#__PURE__*/ "), map: null };
    },
  };
}

/**
 * The contract and the client library are side-effect free: a page that imports one constant or
 * one schema of the contract gets that, not every area's zod schemas.
 */
const sideEffectFree = [path.join(appDir, "contract") + path.sep, path.join(appDir, "client") + path.sep];

export default defineConfig({
  root: here,
  base: "/",
  publicDir: false,
  plugins: [noServerModules(), apiRouteTable(), pureContract(), react()],
  resolve: {
    alias: [{ find: /^~\//, replacement: `${appDir}/` }],
  },
  build: {
    outDir: path.join(repo, "build", "storefront"),
    emptyOutDir: true,
    assetsDir: "sf-assets",
    // Production serves no source maps (the server also refuses *.map under /sf-assets).
    sourcemap: false,
    // One stylesheet for every page (≈ 12 KB brotli): a page's split CSS files were each render-blocking
    // requests in the head, which delayed the first paint more than the few KB they saved.
    cssCodeSplit: false,
    // build/storefront/.vite/manifest.json: which chunks a page needs, for the server's preload links.
    manifest: true,
    rollupOptions: {
      output: {
        // Many pages statically import a dozen 1–3 KB modules (hooks, formatters, small components):
        // each was its own chunk, and on a phone's connection (HTTP/1.1, six connections per host) two
        // dozen requests cost round trips before the page could render. Small chunks are merged into
        // the chunks loaded with them.
        experimentalMinChunkSize: 12_000,
      },
      treeshake: {
        moduleSideEffects: (id) => !sideEffectFree.some((dir) => id.startsWith(dir)),
      },
      // zod ships comments Rollup cannot place; the warning is harmless and drowns real ones.
      onwarn(warning, warn) {
        if (warning.code === "INVALID_ANNOTATION") return;
        warn(warning);
      },
    },
    target: "es2020",
  },
  server: {
    port: 5173,
    proxy: {
      "/api": { target: "http://localhost:3000", changeOrigin: false },
      "/uploads": { target: "http://localhost:3000", changeOrigin: false },
    },
  },
});
