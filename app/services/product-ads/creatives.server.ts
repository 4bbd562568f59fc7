/**
 * Creative candidates of product ads (docs/product-ads.md "AI creatives", contract
 * app/contract/product-ad-creatives.ts).
 *
 * Images: `generateImageCreatives` plans one candidate per kind × count (product shots cycle
 * through the source images, background colours and sizes; on-model candidates cycle through the
 * public clones), stores them `queued` and enqueues one `ads.creatives` job carrying each
 * candidate's image-AI operation and input. The job (`runCreativesJob`) calls the image-AI port
 * directly, one candidate at a time: a provider that answers at once (local) is settled there, a
 * queued one (fal) is polled until it ends. Result images not already ours are copied into storage
 * under images/ai/. A candidate that fails is marked failed with its reason and the next one goes
 * on. Progress: candidates done / to do.
 *
 * Crash recovery: a run taken over after its worker died skips candidates already ready or failed
 * and makes the queued ones (a candidate whose image was stored but not recorded is made again:
 * one candidate, never two). A job that ends failed closes its queued candidates as failed.
 *
 * Copy: `writeCopyVariants` asks the language-model port for headline and primary-text variants,
 * avoiding the ad's current copy and every copy candidate offered before, and stores them ready.
 *
 * Sources: the ad's request's uploaded images first (what the vendor chose to show), then the
 * product's images; the garment for try-on is the product's garment image (flat image, else its
 * first image, as try-ons use).
 */
import type { Clone, Prisma, ProductAdCreative as CreativeRow } from "@prisma/client";
import { z } from "zod";
import type { AppContext } from "~/context.server";
import {
  AD_IMAGE_CREATIVE_KINDS,
  ProductAdCreativeMessages as M,
  type AdCreativesJob,
  type ProductAdCreative,
} from "~/contract/product-ad-creatives";
import { conflictError, notFoundError, unavailable, unprocessableError } from "~/lib/domain-errors";
import { EDITABLE_AD_STATUSES } from "~/lib/product-ad-status";
import {
  ImageAiProviderError,
  ImageAiUnsupportedError,
  ImageRef,
  imageAiInputs,
  type ImageAiOperation,
  type ImageAiOutput,
} from "~/providers/image-ai/port";
import { LanguageModelError } from "~/providers/language-model/port";
import { copyOutputImages } from "~/services/image-ai/outputs.server";
import { garmentImageOf, garmentSelect, tryOnCategoryOf } from "~/services/tryons/products.server";
import { personImageOf } from "~/services/tryons/index.server";

export const ADS_CREATIVES_QUEUE = "ads.creatives";

/** A queued provider (fal) not done after this long fails the candidate as timed out. */
export const CREATIVE_POLL_DEADLINE_MS = 10 * 60_000;
const pollDelayMs = (attempt: number) => Math.min(15_000, 1_000 * 2 ** attempt);
/** Submissions of one candidate when the provider fails in a way worth retrying. */
const SUBMIT_ATTEMPTS = 2;

/** Background colours of product shots, in turn (so candidates differ). */
const BACKGROUNDS = ["#F4F1EC", "#E8EEF2", "#F6E7E1", "#EAF1E6"] as const;
const SHOT_SIZES = ["portrait_4_3", "square_hd", "portrait_16_9", "landscape_4_3"] as const;

type Deps = Pick<AppContext, "db">;
export interface CreativesCaller {
  /** A vendor's own vendor (the only one whose ads it reads); null for the team. */
  vendorId: string | null;
}

// ---- views -----------------------------------------------------------------------------------

export function toCreative(c: CreativeRow): ProductAdCreative {
  return {
    id: c.id,
    ad_id: c.ad_id,
    kind: c.kind as ProductAdCreative["kind"],
    source: c.source as ProductAdCreative["source"],
    status: c.status as ProductAdCreative["status"],
    image_url: c.image_url,
    headline: c.headline,
    primary_text: c.primary_text,
    error: c.error,
    job_id: c.job_id,
    created_at: c.created_at.toISOString(),
    updated_at: c.updated_at.toISOString(),
  };
}

async function findAd(db: Deps["db"], caller: CreativesCaller, id: string) {
  const ad = await db.productAd.findFirst({ where: { id, ...(caller.vendorId ? { vendor_id: caller.vendorId } : {}) } });
  if (!ad) throw notFoundError(M.AD_NOT_FOUND);
  return ad;
}

function assertEditable(status: string) {
  if (!(EDITABLE_AD_STATUSES as readonly string[]).includes(status)) throw conflictError(M.notEditable(status));
}

async function jobOf(db: Deps["db"], adId: string): Promise<AdCreativesJob | null> {
  const latest = await db.productAdCreative.findFirst({ where: { ad_id: adId, job_id: { not: null } }, orderBy: [{ created_at: "desc" }, { id: "desc" }], select: { job_id: true } });
  if (!latest?.job_id) return null;
  const [job, counts] = await Promise.all([
    db.job.findUnique({ where: { id: latest.job_id }, select: { id: true, status: true } }),
    db.productAdCreative.groupBy({ by: ["status"], where: { ad_id: adId, job_id: latest.job_id }, _count: { _all: true } }),
  ]);
  const total = counts.reduce((n, c) => n + c._count._all, 0);
  const done = counts.filter((c) => c.status !== "queued").reduce((n, c) => n + c._count._all, 0);
  const status = job ? (job.status === "cancelled" ? "failed" : job.status) : done === total ? "completed" : "failed";
  return { id: latest.job_id, status, done, total, progress: total ? Math.round((done / total) * 100) : 100 };
}

export async function listCreatives(
  deps: Deps,
  caller: CreativesCaller,
  adId: string,
  q: { kind?: "image" | "copy"; status?: "queued" | "ready" | "failed" },
): Promise<{ items: ProductAdCreative[]; job: AdCreativesJob | null }> {
  const ad = await findAd(deps.db, caller, adId);
  const rows = await deps.db.productAdCreative.findMany({
    where: { ad_id: ad.id, ...(q.kind ? { kind: q.kind } : {}), ...(q.status ? { status: q.status } : {}) },
    orderBy: [{ created_at: "desc" }, { id: "asc" }],
    take: 500,
  });
  return { items: rows.map(toCreative), job: await jobOf(deps.db, ad.id) };
}

// ---- images: planning ---------------------------------------------------------------------------

const JobItem = z.object({
  creativeId: z.string(),
  source: z.enum(AD_IMAGE_CREATIVE_KINDS),
  operation: z.enum(["generate-flux-product-shot", "vton-flux"]),
  input: z.record(z.string(), z.unknown()),
});
type JobItem = z.infer<typeof JobItem>;
const JobPayload = z.object({ adId: z.string(), items: z.array(JobItem).min(1).max(AD_IMAGE_CREATIVE_KINDS.length * 4) });

const isImageRef = (url: string) => ImageRef.safeParse(url).success;

/** The images candidates are made from: the request's uploads, then the product's. */
async function sourceImages(db: Deps["db"], ad: { product_id: string; request_id: string | null }): Promise<string[]> {
  const request = ad.request_id ? await db.productAdRequest.findUnique({ where: { id: ad.request_id }, select: { uploaded_image_ids: true } }) : null;
  const ids = request?.uploaded_image_ids ?? [];
  const uploads = ids.length ? await db.uploadedImage.findMany({ where: { id: { in: ids } }, select: { id: true, url: true } }) : [];
  const byId = new Map(uploads.map((u) => [u.id, u.url]));
  const product = await db.product.findUnique({
    where: { id: ad.product_id },
    select: { featuredImageUrl: true, images: { select: { url: true }, orderBy: [{ position: "asc" }, { created_at: "asc" }], take: 10 } },
  });
  const urls = [...ids.map((id) => byId.get(id)), ...(product?.images.map((i) => i.url) ?? []), product?.featuredImageUrl];
  return [...new Set(urls.filter((u): u is string => !!u && isImageRef(u)))];
}

async function publicClones(db: Deps["db"], cloneId?: string): Promise<Array<{ id: string; person: string }>> {
  const where: Prisma.CloneWhereInput = { isPublic: true, is_product_clone: false, processing_status: "READY", ...(cloneId ? { id: cloneId } : {}) };
  const rows: Clone[] = await db.clone.findMany({ where, orderBy: [{ created_at: "asc" }, { id: "asc" }], take: 20 });
  return rows.flatMap((c) => {
    const person = personImageOf(c);
    return person && isImageRef(person) ? [{ id: c.id, person }] : [];
  });
}

function supported(ctx: Pick<AppContext, "imageAi">, op: ImageAiOperation) {
  const provider = ctx.imageAi.providerFor(op);
  if (!provider.supports(op)) throw unprocessableError(new ImageAiUnsupportedError(op, provider.name).message);
}

export async function generateImageCreatives(
  ctx: Pick<AppContext, "db" | "queue" | "imageAi" | "log">,
  adId: string,
  body: { kinds: Array<(typeof AD_IMAGE_CREATIVE_KINDS)[number]>; count: number; clone_id?: string; scene?: string },
): Promise<{ jobId: string; items: ProductAdCreative[] }> {
  const ad = await findAd(ctx.db, { vendorId: null }, adId);
  assertEditable(ad.status);
  const sources = await sourceImages(ctx.db, ad);
  const plans: Array<Omit<JobItem, "creativeId">> = [];
  const already = await ctx.db.productAdCreative.count({ where: { ad_id: ad.id, kind: "image" } });

  if (body.kinds.includes("product_shot")) {
    if (sources.length === 0) throw unprocessableError(M.NO_IMAGES);
    supported(ctx, "generate-flux-product-shot");
    for (let i = 0; i < body.count; i++) {
      // Offset by the candidates made before, so asking again gives other backgrounds and images.
      const n = already + i;
      plans.push({
        source: "product_shot",
        operation: "generate-flux-product-shot",
        input: imageAiInputs["generate-flux-product-shot"].parse({
          image_url: sources[n % sources.length],
          scene: body.scene ?? "studio",
          background_color: BACKGROUNDS[n % BACKGROUNDS.length],
          image_size: SHOT_SIZES[n % SHOT_SIZES.length],
        }),
      });
    }
  }
  if (body.kinds.includes("on_model")) {
    const product = await ctx.db.product.findUnique({ where: { id: ad.product_id }, select: garmentSelect });
    const garment = product ? garmentImageOf(product) : null;
    const garmentUrl = garment && isImageRef(garment) ? garment : sources[0];
    if (!product || !garmentUrl) throw unprocessableError(M.NO_IMAGES);
    const clones = await publicClones(ctx.db, body.clone_id);
    if (clones.length === 0) throw body.clone_id ? notFoundError(M.CLONE_NOT_FOUND) : unprocessableError(M.NO_PUBLIC_CLONE);
    supported(ctx, "vton-flux");
    for (let i = 0; i < body.count; i++) {
      const clone = clones[(already + i) % clones.length];
      plans.push({
        source: "on_model",
        operation: "vton-flux",
        input: imageAiInputs["vton-flux"].parse({
          person_image_url: clone.person,
          garment_image_url: garmentUrl,
          category: tryOnCategoryOf(product),
          seed: 1000 + already + i,
        }),
      });
    }
  }

  const rows = await ctx.db.$transaction(
    plans.map((p) => ctx.db.productAdCreative.create({ data: { ad_id: ad.id, kind: "image", source: p.source, status: "queued" } })),
  );
  const items: JobItem[] = plans.map((p, i) => ({ ...p, creativeId: rows[i].id }));
  let jobId: string;
  try {
    jobId = (await ctx.queue.enqueue(ADS_CREATIVES_QUEUE, { adId: ad.id, items } as unknown as Prisma.InputJsonValue, { maxAttempts: 3 })).id;
  } catch (e) {
    await ctx.db.productAdCreative.updateMany({ where: { id: { in: rows.map((r) => r.id) } }, data: { status: "failed", error: "The job could not be queued" } });
    throw e;
  }
  await ctx.db.productAdCreative.updateMany({ where: { id: { in: rows.map((r) => r.id) } }, data: { job_id: jobId } });
  ctx.log.info({ adId: ad.id, jobId, candidates: rows.length }, "ad creatives queued");
  const stored = await ctx.db.productAdCreative.findMany({ where: { id: { in: rows.map((r) => r.id) } } });
  const order = new Map(rows.map((r, i) => [r.id, i]));
  return { jobId, items: stored.sort((a, b) => order.get(a.id)! - order.get(b.id)!).map(toCreative) };
}

// ---- images: the job ------------------------------------------------------------------------------

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e)).slice(0, 1000);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const retryable = (e: unknown) => e instanceof ImageAiProviderError && e.retryable;

/** One candidate's image: submitted, followed until it ends, copied into storage when not ours. */
async function makeImage(ctx: AppContext, item: JobItem): Promise<ImageAiOutput> {
  const op = item.operation;
  const provider = ctx.imageAi.providerFor(op);
  if (!provider.supports(op)) throw new ImageAiUnsupportedError(op, provider.name);
  const input = (imageAiInputs[op] as z.ZodType).parse(item.input);
  const requestId = `ad-creative-${item.creativeId}`;
  for (let attempt = 1; ; attempt++) {
    try {
      const submission = await provider.submit(op, input as never, { requestId });
      let output: ImageAiOutput;
      if (submission.state === "completed") output = submission.output;
      else {
        const started = Date.now();
        for (let poll = 0; ; poll++) {
          if (Date.now() - started > CREATIVE_POLL_DEADLINE_MS) {
            await provider.cancel(op, submission.providerRequestId).catch(() => undefined);
            throw new ImageAiProviderError(`The image provider did not finish within ${CREATIVE_POLL_DEADLINE_MS / 60_000} minutes (timed out)`, false);
          }
          await sleep(pollDelayMs(poll));
          const status = await provider.status(op, submission.providerRequestId);
          if (status.state === "failed") throw new ImageAiProviderError(status.error, false);
          if (status.state === "completed") {
            output = status.output;
            break;
          }
        }
      }
      return await copyOutputImages(ctx, requestId, output);
    } catch (e) {
      if (attempt < SUBMIT_ATTEMPTS && retryable(e)) continue;
      throw e;
    }
  }
}

export async function runCreativesJob(ctx: AppContext, payload: unknown, progress: (percent: number) => Promise<void>): Promise<Prisma.InputJsonValue> {
  const { adId, items } = JobPayload.parse(payload);
  const rows = await ctx.db.productAdCreative.findMany({ where: { id: { in: items.map((i) => i.creativeId) } }, select: { id: true, status: true } });
  const statusOf = new Map(rows.map((r) => [r.id, r.status]));
  let done = items.filter((i) => statusOf.get(i.creativeId) !== "queued").length;
  let ready = 0;
  let failed = 0;
  await progress(Math.round((done / items.length) * 100));
  for (const item of items) {
    // Made by an earlier run (or the candidate was deleted with its ad).
    if (statusOf.get(item.creativeId) !== "queued") continue;
    try {
      const output = await makeImage(ctx, item);
      const image = output.images[0];
      if (!image) throw new ImageAiProviderError("The image provider made no image", false);
      await ctx.db.productAdCreative.updateMany({ where: { id: item.creativeId, status: "queued" }, data: { status: "ready", image_url: image.url, error: null } });
      ready++;
    } catch (e) {
      ctx.log.warn({ err: e, adId, creativeId: item.creativeId, operation: item.operation }, "ad creative failed");
      await ctx.db.productAdCreative.updateMany({ where: { id: item.creativeId, status: "queued" }, data: { status: "failed", error: errorText(e) } });
      failed++;
    }
    done++;
    await progress(Math.round((done / items.length) * 100));
  }
  return { adId, ready, failed, total: items.length };
}

/** The job ended failed (no attempt left, abandoned): its candidates still queued are closed. */
export async function closeCreativesJob(ctx: AppContext, payload: unknown, error: string): Promise<void> {
  const p = JobPayload.safeParse(payload);
  if (!p.success) return;
  await ctx.db.productAdCreative.updateMany({
    where: { id: { in: p.data.items.map((i) => i.creativeId) }, status: "queued" },
    data: { status: "failed", error: error.slice(0, 1000) },
  });
}

// ---- copy ----------------------------------------------------------------------------------------

const COLOUR_OPTION = /^colou?rs?$/i;

export async function writeCopyVariants(ctx: Pick<AppContext, "db" | "languageModel" | "log">, adId: string, count: number): Promise<{ items: ProductAdCreative[] }> {
  const ad = await findAd(ctx.db, { vendorId: null }, adId);
  assertEditable(ad.status);
  const [product, vendor, request, earlier] = await Promise.all([
    ctx.db.product.findUnique({
      where: { id: ad.product_id },
      select: { title: true, productType: true, vendor: true, priceMin: true, currencyCode: true, target_gender: true, options: { select: { name: true, values: true } } },
    }),
    ctx.db.vendor.findUnique({ where: { id: ad.vendor_id }, select: { name: true } }),
    ad.request_id ? ctx.db.productAdRequest.findUnique({ where: { id: ad.request_id }, select: { notes: true } }) : null,
    ctx.db.productAdCreative.findMany({ where: { ad_id: ad.id, kind: "copy" }, select: { headline: true, primary_text: true }, orderBy: { created_at: "desc" }, take: 100 }),
  ]);
  if (!product) throw notFoundError(M.AD_NOT_FOUND);
  const avoid = earlier.flatMap((c) => (c.headline && c.primary_text ? [{ headline: c.headline, primary_text: c.primary_text }] : []));
  if (ad.title.trim() && ad.body?.trim()) avoid.unshift({ headline: ad.title, primary_text: ad.body });
  const colours = product.options.filter((o) => COLOUR_OPTION.test(o.name.trim())).flatMap((o) => o.values);
  let result;
  try {
    result = await ctx.languageModel.adCopy({
      product: {
        title: product.title,
        productType: product.productType.slice(0, 120),
        brand: (vendor?.name || product.vendor).slice(0, 200),
        colours: [...new Set(colours.map((c) => c.trim()).filter((c) => c && c.length <= 60))].slice(0, 20),
        price: product.priceMin.greaterThan(0) ? product.priceMin.toFixed(2) : null,
        currencyCode: product.currencyCode,
        target_gender: product.target_gender,
      },
      brief: request?.notes ?? "",
      call_to_action: (["SHOP_NOW", "LEARN_MORE", "SIGN_UP"] as const).find((c) => c === ad.call_to_action) ?? "SHOP_NOW",
      count,
      avoid: avoid.slice(0, 100),
    });
  } catch (e) {
    if (!(e instanceof LanguageModelError)) throw e;
    ctx.log.warn({ err: e, adId }, "ad copy could not be written");
    throw unavailable("The language model could not write ad copy just now: please try again");
  }
  const source = result.provider === "local" ? "template" : "language_model";
  const rows = await ctx.db.$transaction(
    result.variants.map((v) => ctx.db.productAdCreative.create({ data: { ad_id: ad.id, kind: "copy", source, status: "ready", headline: v.headline, primary_text: v.primary_text } })),
  );
  return { items: rows.map(toCreative) };
}
