/**
 * Output images into our storage: a provider's result URLs (fal's CDN, data: URIs) are
 * downloaded with a deadline and a size cap, checked to be images by their first bytes, and
 * stored as images/ai/<requestId>-<n>.<ext>, so nothing we show depends on the provider keeping
 * its files. Images already in our storage are kept as they are.
 */
import sharp from "sharp";
import type { AppContext } from "~/context.server";
import type { ImageAiOutput } from "~/providers/image-ai/port";
import { ImageAiProviderError } from "~/providers/image-ai/port";
import { fetchPublicImage, ownStorageKey, type FetchPolicy } from "~/lib/image-source.server";

export const OUTPUT_MAX_BYTES = 25 * 1024 * 1024;
export const OUTPUT_FETCH_TIMEOUT_MS = 60_000;

/** The image type of some bytes, from their signature. */
export function sniffImage(bytes: Uint8Array): { ext: string; contentType: string } | null {
  const b = bytes;
  if (b.length >= 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return { ext: "png", contentType: "image/png" };
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return { ext: "jpg", contentType: "image/jpeg" };
  if (b.length >= 12 && String.fromCharCode(...b.subarray(0, 4)) === "RIFF" && String.fromCharCode(...b.subarray(8, 12)) === "WEBP") return { ext: "webp", contentType: "image/webp" };
  if (b.length >= 6 && String.fromCharCode(...b.subarray(0, 4)) === "GIF8") return { ext: "gif", contentType: "image/gif" };
  if (b.length >= 12 && String.fromCharCode(...b.subarray(4, 8)) === "ftyp" && /avif|avis/.test(String.fromCharCode(...b.subarray(8, 12)))) return { ext: "avif", contentType: "image/avif" };
  return null;
}

/** Addresses of the configured fal origin are trusted (tests run a fake fal on loopback); everything else must be public. */
function policyFor(ctx: AppContext, url: string): FetchPolicy {
  const policy: FetchPolicy = { maxBytes: OUTPUT_MAX_BYTES, timeoutMs: OUTPUT_FETCH_TIMEOUT_MS };
  const base = ctx.config.FAL_BASE_URL;
  if (base) {
    try {
      if (new URL(url).hostname === new URL(base).hostname) policy.allowAddress = () => true;
    } catch {
      /* not a URL: fetchPublicImage refuses it */
    }
  }
  return policy;
}

async function download(ctx: AppContext, url: string): Promise<Uint8Array> {
  const data = /^data:([^;,]+)?(;base64)?,(.*)$/s.exec(url);
  if (data) {
    const bytes = data[2] ? Buffer.from(data[3], "base64") : Buffer.from(decodeURIComponent(data[3]));
    if (bytes.byteLength > OUTPUT_MAX_BYTES) throw new ImageAiProviderError("A result image is larger than allowed", false);
    return new Uint8Array(bytes);
  }
  try {
    return (await fetchPublicImage(url, policyFor(ctx, url))).bytes;
  } catch (e) {
    const status = (e as { status?: number }).status;
    // A refused address or a file too large will not get better; the network may.
    const retryable = !(status === 400 || status === 413 || status === 415);
    throw new ImageAiProviderError(`Could not download a result image: ${(e as Error).message}`, retryable);
  }
}

export async function copyOutputImages(ctx: AppContext, requestId: string, output: ImageAiOutput): Promise<ImageAiOutput> {
  const images = [];
  let n = 0;
  for (const image of output.images) {
    n++;
    const own = ownStorageKey(ctx, image.url);
    if (own) {
      images.push({ ...image, url: ctx.storage.publicUrl(own) });
      continue;
    }
    const bytes = await download(ctx, image.url);
    const kind = sniffImage(bytes);
    if (!kind) throw new ImageAiProviderError("A result of the image provider is not an image", false);
    let { width, height } = image;
    if (!width || !height) {
      const meta = await sharp(bytes)
        .metadata()
        .catch(() => null);
      width = meta?.width ?? width;
      height = meta?.height ?? height;
    }
    const { url } = await ctx.storage.put(`images/ai/${requestId}-${n}.${kind.ext}`, bytes, kind.contentType);
    images.push({ url, ...(width ? { width } : {}), ...(height ? { height } : {}), content_type: kind.contentType });
  }
  return { ...output, images };
}
