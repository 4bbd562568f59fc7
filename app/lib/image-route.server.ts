/**
 * The image route, `/images/<key>?w=<width>&fm=<avif|webp|jpeg|png>` (Express, before the
 * storefront's fallback): the stored image `images/<key>` in one of the allowed sizes and formats
 * (app/services/image-variants.server.ts; URLs built by app/client/images.ts). Answers carry
 * `Cache-Control: public, max-age=31536000, immutable` and an ETag (a hash of the original's
 * bytes with the size and format): a CDN in front keeps them for a year. Refusals: 400 for a
 * width, format or parameter not allowed or a path that is not an image name (`..`, odd
 * characters), 404 for no such image, 415 for a stored file that is not an image, 405 for
 * methods other than GET and HEAD; refusals are never cached.
 */
import path from "node:path";
import type { RequestHandler } from "express";
import type { AppConfig } from "~/config.server";
import { DomainError } from "~/lib/domain-errors";
import type { Logger } from "~/lib/logger.server";
import { createLocalStorage, type StoragePort } from "~/providers/storage.server";
import { createImageVariants, type ImageVariants } from "~/services/image-variants.server";

export const IMAGE_CACHE_CONTROL = "public, max-age=31536000, immutable";

/**
 * Where variants are kept: `DATA_DIR/image-cache` (safe to delete: variants are made again on
 * request). With S3 storage this would be the bucket under a `variants/` prefix.
 */
export function imageVariantCache(config: Pick<AppConfig, "DATA_DIR">): Pick<StoragePort, "get" | "put"> {
  return createLocalStorage(path.join(config.DATA_DIR, "image-cache"), "/image-cache");
}

const STATUS: Partial<Record<DomainError["kind"], number>> = { invalid: 400, not_found: 404, unsupported_media: 415 };

export function imageRoute(deps: { variants?: ImageVariants; storage: Pick<StoragePort, "get">; cache: Pick<StoragePort, "get" | "put">; log: Logger }): RequestHandler {
  const variants = deps.variants ?? createImageVariants({ storage: deps.storage, cache: deps.cache });
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.status(405).setHeader("Allow", "GET, HEAD");
      res.setHeader("Cache-Control", "no-store");
      return void res.type("text/plain; charset=utf-8").send("Method not allowed\n");
    }
    // The raw path (still percent-encoded): `/images` is the mount point.
    const rawPath = (req.originalUrl.split("?")[0] ?? "").replace(/^\/images\/?/, "");
    variants
      .get({ path: rawPath, query: req.query as Record<string, unknown> })
      .then((v) => {
        res.setHeader("Cache-Control", IMAGE_CACHE_CONTROL);
        res.setHeader("ETag", v.etag);
        res.setHeader("X-Content-Type-Options", "nosniff");
        res.setHeader("Content-Type", v.contentType);
        if (req.headers["if-none-match"] === v.etag) return void res.status(304).end();
        res.setHeader("Content-Length", String(v.body.byteLength));
        if (req.method === "HEAD") return void res.status(200).end();
        res.status(200).end(Buffer.from(v.body.buffer, v.body.byteOffset, v.body.byteLength));
      })
      .catch((e: unknown) => {
        const status = e instanceof DomainError ? STATUS[e.kind] : undefined;
        if (!status) return next(e);
        deps.log.info({ path: req.path, status, reason: e instanceof Error ? e.message : String(e) }, "image refused");
        res.status(status).setHeader("Cache-Control", "no-store");
        res.type("text/plain; charset=utf-8").send(`${(e as Error).message}\n`);
      });
  };
}
