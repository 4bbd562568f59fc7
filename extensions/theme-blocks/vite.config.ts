/**
 * Builds the theme blocks' scripts (src/manifest.ts lists them) into assets/: one minified,
 * self-contained IIFE per block family, which the Liquid blocks load with `defer`.
 * Run from the repository root: `npm run build:blocks` (one command builds every file: the
 * first through this config, the others from its closeBundle hook, since Rollup cannot emit
 * several IIFE files from one build).
 *
 * The blocks use the app's one client library (app/client/core.ts) with a route table generated
 * here from the contract (`virtual:fd-api-routes`: for each endpoint name its method, path and
 * whether it takes a body). The contract's zod schemas stay on the server, so each script stays
 * far below its 30 KB gzip budget, and no path is written twice.
 * The outputs are generated (git-ignored); assets/fashion-blocks.css is hand-written and kept.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build, defineConfig, type InlineConfig, type Plugin } from "vite";
import { endpoints } from "../../app/contract/index";
import { BLOCK_SCRIPTS, type BlockScript } from "./src/manifest";

const here = path.dirname(fileURLToPath(import.meta.url));
const ROUTES_ID = "virtual:fd-api-routes";

/** `export const <name> = {method, path[, body]}` for every endpoint of the contract. */
export function routeTableModule(defs: Record<string, { method: string; path: string; body?: unknown }>): string {
  return Object.entries(defs)
    .map(([name, def]) => {
      if (!/^[A-Za-z_$][\w$]*$/.test(name)) throw new Error(`Endpoint name "${name}" is not a valid identifier`);
      const route = { method: def.method, path: def.path, ...(def.body ? { body: 1 } : {}) };
      return `export const ${name} = ${JSON.stringify(route)};`;
    })
    .join("\n");
}

function apiRoutes(): Plugin {
  return {
    name: "fd-api-routes",
    resolveId: (id) => (id === ROUTES_ID ? `\0${ROUTES_ID}` : null),
    load: (id) => (id === `\0${ROUTES_ID}` ? routeTableModule(endpoints as never) : null),
  };
}

function blockConfig(script: BlockScript, extraPlugins: Plugin[] = [], outDir = path.resolve(here, "assets")): InlineConfig {
  return {
    configFile: false,
    root: here,
    publicDir: false,
    logLevel: "warn",
    plugins: [apiRoutes(), ...extraPlugins],
    resolve: { alias: { "~": path.resolve(here, "../../app") } },
    define: { "process.env.NODE_ENV": JSON.stringify("production") },
    build: {
      outDir,
      emptyOutDir: false,
      minify: true,
      target: "es2020",
      sourcemap: false,
      copyPublicDir: false,
      reportCompressedSize: true,
      rollupOptions: {
        // zod's sources carry comments Rollup cannot place ("INVALID_ANNOTATION"): harmless noise.
        onwarn(warning, warn) {
          if (warning.code === "INVALID_ANNOTATION" && warning.id?.includes("node_modules/")) return;
          warn(warning);
        },
      },
      lib: {
        entry: path.resolve(here, "src", script.entry),
        formats: ["iife"],
        // Only the product feed exposes an API (window.FashionBlocks, kept for compatibility).
        name: script.file === "fashion-blocks.js" ? "FashionBlocks" : `FashionBlocks_${script.entry.replace(/\W+/g, "_")}`,
        fileName: () => script.file,
      },
    },
  };
}

/** After the first script, builds the others (sequentially: they share the output folder). */
function buildTheRest(rest: readonly BlockScript[]): Plugin {
  let failed = false;
  let outDir: string | undefined;
  return {
    name: "fd-build-other-blocks",
    apply: "build",
    configResolved(resolved) {
      // `vite build --outDir …` applies to every script.
      outDir = path.resolve(resolved.root, resolved.build.outDir);
    },
    buildEnd(error) {
      failed = !!error;
    },
    async closeBundle() {
      if (failed) return;
      for (const script of rest) await build(blockConfig(script, [], outDir));
    },
  };
}

const [first, ...rest] = BLOCK_SCRIPTS;
// The first script is this config's own build (with Vite's usual output); the others follow it.
const { configFile: _ownFile, logLevel: _quiet, ...config } = blockConfig(first, [buildTheRest(rest)]);

export default defineConfig(config);
