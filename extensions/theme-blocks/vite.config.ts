/**
 * Builds the theme blocks' script: src/product-feed.ts (with the app's typed client from app/)
 * into assets/fashion-blocks.js, one minified IIFE (`window.FashionBlocks`) that the Liquid
 * block loads with `defer`. Run from the repository root: `npm run build:blocks`.
 * The output is generated (git-ignored); assets/fashion-blocks.css is hand-written and kept.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const here = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  root: here,
  publicDir: false,
  resolve: { alias: { "~": path.resolve(here, "../../app") } },
  define: { "process.env.NODE_ENV": JSON.stringify("production") },
  build: {
    outDir: path.resolve(here, "assets"),
    emptyOutDir: false,
    minify: true,
    target: "es2020",
    sourcemap: false,
    copyPublicDir: false,
    reportCompressedSize: true,
    rollupOptions: {
      // zod's sources carry comments Rollup cannot place ("INVALID_ANNOTATION"): harmless noise.
      onwarn(warning, warn) {
        if (warning.code === "INVALID_ANNOTATION" && warning.id?.includes("node_modules/zod/")) return;
        warn(warning);
      },
    },
    lib: {
      entry: path.resolve(here, "src/product-feed.ts"),
      formats: ["iife"],
      name: "FashionBlocks",
      fileName: () => "fashion-blocks.js",
    },
  },
});
