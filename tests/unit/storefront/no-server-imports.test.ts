import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../storefront/src");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? files(p) : /\.(ts|tsx)$/.test(name) ? [p] : [];
  });
}

describe("storefront sources", () => {
  it("never import server-only modules", () => {
    const offenders: string[] = [];
    for (const file of files(root)) {
      const text = readFileSync(file, "utf8");
      for (const m of text.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)) {
        if (/\.server(\.[jt]sx?)?$/.test(m[1]) || /(^|\/)(db|context|config)\.server/.test(m[1])) offenders.push(`${path.relative(root, file)}: ${m[1]}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
