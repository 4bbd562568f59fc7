/**
 * Product socials content (contract app/contract/product-socials-content.ts; issue 19): posts
 * about a product for Instagram, TikTok, Pinterest and Facebook, written by hand or generated from
 * the product, then edited, scheduled and marked published. Nothing is posted to the platforms
 * from here: "published" records that the vendor or the team posted it.
 *
 * Every call takes the viewer: a vendor is confined to content of its own vendor (another
 * vendor's is as unknown as a missing one: 404), admins (`vendorId: null`) see all. Content takes
 * the product's vendor and store when it is written, so scoping never depends on a later change of
 * the product's vendor.
 *
 * Status moves follow SOCIALS_TRANSITIONS and run as a conditional update on the status read, so
 * two racing moves make one and the other answers 409.
 */
import type { Prisma } from "@prisma/client";
import type { AppContext } from "~/context.server";
import type { Db } from "~/db.server";
import {
  SOCIALS_TRANSITIONS,
  SocialsMessages as M,
  type SocialsContent,
  type SocialsStatus,
  type SocialsCreateBody,
  type SocialsGenerateBody,
  type SocialsUpdateBody,
  type SocialsVendorQuery,
} from "~/contract/product-socials-content";
import type { z } from "zod";
import { conflictError, notAllowed, notFoundError, unavailable, unprocessableError } from "~/lib/domain-errors";
import { ImageAiProviderError, imageAiInputs, type ImageAiOutput } from "~/providers/image-ai/port";
import { LanguageModelError, type SocialPlatform } from "~/providers/language-model/port";
import { copyOutputImages } from "~/services/image-ai/outputs.server";
import { materialSectionsOf } from "~/services/companion.server";

export interface SocialsViewer {
  /** The vendor a VENDOR user is confined to; null for admins. */
  vendorId: string | null;
}

const include = { companion: { select: { product: { select: { id: true, title: true, handle: true, featuredImageUrl: true } } } } } satisfies Prisma.ProductSocialsContentInclude;
type ContentRow = Prisma.ProductSocialsContentGetPayload<{ include: typeof include }>;

const isStatus = (s: string): s is SocialsStatus => s in SOCIALS_TRANSITIONS;

export function toSocialsContent(r: ContentRow): SocialsContent {
  const p = r.companion.product;
  return {
    id: r.id,
    companion_id: r.companion_id,
    product: { id: p.id, title: p.title, handle: p.handle, featuredImageUrl: p.featuredImageUrl },
    vendor_id: r.vendor_id,
    store_id: r.store_id,
    platform: r.platform,
    caption: r.caption,
    hashtags: r.hashtags,
    media_urls: r.media_urls,
    status: r.status,
    next_statuses: isStatus(r.status) ? [...SOCIALS_TRANSITIONS[r.status]] : [],
    scheduled_at: r.scheduled_at?.toISOString() ?? null,
    published_at: r.published_at?.toISOString() ?? null,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

const visible = (viewer: SocialsViewer, vendorId: string | null) => viewer.vendorId === null || vendorId === viewer.vendorId;

async function findContent(db: Db, viewer: SocialsViewer, id: string): Promise<ContentRow> {
  const row = await db.productSocialsContent.findUnique({ where: { id }, include });
  if (!row || !visible(viewer, row.vendor_id)) throw notFoundError(M.NOT_FOUND);
  return row;
}

const companionSelect = {
  id: true,
  material_sections: true,
  product: {
    select: {
      id: true,
      title: true,
      productType: true,
      vendor: true,
      vendor_id: true,
      store_id: true,
      priceMin: true,
      currencyCode: true,
      target_gender: true,
      featuredImageUrl: true,
      tags: true,
      options: { select: { name: true, values: true } },
      store: { select: { name: true } },
      vendor_entity: { select: { name: true } },
    },
  },
} satisfies Prisma.ProductCompanionSelect;
type CompanionRow = Prisma.ProductCompanionGetPayload<{ select: typeof companionSelect }>;

async function findCompanion(db: Db, viewer: SocialsViewer, id: string): Promise<CompanionRow> {
  const c = await db.productCompanion.findUnique({ where: { id }, select: companionSelect });
  if (!c || !visible(viewer, c.product.vendor_id)) throw notFoundError(M.COMPANION_NOT_FOUND);
  return c;
}

export async function listByCompanion(db: Db, viewer: SocialsViewer, companionId: string): Promise<{ items: SocialsContent[] }> {
  await findCompanion(db, viewer, companionId);
  const rows = await db.productSocialsContent.findMany({
    where: { companion_id: companionId, ...(viewer.vendorId === null ? {} : { vendor_id: viewer.vendorId }) },
    include,
    orderBy: [{ created_at: "desc" }, { id: "desc" }],
    take: 200,
  });
  return { items: rows.map(toSocialsContent) };
}

/** Cursor: "<created_at ISO>|<id>" of the last item of the previous page. */
function parseCursor(cursor: string | undefined): { at: Date; id: string } | null {
  if (!cursor) return null;
  const [at, id] = cursor.split("|");
  const d = new Date(at ?? "");
  return id && !Number.isNaN(d.getTime()) ? { at: d, id } : null;
}

export async function listForVendor(db: Db, viewer: SocialsViewer, query: z.output<typeof SocialsVendorQuery>): Promise<{ items: SocialsContent[]; nextCursor: string | null }> {
  if (viewer.vendorId !== null && query.vendorId && query.vendorId !== viewer.vendorId) throw notAllowed(M.VENDOR_FORBIDDEN);
  const vendorId = viewer.vendorId ?? query.vendorId;
  const after = parseCursor(query.cursor);
  const where: Prisma.ProductSocialsContentWhereInput = {
    ...(vendorId ? { vendor_id: vendorId } : {}),
    ...(query.storeId ? { store_id: query.storeId } : {}),
    ...(query.status ? { status: query.status } : {}),
    ...(query.platform ? { platform: query.platform } : {}),
    ...(after ? { OR: [{ created_at: { lt: after.at } }, { created_at: after.at, id: { lt: after.id } }] } : {}),
  };
  const rows = await db.productSocialsContent.findMany({ where, include, orderBy: [{ created_at: "desc" }, { id: "desc" }], take: query.limit + 1 });
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  return { items: page.map(toSocialsContent), nextCursor: rows.length > query.limit && last ? `${last.created_at.toISOString()}|${last.id}` : null };
}

export async function getSocialsContent(db: Db, viewer: SocialsViewer, id: string): Promise<SocialsContent> {
  return toSocialsContent(await findContent(db, viewer, id));
}

export async function createSocialsContent(db: Db, viewer: SocialsViewer, body: z.output<typeof SocialsCreateBody>): Promise<SocialsContent> {
  const c = await findCompanion(db, viewer, body.companion_id);
  const row = await db.productSocialsContent.create({
    data: {
      companion_id: c.id,
      vendor_id: c.product.vendor_id,
      store_id: c.product.store_id,
      platform: body.platform,
      caption: body.caption,
      hashtags: body.hashtags,
      media_urls: body.media_urls,
    },
    include,
  });
  return toSocialsContent(row);
}

export async function updateSocialsContent(db: Db, viewer: SocialsViewer, id: string, body: z.output<typeof SocialsUpdateBody>, now = new Date()): Promise<SocialsContent> {
  const row = await findContent(db, viewer, id);
  const from = row.status;
  if (!isStatus(from) || from === "published") throw conflictError(M.PUBLISHED_FINAL);
  const to = body.status ?? from;
  if (to !== from && !SOCIALS_TRANSITIONS[from].includes(to)) throw conflictError(M.transition(from, to));
  const scheduledAt = body.scheduled_at === undefined ? row.scheduled_at : body.scheduled_at;
  if (to === "scheduled") {
    if (!scheduledAt) throw unprocessableError(M.NEEDS_SCHEDULE);
    // A date already passed is refused when it is being set or the content is being scheduled now.
    if ((body.scheduled_at !== undefined || from !== "scheduled") && scheduledAt.getTime() <= now.getTime()) throw unprocessableError(M.SCHEDULE_IN_PAST);
  }
  const data: Prisma.ProductSocialsContentUpdateManyMutationInput = {
    ...(body.platform !== undefined ? { platform: body.platform } : {}),
    ...(body.caption !== undefined ? { caption: body.caption } : {}),
    ...(body.hashtags !== undefined ? { hashtags: body.hashtags } : {}),
    ...(body.media_urls !== undefined ? { media_urls: body.media_urls } : {}),
    ...(body.scheduled_at !== undefined ? { scheduled_at: body.scheduled_at } : {}),
    status: to,
    ...(to === "published" ? { published_at: now } : {}),
  };
  const done = await db.productSocialsContent.updateMany({ where: { id, status: from }, data });
  if (done.count === 0) throw conflictError(M.transition(from, to));
  return toSocialsContent(await findContent(db, viewer, id));
}

export async function deleteSocialsContent(db: Db, viewer: SocialsViewer, id: string): Promise<{ ok: true }> {
  await findContent(db, viewer, id);
  await db.productSocialsContent.deleteMany({ where: { id } });
  return { ok: true };
}

// ---- generation ------------------------------------------------------------------------------

const COLOUR_OPTION = /^colou?rs?$/i;
const MATERIAL_WORDS = ["cotton", "linen", "wool", "silk", "denim", "leather", "cashmere", "polyester", "viscose", "nylon", "suede", "satin", "velvet", "knit", "corduroy", "fleece", "chiffon", "tweed", "mohair", "alpaca"];

/** Materials named by the companion's material sections, the tags or the title (known words only). */
function materialsOf(c: CompanionRow): string[] {
  const text = [...materialSectionsOf(c.material_sections).map((s) => `${s.title} ${s.content}`), ...c.product.tags, c.product.title].join(" ").toLowerCase();
  return MATERIAL_WORDS.filter((w) => new RegExp(`\\b${w}\\b`).test(text)).slice(0, 3);
}

/** A queued provider (fal) not done after this long leaves the drafts with the product's image. */
export const SOCIAL_IMAGE_DEADLINE_MS = 120_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One product shot in a size, through the image-AI port, copied into our storage. */
async function productShot(ctx: AppContext, imageUrl: string, size: "square_hd" | "portrait_16_9", requestId: string): Promise<string> {
  const op = "generate-flux-product-shot" as const;
  const provider = ctx.imageAi.providerFor(op);
  if (!provider.supports(op)) throw new ImageAiProviderError(`The ${provider.name} image provider cannot make product shots`, false);
  const input = imageAiInputs[op].parse({ image_url: imageUrl, scene: "social", background_color: "#F4F1EC", image_size: size });
  const submission = await provider.submit(op, input, { requestId });
  let output: ImageAiOutput;
  if (submission.state === "completed") output = submission.output;
  else {
    const started = Date.now();
    for (let poll = 0; ; poll++) {
      if (Date.now() - started > SOCIAL_IMAGE_DEADLINE_MS) {
        await provider.cancel(op, submission.providerRequestId).catch(() => undefined);
        throw new ImageAiProviderError("The image provider did not finish in time", false);
      }
      await sleep(Math.min(5_000, 500 * 2 ** poll));
      const status = await provider.status(op, submission.providerRequestId);
      if (status.state === "failed") throw new ImageAiProviderError(status.error, false);
      if (status.state === "completed") {
        output = status.output;
        break;
      }
    }
  }
  const copied = await copyOutputImages(ctx, requestId, output);
  const url = copied.images[0]?.url;
  if (!url) throw new ImageAiProviderError("The image provider made no image", false);
  return url;
}

/** Which image leads on each platform: vertical video-first feeds take the 9:16 one first. */
const VERTICAL_FIRST: ReadonlySet<SocialPlatform> = new Set<SocialPlatform>(["tiktok", "pinterest"]);

export async function generateSocialsDrafts(
  ctx: AppContext,
  viewer: SocialsViewer,
  body: z.output<typeof SocialsGenerateBody>,
): Promise<{ items: SocialsContent[]; media_error: string | null }> {
  const c = await findCompanion(ctx.db, viewer, body.companion_id);
  const p = c.product;
  const colours = p.options.filter((o) => COLOUR_OPTION.test(o.name.trim())).flatMap((o) => o.values);
  let copy;
  try {
    copy = await ctx.languageModel.socialsCopy({
      product: {
        title: p.title.slice(0, 300),
        productType: p.productType.slice(0, 120),
        brand: (p.vendor_entity?.name || p.vendor).slice(0, 200),
        store: (p.store?.name ?? "").slice(0, 200),
        colours: [...new Set(colours.map((v) => v.trim()).filter((v) => v && v.length <= 60))].slice(0, 20),
        materials: materialsOf(c),
        price: p.priceMin.greaterThan(0) ? p.priceMin.toFixed(2) : null,
        currencyCode: p.currencyCode,
        target_gender: p.target_gender,
      },
      platforms: body.platforms,
    });
  } catch (e) {
    if (!(e instanceof LanguageModelError)) throw e;
    ctx.log.warn({ err: e, companionId: c.id }, "social posts could not be written");
    throw unavailable("The language model could not write the posts just now: please try again");
  }

  let media: { square: string; vertical: string } | null = null;
  let mediaError: string | null = null;
  if (body.images) {
    if (!p.featuredImageUrl) mediaError = M.NO_PRODUCT_IMAGE;
    else {
      const requestId = `socials-${c.id}-${Date.now().toString(36)}`;
      try {
        const square = await productShot(ctx, p.featuredImageUrl, "square_hd", `${requestId}-square`);
        const vertical = await productShot(ctx, p.featuredImageUrl, "portrait_16_9", `${requestId}-vertical`);
        media = { square, vertical };
      } catch (e) {
        ctx.log.warn({ err: e, companionId: c.id }, "social images could not be made");
        mediaError = `The social images could not be made: ${(e instanceof Error ? e.message : String(e)).slice(0, 300)}`;
      }
    }
  }
  const fallback = p.featuredImageUrl ? [p.featuredImageUrl] : [];
  const rows = await ctx.db.$transaction(
    copy.posts.map((post) =>
      ctx.db.productSocialsContent.create({
        data: {
          companion_id: c.id,
          vendor_id: p.vendor_id,
          store_id: p.store_id,
          platform: post.platform,
          caption: post.caption,
          hashtags: post.hashtags,
          media_urls: media ? (VERTICAL_FIRST.has(post.platform) ? [media.vertical, media.square] : [media.square, media.vertical]) : fallback,
        },
        include,
      }),
    ),
  );
  return { items: rows.map(toSocialsContent), media_error: mediaError };
}

