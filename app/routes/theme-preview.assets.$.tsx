/**
 * LOCAL MODE ONLY: the theme blocks' built assets for /theme-preview, read from
 * extensions/theme-blocks/assets/. Only the block scripts (src/manifest.ts) and the stylesheet
 * are served; anything else is 404.
 */
import fs from "node:fs/promises";
import path from "node:path";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { getConfig } from "~/config.server";

import { BLOCK_SCRIPTS, BLOCK_STYLESHEET } from "../../extensions/theme-blocks/src/manifest";

const THEME_ASSETS_DIR = path.resolve(process.cwd(), "extensions/theme-blocks/assets");

const FILES: Record<string, string> = {
  ...Object.fromEntries(BLOCK_SCRIPTS.map((s) => [s.file, "text/javascript; charset=utf-8"])),
  [BLOCK_STYLESHEET]: "text/css; charset=utf-8",
};

const notFound = (message: string) => new Response(message, { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });

export const loader = async ({ params }: LoaderFunctionArgs) => {
  const config = getConfig();
  if (config.APP_MODE !== "local" || config.COMMERCE_ADAPTER === "shopify") return notFound("Not found");
  const name = params["*"] ?? "";
  const type = Object.hasOwn(FILES, name) ? FILES[name] : undefined;
  if (!type) return notFound("Not found");
  let body: string;
  try {
    body = await fs.readFile(path.join(THEME_ASSETS_DIR, name), "utf8");
  } catch {
    return notFound(`${name} is not built: run \`npm run build:blocks\``);
  }
  return new Response(body, {
    headers: { "content-type": type, "cache-control": "no-cache", "x-content-type-options": "nosniff" },
  });
};
