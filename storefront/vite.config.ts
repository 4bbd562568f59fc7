/**
 * The React storefront: `npx vite build --config storefront/vite.config.ts` writes build/storefront,
 * which the server serves at the shopper paths. Assets go under /sf-assets (the Remix app owns /assets).
 */
import { fileURLToPath } from "node:url";
import path from "node:path";
import { defineConfig, type Plugin } from "vite";
import react from "@vitejs/plugin-react";

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

export default defineConfig({
  root: here,
  base: "/",
  publicDir: false,
  plugins: [noServerModules(), react()],
  resolve: {
    alias: [{ find: /^~\//, replacement: `${appDir}/` }],
  },
  build: {
    outDir: path.join(repo, "build", "storefront"),
    emptyOutDir: true,
    assetsDir: "sf-assets",
    rollupOptions: {
      // zod ships comments Rollup cannot place; the warning is harmless and drowns real ones.
      onwarn(warning, warn) {
        if (warning.code === "INVALID_ANNOTATION") return;
        warn(warning);
      },
    },
    sourcemap: true,
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
