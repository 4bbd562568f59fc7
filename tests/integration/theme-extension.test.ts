/**
 * The theme app extension passes Shopify's theme check (offline, through the Shopify CLI), with
 * its block script built from the client library.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "../..");
const asset = path.join(root, "extensions/theme-blocks/assets/fashion-blocks.js");

describe("theme app extension", () => {
  beforeAll(() => {
    const r = spawnSync(path.join(root, "node_modules/.bin/vite"), ["build", "--config", "extensions/theme-blocks/vite.config.ts"], { cwd: root, encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
  }, 120_000);

  it("builds the block script as one file", () => {
    expect(fs.statSync(asset).size).toBeGreaterThan(1000);
    expect(fs.readFileSync(asset, "utf8")).toContain("fd-product-feed");
  });

  it("passes theme check with no offence", () => {
    const r = spawnSync(path.join(root, "node_modules/.bin/shopify"), ["theme", "check", "--path", "extensions/theme-blocks", "-C", ":theme_app_extension", "--fail-level", "info", "--output", "json"], {
      cwd: root,
      encoding: "utf8",
      env: { ...process.env, SHOPIFY_CLI_NO_ANALYTICS: "1" },
    });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const report = JSON.parse(r.stdout.slice(r.stdout.indexOf("["))) as { offenses: unknown[] }[];
    expect(report.flatMap((f) => f.offenses)).toEqual([]);
  }, 60_000);
});
