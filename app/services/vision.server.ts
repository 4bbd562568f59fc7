/**
 * Vision: search by photo, face boxes, and vision search entries.
 *
 * A photo (upload or URL) is checked and normalised by the internal-media upload code (type by
 * magic bytes, 10 MB, 40 megapixels, EXIF orientation applied, metadata dropped, JPEG), embedded
 * by the image embedding port, and matched in the vector index's "image" namespace. Matches go
 * through the visibility rule (only shown products) and answer as product cards with their cosine
 * scores. For a signed-in non-guest caller the photo is stored under `images/vision/` and a
 * VisionSearchEntry keeps the result.
 */
import crypto from "node:crypto";
import { Prisma, type User, type VisionSearchEntry } from "@prisma/client";
import sharp from "sharp";
import type { AppContext } from "~/context.server";
import { invalid, notAllowed, notFoundError, tooLarge, unavailable } from "~/lib/domain-errors";
import type { TargetGender } from "~/contract/common";
import { Messages } from "~/contract/messages";
import { VISION_ENTRIES_LIMIT, VISION_MAX_UPLOAD_BYTES } from "~/contract/vision";
import { roundScore } from "~/providers/vector-index/math";
import { getProductCards } from "./catalog.server";
import { dominantColours } from "./companion.server";
import { resolveColour } from "~/lib/search-colours";
import { withMatchedVariants } from "./search/search.server";
import { getSearchVocabulary } from "./search/vocabulary.server";
import { readImageUrl, toDomainImageError } from "~/lib/image-source.server";
import { processImage } from "./internal-media.server";

type VisionCtx = Pick<AppContext, "db" | "log" | "storage" | "config" | "vectors" | "imageEmbedding">;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** A registered caller (lead or full user) keeps their searches; guests and anonymous callers do not. */
export const keepsSearches = (user: User | null | undefined): user is User => !!user && user.auth_provider !== "guest";

/** Genders a shopper browsing `g` sees: their own and unisex ("both"); `both` sees everything. */
export function gendersFor(g: TargetGender | undefined): TargetGender[] | undefined {
  return g === "menswear" || g === "womenswear" ? [g, "both"] : undefined;
}

/** An uploaded photo → checked, oriented, metadata-free JPEG (internal-media rules). */
export async function readUpload(file: Blob): Promise<Buffer> {
  if (file.size > VISION_MAX_UPLOAD_BYTES) throw tooLarge(`The file is ${mb(file.size)}; the maximum is 10 MB`);
  return (await processImage(new Uint8Array(await file.arrayBuffer()))).jpeg;
}

/** The photo at a URL (our storage, or a public http(s) address) → checked JPEG. */
export async function readUrl(ctx: Pick<AppContext, "config" | "storage">, url: string): Promise<Buffer> {
  let bytes: Uint8Array;
  try {
    bytes = await readImageUrl(ctx, url, { maxBytes: VISION_MAX_UPLOAD_BYTES });
  } catch (e) {
    toDomainImageError(e);
  }
  return (await processImage(bytes)).jpeg;
}

/**
 * The colour of the garment in the photo: the largest colour once the background (read from the
 * border) is left out, named from the analysis palette. Null when the photo gives none.
 */
export async function photoColour(jpeg: Buffer): Promise<{ hex: string; name: string } | null> {
  const raw = await sharp(jpeg).resize(96, 96, { fit: "inside" }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const [top] = dominantColours(new Uint8Array(raw.data), raw.info.width, raw.info.height);
  return top ? { hex: top.hex, name: top.name } : null;
}

/**
 * Cards in the photo's colour: the photo's colour name selects catalogue colours as a typed colour
 * word would ("Navy" → the catalogue's Navy, or its blues), so each card carries the variant of
 * that colour exactly as text search does. A colour the catalogue lacks leaves the cards as they are.
 */
async function inPhotoColour(db: VisionCtx["db"], cards: Awaited<ReturnType<typeof getProductCards>>, colour: { name: string } | null) {
  if (!colour || !cards.length) return cards;
  const vocab = await getSearchVocabulary(db);
  return withMatchedVariants(db, cards, resolveColour(colour.name, vocab.colourNames));
}

export interface SearchOptions {
  target_gender?: TargetGender;
  limit: number;
  user?: User | null;
}

export async function searchByImage(ctx: VisionCtx, jpeg: Buffer, o: SearchOptions) {
  const t0 = performance.now();
  let embedding;
  try {
    embedding = await ctx.imageEmbedding.embed(jpeg);
  } catch (e) {
    ctx.log.error({ err: e }, "image embedding failed");
    throw unavailable("Search by photo is not available right now: the image model could not run");
  }
  const t1 = performance.now();
  const targetGenders = gendersFor(o.target_gender);
  // Ask for more than needed: hidden and scheduled products are dropped below.
  const matches = await ctx.vectors.query("image", embedding.vector, { topK: Math.min(500, o.limit * 2 + 10), targetGenders });
  const found = (await getProductCards(ctx.db, matches.map((m) => m.id))).slice(0, o.limit);
  // A photo that sharp cannot read again was already refused by processImage; no colour is no match.
  const colour = await photoColour(jpeg).catch(() => null);
  const cards = await inPhotoColour(ctx.db, found, colour);
  const t2 = performance.now();
  const scoreOf = new Map(matches.map((m) => [m.id, roundScore(m.score)]));
  const scores = cards.map((c) => scoreOf.get(c.id) ?? 0);
  const index = (await ctx.vectors.resolve?.()) ?? ctx.vectors.name;

  let searchEntryId: string | null = null;
  let imageUrl: string | null = null;
  if (keepsSearches(o.user)) {
    const key = `images/vision/${crypto.randomUUID()}.jpg`;
    const stored = await ctx.storage.put(key, jpeg, "image/jpeg");
    imageUrl = stored.url;
    const result = {
      target_gender: o.target_gender ?? null,
      limit: o.limit,
      model: embedding.model,
      products: cards.map((c, i) => ({ id: c.id, title: c.title, handle: c.handle, featuredImage: c.featuredImage?.url ?? null, score: scores[i] })),
    };
    try {
      const entry = await ctx.db.visionSearchEntry.create({ data: { user_id: o.user.id, image_url: stored.url, result: result as Prisma.InputJsonValue } });
      searchEntryId = entry.id;
    } catch (e) {
      await ctx.storage.delete(key).catch(() => undefined);
      throw e;
    }
  }
  return {
    results: cards,
    scores,
    limit: o.limit,
    target_gender: o.target_gender ?? null,
    model: embedding.model,
    index,
    searchEntryId,
    image_url: imageUrl,
    colour,
    timings: { embedMs: Math.round(t1 - t0), queryMs: Math.round(t2 - t1) },
  };
}

export async function detectFacesAndLogos(ctx: Pick<AppContext, "log" | "imageEmbedding">, jpeg: Buffer) {
  let faces;
  try {
    faces = await ctx.imageEmbedding.detectFaces(jpeg);
  } catch (e) {
    ctx.log.error({ err: e }, "face detection failed");
    throw unavailable("Face detection is not available right now: the face model could not run");
  }
  return {
    faces: faces.faces,
    logos: ctx.imageEmbedding.logoDetection.supported ? await ctx.imageEmbedding.detectLogos(jpeg) : [],
    logoDetection: ctx.imageEmbedding.logoDetection,
    width: faces.width,
    height: faces.height,
    model: faces.model,
  };
}

// ---------------------------------------------------------------------------------------------
// Vision search entries

export function toEntry(e: VisionSearchEntry) {
  return { id: e.id, user_id: e.user_id, image_url: e.image_url, result: e.result ?? null, is_temporary: e.is_temporary, created_at: e.created_at, updated_at: e.updated_at };
}

const json = (v: unknown) => (v === undefined ? undefined : v === null ? Prisma.DbNull : (v as Prisma.InputJsonValue));

/** The caller's newest entries (SPEC §9: 10). */
export async function listEntries(ctx: Pick<AppContext, "db">, user: User) {
  const rows = await ctx.db.visionSearchEntry.findMany({ where: { user_id: user.id }, orderBy: [{ created_at: "desc" }, { id: "desc" }], take: VISION_ENTRIES_LIMIT });
  return { entries: rows.map(toEntry) };
}

export async function createEntry(ctx: Pick<AppContext, "db">, user: User, input: { image_url: string; result?: unknown }) {
  const row = await ctx.db.visionSearchEntry.create({ data: { user_id: user.id, image_url: input.image_url, result: json(input.result) } });
  return toEntry(row);
}

/**
 * A temporary entry for a guest (kept apart by `is_temporary`). A caller may only create one for
 * themselves: another user's id is refused.
 */
export async function createTemporaryEntry(ctx: Pick<AppContext, "db">, caller: User, input: { userId: string; image_url?: string; result?: unknown }) {
  if (!input.userId) throw invalid(Messages.USER_ID_REQUIRED);
  if (input.userId !== caller.id) throw notAllowed(Messages.INVALID_USER_ID);
  const row = await ctx.db.visionSearchEntry.create({
    data: { user_id: caller.id, image_url: input.image_url ?? "", result: json(input.result), is_temporary: true },
  });
  return toEntry(row);
}

/** Updates one of the caller's entries; another user's or a missing entry: 404 with the spec's message. */
export async function updateEntry(ctx: Pick<AppContext, "db">, user: User, id: string, input: { image_url?: string; result?: unknown }) {
  const r = await ctx.db.visionSearchEntry.updateMany({
    where: { id, user_id: user.id },
    data: { ...(input.image_url !== undefined ? { image_url: input.image_url } : {}), ...(input.result !== undefined ? { result: json(input.result) } : {}) },
  });
  if (r.count === 0) throw notFoundError(Messages.FAILED_TO_UPDATE_VISION_ENTRY);
  return toEntry(await ctx.db.visionSearchEntry.findUniqueOrThrow({ where: { id } }));
}
