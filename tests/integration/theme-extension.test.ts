/**
 * The theme app extension, offline: its block scripts built from the client library (each within
 * its 30 KB gzip budget, none carrying zod or a second copy of the contract), Shopify's theme check
 * and `shopify app build` through the Shopify CLI, the rules `shopify app deploy` applies to the
 * extension's files, and every block's schema, texts and script.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { BLOCK_SCRIPTS, BLOCK_STYLESHEET, SCRIPT_GZIP_BUDGET_BYTES } from "../../extensions/theme-blocks/src/manifest";
import { blockNames, blockSource, renderPreviewBlock } from "../../app/services/theme-preview/blocks.server";
import { blockSchema } from "../../app/services/theme-preview/liquid.server";

const root = path.resolve(__dirname, "../..");
const ext = path.join(root, "extensions/theme-blocks");
const asset = (file: string) => path.join(ext, "assets", file);
const bin = (name: string) => path.join(root, "node_modules/.bin", name);
// The Shopify CLI needs Node 22 (node_modules/.bin/node, STACK.md).
const cliEnv = { ...process.env, SHOPIFY_CLI_NO_ANALYTICS: "1", PATH: `${path.join(root, "node_modules/.bin")}${path.delimiter}${process.env.PATH}` };
const locale = JSON.parse(fs.readFileSync(path.join(ext, "locales/en.default.json"), "utf8"));

describe("theme app extension", () => {
  beforeAll(() => {
    const r = spawnSync(bin("vite"), ["build", "--config", "extensions/theme-blocks/vite.config.ts"], { cwd: root, encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
  }, 180_000);

  it("builds one script per block family, each at most 30 KB gzipped", () => {
    const sizes: Record<string, number> = {};
    for (const s of BLOCK_SCRIPTS) {
      const code = fs.readFileSync(asset(s.file));
      expect(code.length, s.file).toBeGreaterThan(500);
      sizes[s.file] = zlib.gzipSync(code, { level: 9 }).length;
      expect(sizes[s.file], `${s.file} gzipped`).toBeLessThanOrEqual(SCRIPT_GZIP_BUDGET_BYTES);
    }
    console.info("theme block scripts, gzipped bytes:", sizes);
    expect(fs.readFileSync(asset("fashion-blocks.js"), "utf8")).toContain("fd-product-feed");
  });

  it("the scripts use the client library with routes generated from the contract, without zod", () => {
    for (const s of BLOCK_SCRIPTS) {
      const code = fs.readFileSync(asset(s.file), "utf8");
      expect(code, s.file).not.toMatch(/ZodError|\$ZodType|zod/);
      // Endpoint summaries (contract text) never reach the browser.
      expect(code, s.file).not.toContain("Record that the current user viewed a product");
    }
    expect(fs.readFileSync(asset("fd-save-button.js"), "utf8")).toContain("/users/saved-products/toggle");
    expect(fs.readFileSync(asset("fd-reviews.js"), "utf8")).toContain("/product-reviews/images");
    expect(fs.readFileSync(asset("fd-app-embed.js"), "utf8")).toContain("/users/merge-guest-into-me");
    // Each script carries only the routes it calls.
    expect(fs.readFileSync(asset("fd-try-on.js"), "utf8")).not.toContain("/users/");
    expect(fs.readFileSync(asset("fd-recommendations.js"), "utf8")).not.toContain("/product-reviews");
  });

  it("every block is in the manifest and loads its own script and the stylesheet", () => {
    const names = blockNames();
    expect(names.sort()).toEqual(BLOCK_SCRIPTS.flatMap((s) => s.blocks).sort());
    for (const s of BLOCK_SCRIPTS) {
      for (const block of s.blocks) {
        const src = blockSource(block);
        expect(src, block).toContain(`<script src="{{ '${s.file}' | asset_url }}" defer></script>`);
        if (block !== "app-embed") expect(src, block).toContain(`{{ '${BLOCK_STYLESHEET}' | asset_url | stylesheet_tag }}`);
      }
    }
  });

  it("every block has a valid schema, settings with unique ids, and its texts in the locale file", () => {
    const lookup = (key: string) => key.split(".").reduce<any>((o, k) => o?.[k], locale);
    for (const name of blockNames()) {
      const src = blockSource(name);
      const schema = blockSchema(src);
      expect(schema.name, name).toEqual(expect.any(String));
      expect(schema.name!.length, `${name}: Shopify allows 25 characters`).toBeLessThanOrEqual(25);
      expect(name === "app-embed" ? "body" : "section").toBe(schema.target);
      const ids = (schema.settings ?? []).map((s) => s.id).filter(Boolean);
      expect(new Set(ids).size, name).toBe(ids.length);
      const keys = [...src.matchAll(/'([a-z_.]+)'\s*\|\s*t\b/g)].map((m) => m[1]);
      for (const key of keys) expect(lookup(key), `${name}: ${key}`).toEqual(expect.any(String));
      // Every data-text-* attribute comes from the locale file, never hard-coded English.
      for (const m of src.matchAll(/data-text-[a-z-]+="([^"]*)"/g)) expect(m[1], `${name}: ${m[0]}`).toMatch(/^\{\{ '[a-z_.]+' \| t(: [^|]+)? \| escape \}\}$/);
    }
  });

  it("renders every block from its Liquid (theme preview) with its script", async () => {
    for (const s of BLOCK_SCRIPTS) {
      for (const name of s.blocks) {
        const html = await renderPreviewBlock({ name }, { template: "product", product: { id: "1001", handle: "linen-shirt", title: "Linen shirt" }, customer: null });
        expect(html, name).toContain(`<script src="/theme-preview/assets/${s.file}" defer></script>`);
        expect(html, name).not.toMatch(/\{\{|\{%/);
        expect(html, name).toContain('data-proxy-base="/apps/fashion"');
      }
    }
  });

  it("passes theme check with no offence", () => {
    const r = spawnSync(bin("shopify"), ["theme", "check", "--path", "extensions/theme-blocks", "-C", ":theme_app_extension", "--fail-level", "info", "--output", "json"], {
      cwd: root,
      encoding: "utf8",
      env: cliEnv,
    });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const report = JSON.parse(r.stdout.slice(r.stdout.indexOf("["))) as { offenses: unknown[] }[];
    expect(report.flatMap((f) => f.offenses)).toEqual([]);
  }, 90_000);

  it("`shopify app build` builds the extension offline", () => {
    // A copy of the app's configuration and the extension, so the CLI writes nothing into the project.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fd-app-build-"));
    try {
      fs.copyFileSync(path.join(root, "shopify.app.toml"), path.join(dir, "shopify.app.toml"));
      fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "fashion-discovery-extension-check", private: true }));
      fs.cpSync(ext, path.join(dir, "extensions/theme-blocks"), { recursive: true });
      const r = spawnSync(bin("shopify"), ["app", "build", "--path", dir, "--skip-dependencies-installation"], { cwd: dir, encoding: "utf8", env: cliEnv });
      expect(r.status, r.stdout + r.stderr).toBe(0);
      expect(r.stdout + r.stderr).toMatch(/built!/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);

  it("holds only what `shopify app deploy` accepts (its pre-deploy rules), sources left out by .shopifyignore", () => {
    // The CLI lists `*/*` under the extension, minus .shopifyignore, and accepts only these.
    const allowed: Record<string, RegExp> = { assets: /\.(jpg|jpeg|json|js|css|png|svg|wasm)$/, blocks: /\.liquid$/, locales: /\.json$/, snippets: /\.liquid$/ };
    const ignore = fs
      .readFileSync(path.join(ext, ".shopifyignore"), "utf8")
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith("#"));
    expect(ignore).toContain("src/**");
    let total = 0;
    let liquid = 0;
    for (const dir of fs.readdirSync(ext, { withFileTypes: true })) {
      if (!dir.isDirectory() || dir.name.startsWith(".") || dir.name === "src") continue;
      expect(Object.keys(allowed), `unsupported directory ${dir.name}`).toContain(dir.name);
      for (const f of fs.readdirSync(path.join(ext, dir.name))) {
        expect(f, `${dir.name}/${f}`).toMatch(allowed[dir.name]);
        const size = fs.statSync(path.join(ext, dir.name, f)).size;
        total += size;
        if (dir.name === "blocks" || dir.name === "snippets") liquid += size;
      }
    }
    expect(total).toBeLessThanOrEqual(10 * 1024 * 1024);
    expect(liquid).toBeLessThanOrEqual(500 * 1024);
  });
});
