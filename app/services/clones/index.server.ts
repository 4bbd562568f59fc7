/**
 * Clones: a shopper's AI model of themselves, made from their photos, and its training
 * (contract: app/contract/clones.ts; hooks of the image-AI requests: ./image-ai-hooks.server.ts).
 *
 * Photos are checked by content and normalised (uploaded-images.server.ts: magic bytes, 10 MB,
 * EXIF orientation applied, metadata dropped), scaled to at most 2048 px on the long side, and
 * looked at by the person analysis (exactly one person, face visible, ≥ 512 px on the short
 * side, shoulders visible). Only usable photos are stored (images/clones/<cloneId>/<uuid>.jpg);
 * their verdicts live in `attributes.photos`.
 *
 * Training is an image-AI request (train-flux, train-flux-admin or train-flux-product) aimed at a
 * CloneTrainingJob (target "clone_training"); the hooks move the job and the clone's outfit
 * generation status along. Ownership: a clone is its owner's (admins with ai.train see all);
 * someone else's private clone answers 404, a public one is readable by anyone signed in and
 * changed only by admins (403).
 */
import crypto from "node:crypto";
import path from "node:path";
import sharp from "sharp";
import type { Clone, CloneTrainingJob, Prisma } from "@prisma/client";
import type { AppContext } from "~/context.server";
import { ApiError, badRequest, conflict, forbidden, notFound, unprocessable } from "~/api/errors.server";
import {
  CLONE_MAX_PHOTOS,
  CLONE_MIN_PHOTOS,
  CLONE_PHOTO_MAX_BYTES,
  type CloneGender,
  type ClonePhotoResult,
  type CloneTrainingJobView,
  type CloneView,
} from "~/contract/clones";
import { ImageRef } from "~/providers/image-ai/port";
import { cancelImageAiRequest, startImageAiRequest, type ImageAiRequestRecord } from "~/services/image-ai/requests.server";
import { processImage, mb } from "~/services/uploaded-images.server";
import { ownStorageKey } from "~/lib/image-source.server";
import { decodeKeyset, encodeKeyset } from "~/services/saved.server";

export type CloneTrainingKind = "shopper" | "admin" | "product";
export interface Caller {
  userId: string;
  isAdmin: boolean;
}

export const CLONE_NOT_FOUND = "Clone not found";
export const TRAINING_JOB_NOT_FOUND = "Training job not found";
export const PUBLIC_CLONE_FORBIDDEN = "Only admins can change a public clone";
export const IS_PUBLIC_FORBIDDEN = "Only admins can make a clone public: your clones stay private";
export const ALREADY_TRAINING = "This clone is already training; wait until it finishes";
/** Photos are stored at most this large on the long side. */
export const CLONE_PHOTO_MAX_SIDE = 2048;
const ACTIVE_JOB = ["queued", "preprocessing", "training"] as const;
const DEFAULT_STEPS = 1000;

// ---------------------------------------------------------------------------------------------
// Attributes

/** A stored photo (attributes.photos[]). */
export interface StoredPhoto {
  image_url: string;
  key: string;
  ok: boolean;
  reason: string | null;
  width: number | null;
  height: number | null;
  sha: string;
}

export interface ProfileState {
  request_id: string;
  status: "processing" | "completed" | "failed";
  error?: string | null;
}

export function cloneAttributes(clone: Pick<Clone, "attributes">): Record<string, unknown> {
  const a = clone.attributes;
  return a && typeof a === "object" && !Array.isArray(a) ? { ...(a as Record<string, unknown>) } : {};
}

export function storedPhotos(clone: Pick<Clone, "attributes">): StoredPhoto[] {
  const photos = cloneAttributes(clone).photos;
  if (!Array.isArray(photos)) return [];
  return photos.filter((p): p is StoredPhoto => !!p && typeof p === "object" && typeof (p as StoredPhoto).image_url === "string");
}

function profileState(clone: Pick<Clone, "attributes">): ProfileState | null {
  const p = cloneAttributes(clone).profile as ProfileState | undefined;
  return p && typeof p === "object" && typeof p.request_id === "string" ? p : null;
}

const publicPhoto = (p: StoredPhoto) => ({ image_url: p.image_url, ok: p.ok, reason: p.reason ?? null, width: p.width ?? null, height: p.height ?? null });

// ---------------------------------------------------------------------------------------------
// Views

export function toTrainingJobView(j: CloneTrainingJob): CloneTrainingJobView {
  return {
    id: j.id,
    user_id: j.user_id,
    clone_id: j.clone_id,
    status: j.status,
    progress: j.progress,
    is_product_clone: j.is_product_clone,
    input_image_urls: j.input_image_urls,
    error: j.error,
    completed_at: j.completed_at?.toISOString() ?? null,
    duration: j.duration,
    created_at: j.created_at.toISOString(),
    updated_at: j.updated_at.toISOString(),
  };
}

export function toCloneView(clone: Clone, caller: Caller, job: CloneTrainingJob | null): CloneView {
  const attrs = cloneAttributes(clone);
  const photos = storedPhotos(clone);
  const profile = profileState(clone);
  return {
    id: clone.id,
    name: clone.name,
    gender: clone.gender === "menswear" || clone.gender === "womenswear" ? clone.gender : null,
    baseImageUrls: clone.baseImageUrls,
    profileImageUrl: clone.profileImageUrl,
    isPublic: clone.isPublic,
    attributes: { ...attrs, photos: photos.map(publicPhoto) },
    user_id: clone.user_id,
    is_owner: clone.user_id === caller.userId || (clone.user_id === null && caller.isAdmin),
    is_product_clone: clone.is_product_clone,
    photos: photos.map(publicPhoto),
    trigger_word: clone.trigger_word,
    lora_url: clone.lora_url,
    processing_status: clone.processing_status,
    outfit_generation_status: clone.outfit_generation_status,
    processing_progress: clone.processing_progress,
    profile_image_status: profile?.status ?? null,
    training_job: job ? toTrainingJobView(job) : null,
    created_at: clone.created_at.toISOString(),
    updated_at: clone.updated_at.toISOString(),
  };
}

async function latestJobs(ctx: Pick<AppContext, "db">, cloneIds: string[]): Promise<Map<string, CloneTrainingJob>> {
  const out = new Map<string, CloneTrainingJob>();
  if (cloneIds.length === 0) return out;
  const jobs = await ctx.db.cloneTrainingJob.findMany({
    where: { clone_id: { in: cloneIds } },
    orderBy: [{ created_at: "desc" }, { id: "desc" }],
  });
  for (const j of jobs) if (j.clone_id && !out.has(j.clone_id)) out.set(j.clone_id, j);
  return out;
}

export async function cloneView(ctx: Pick<AppContext, "db">, clone: Clone, caller: Caller): Promise<CloneView> {
  const jobs = await latestJobs(ctx, [clone.id]);
  return toCloneView(clone, caller, jobs.get(clone.id) ?? null);
}

// ---------------------------------------------------------------------------------------------
// Ownership

async function findClone(ctx: Pick<AppContext, "db">, cloneId: string): Promise<Clone | null> {
  if (!cloneId || cloneId.length > 100) return null;
  return ctx.db.clone.findUnique({ where: { id: cloneId } });
}

const owns = (clone: Clone, caller: Caller) => caller.isAdmin || (clone.user_id !== null && clone.user_id === caller.userId);

/**
 * The clone when the caller owns it (admins with ai.train: any clone); with `allowPublic`, a
 * public clone too. Otherwise 404 — never 403, so a clone's existence is not revealed.
 */
export async function getOwnedClone(ctx: Pick<AppContext, "db">, args: { userId: string; isAdmin: boolean; cloneId: string; allowPublic?: boolean }): Promise<Clone> {
  const clone = await findClone(ctx, args.cloneId);
  if (!clone) throw notFound(CLONE_NOT_FOUND);
  if (owns(clone, args)) return clone;
  if (args.allowPublic && clone.isPublic) return clone;
  throw notFound(CLONE_NOT_FOUND);
}

/** A clone the caller may change: own (admins: any). A public clone of someone else → 403; a private one → 404. */
export async function getEditableClone(ctx: Pick<AppContext, "db">, caller: Caller & { cloneId: string }): Promise<Clone> {
  const clone = await getOwnedClone(ctx, { ...caller, allowPublic: true });
  if (!owns(clone, caller)) throw forbidden(PUBLIC_CLONE_FORBIDDEN);
  return clone;
}

// ---------------------------------------------------------------------------------------------
// Photos

interface CheckedPhoto {
  result: ClonePhotoResult;
  jpeg?: Buffer;
  width?: number;
  height?: number;
  sha?: string;
}

async function analyze(ctx: Pick<AppContext, "config" | "log">, bytes: Uint8Array): Promise<{ usable: boolean; reason?: string }> {
  const { analyzePerson } = await import("~/providers/image-ai/local/person.server");
  try {
    return await analyzePerson(bytes, { cacheDir: path.join(ctx.config.DATA_DIR, "image-ai") });
  } catch (e) {
    ctx.log.warn({ err: e }, "clone photo analysis failed");
    return { usable: false, reason: "The photo could not be analysed; try another one" };
  }
}

/** Checks every file (content type, size, one person…) without storing anything. */
async function checkPhotos(ctx: Pick<AppContext, "config" | "log">, files: Blob[], known: Set<string>): Promise<CheckedPhoto[]> {
  const out: CheckedPhoto[] = [];
  const seen = new Set(known);
  for (const [index, file] of files.entries()) {
    const filename = file instanceof File && file.name ? file.name.slice(0, 200) : null;
    const refuse = (reason: string): CheckedPhoto => ({ result: { index, filename, image_url: null, ok: false, reason } });
    if (file.size > CLONE_PHOTO_MAX_BYTES) {
      out.push(refuse(`The file is ${mb(file.size)}; the maximum is 10 MB`));
      continue;
    }
    let jpeg: Buffer;
    let width: number;
    let height: number;
    try {
      const img = await processImage(new Uint8Array(await file.arrayBuffer()));
      if (Math.max(img.width, img.height) > CLONE_PHOTO_MAX_SIDE) {
        const r = await sharp(img.jpeg)
          .resize(CLONE_PHOTO_MAX_SIDE, CLONE_PHOTO_MAX_SIDE, { fit: "inside", withoutEnlargement: true })
          .jpeg({ quality: 88, mozjpeg: true })
          .toBuffer({ resolveWithObject: true });
        jpeg = r.data;
        width = r.info.width;
        height = r.info.height;
      } else {
        jpeg = img.jpeg;
        width = img.width;
        height = img.height;
      }
    } catch (e) {
      if (e instanceof ApiError) {
        out.push(refuse(e.message));
        continue;
      }
      throw e;
    }
    const sha = crypto.createHash("sha256").update(jpeg).digest("hex");
    if (seen.has(sha)) {
      out.push(refuse("This photo was already uploaded"));
      continue;
    }
    seen.add(sha);
    const verdict = await analyze(ctx, new Uint8Array(jpeg));
    if (!verdict.usable) {
      out.push(refuse(verdict.reason ?? "This photo cannot be used"));
      continue;
    }
    out.push({ result: { index, filename, image_url: null, ok: true, reason: null }, jpeg, width, height, sha });
  }
  return out;
}

/** Stores the usable photos of a check under images/clones/<cloneId>/ (fills in their image_url). */
async function storePhotos(ctx: Pick<AppContext, "storage" | "log">, cloneId: string, checked: CheckedPhoto[]): Promise<StoredPhoto[]> {
  const stored: StoredPhoto[] = [];
  try {
    for (const c of checked) {
      if (!c.result.ok || !c.jpeg) continue;
      const key = `images/clones/${cloneId}/${crypto.randomUUID()}.jpg`;
      const { url } = await ctx.storage.put(key, c.jpeg, "image/jpeg");
      c.result.image_url = url;
      stored.push({ image_url: url, key, ok: true, reason: null, width: c.width ?? null, height: c.height ?? null, sha: c.sha! });
    }
  } catch (e) {
    await deleteKeys(ctx, stored.map((s) => s.key));
    throw e;
  }
  return stored;
}

/** Removes files; a failure is logged and the rest go on (the rows are already gone or never were). */
async function deleteKeys(ctx: Pick<AppContext, "storage" | "log">, keys: string[]) {
  for (const key of keys) await ctx.storage.delete(key).catch((err: unknown) => ctx.log.warn({ err, key }, "clone file not deleted from storage"));
}

function refusal(checked: CheckedPhoto[], usable: number, needed: number) {
  const message =
    usable === 0
      ? `None of the photos can be used: at least ${needed} photos showing only you (face visible, shoulders in the picture) are needed`
      : `Only ${usable} of the photos can be used; at least ${needed} photos showing only you (face visible, shoulders in the picture) are needed`;
  return unprocessable(message, { photos: checked.map((c) => c.result), usable, required: needed });
}

// ---------------------------------------------------------------------------------------------
// Create, add photos

export async function createClone(
  ctx: AppContext,
  caller: Caller,
  input: { name: string; gender: CloneGender; photos: Blob[]; start_training: boolean },
): Promise<{ clone: CloneView; photos: ClonePhotoResult[]; job: CloneTrainingJobView | null }> {
  const checked = await checkPhotos(ctx, input.photos, new Set());
  const usable = checked.filter((c) => c.result.ok).length;
  if (usable < CLONE_MIN_PHOTOS) throw refusal(checked, usable, CLONE_MIN_PHOTOS);

  const id = crypto.randomUUID();
  const stored = await storePhotos(ctx, id, checked);
  let clone: Clone;
  try {
    clone = await ctx.db.clone.create({
      data: {
        id,
        user_id: caller.userId,
        name: input.name,
        gender: input.gender,
        baseImageUrls: stored.map((s) => s.image_url),
        profileImageUrl: stored[0]?.image_url ?? null,
        isPublic: false,
        attributes: { photos: stored } as unknown as Prisma.InputJsonValue,
      },
    });
  } catch (e) {
    await deleteKeys(ctx, stored.map((s) => s.key));
    throw e;
  }
  ctx.log.info({ cloneId: id, photos: checked.length, usable }, "clone created");

  let job: CloneTrainingJob | null = null;
  if (input.start_training) {
    try {
      job = (await startCloneTraining(ctx, { ...caller, cloneId: id, kind: "shopper" })).job;
    } catch (e) {
      // Nothing half-made: the clone goes with its photos.
      await ctx.db.clone.delete({ where: { id } }).catch(() => undefined);
      await deleteKeys(ctx, stored.map((s) => s.key));
      throw e;
    }
    clone = (await ctx.db.clone.findUnique({ where: { id } }))!;
  }
  return { clone: toCloneView(clone, caller, job), photos: checked.map((c) => c.result), job: job ? toTrainingJobView(job) : null };
}

export async function addClonePhotos(ctx: AppContext, caller: Caller & { cloneId: string }, files: Blob[]): Promise<{ clone: CloneView; photos: ClonePhotoResult[] }> {
  const clone = await getEditableClone(ctx, caller);
  const existing = storedPhotos(clone);
  const room = CLONE_MAX_PHOTOS - existing.length;
  if (files.length > room) {
    throw unprocessable(
      room <= 0
        ? `This clone already has ${CLONE_MAX_PHOTOS} photos, the maximum; delete the clone or start a new one`
        : `This clone has ${existing.length} photos; you can add at most ${room} more (${CLONE_MAX_PHOTOS} in all)`,
    );
  }
  const checked = await checkPhotos(ctx, files, new Set(existing.map((p) => p.sha)));
  const usable = checked.filter((c) => c.result.ok).length;
  if (usable === 0) throw refusal(checked, 0, 1);
  const stored = await storePhotos(ctx, clone.id, checked);
  try {
    // Re-read: another upload may have finished meanwhile.
    const fresh = (await ctx.db.clone.findUnique({ where: { id: clone.id } })) ?? clone;
    const attrs = cloneAttributes(fresh);
    const updated = await ctx.db.clone.update({
      where: { id: clone.id },
      data: { attributes: { ...attrs, photos: [...storedPhotos(fresh), ...stored] } as unknown as Prisma.InputJsonValue },
    });
    return { clone: await cloneView(ctx, updated, caller), photos: checked.map((c) => c.result) };
  } catch (e) {
    await deleteKeys(ctx, stored.map((s) => s.key));
    throw e;
  }
}

export async function createAdminClone(
  ctx: AppContext,
  caller: Caller,
  input: { name: string; gender: CloneGender; baseImageUrls: string[]; profileImageUrl?: string | null; isPublic: boolean; train: boolean },
): Promise<{ clone: CloneView; job: CloneTrainingJobView | null }> {
  const urls = [...new Set(input.baseImageUrls)];
  for (const u of [...urls, ...(input.profileImageUrl ? [input.profileImageUrl] : [])]) {
    if (!ImageRef.safeParse(u).success) throw badRequest(`${u.slice(0, 100)}: must be an http(s) URL or a /uploads/ path`);
  }
  if (input.train && urls.length < CLONE_MIN_PHOTOS) {
    throw unprocessable(`Training needs at least ${CLONE_MIN_PHOTOS} base images (${urls.length} given); send train: false to use the images as they are`);
  }
  const id = crypto.randomUUID();
  let clone = await ctx.db.clone.create({
    data: {
      id,
      user_id: null,
      name: input.name,
      gender: input.gender,
      baseImageUrls: urls,
      profileImageUrl: input.profileImageUrl ?? urls[0] ?? null,
      isPublic: input.isPublic,
      attributes: { created_by: caller.userId },
      ...(input.train ? {} : { processing_status: "READY", outfit_generation_status: "COMPLETED", processing_progress: 100 }),
    },
  });
  let job: CloneTrainingJob | null = null;
  if (input.train) {
    try {
      job = (await startCloneTraining(ctx, { ...caller, cloneId: id, kind: "admin" })).job;
    } catch (e) {
      await ctx.db.clone.delete({ where: { id } }).catch(() => undefined);
      throw e;
    }
    clone = (await ctx.db.clone.findUnique({ where: { id } }))!;
  }
  return { clone: toCloneView(clone, caller, job), job: job ? toTrainingJobView(job) : null };
}

// ---------------------------------------------------------------------------------------------
// Reads

export async function listClones(
  ctx: Pick<AppContext, "db">,
  caller: Caller,
  q: { limit: number; cursor?: string; isPublic?: boolean; all?: boolean },
): Promise<{ clones: CloneView[]; nextCursor: string | null }> {
  if (q.all && !caller.isAdmin) throw forbidden("Only admins with the ai.train permission can list every clone");
  const after = decodeKeyset(q.cursor);
  const scope: Prisma.CloneWhereInput = q.all
    ? {}
    : q.isPublic
      ? { isPublic: true, is_product_clone: false }
      : caller.isAdmin
        ? { OR: [{ user_id: caller.userId }, { user_id: null, is_product_clone: false }] }
        : { user_id: caller.userId };
  const rows = await ctx.db.clone.findMany({
    where: { AND: [scope, after ? { OR: [{ created_at: { lt: after.at } }, { created_at: after.at, id: { lt: after.id } }] } : {}] },
    orderBy: [{ created_at: "desc" }, { id: "desc" }],
    take: q.limit + 1,
  });
  const page = rows.slice(0, q.limit);
  const jobs = await latestJobs(ctx, page.map((c) => c.id));
  const last = page[page.length - 1];
  return {
    clones: page.map((c) => toCloneView(c, caller, jobs.get(c.id) ?? null)),
    nextCursor: rows.length > q.limit && last ? encodeKeyset(last.created_at, last.id) : null,
  };
}

export async function getCloneView(ctx: Pick<AppContext, "db">, caller: Caller & { cloneId: string }): Promise<CloneView> {
  return cloneView(ctx, await getOwnedClone(ctx, { ...caller, allowPublic: true }), caller);
}

/** SPEC §3/§4 outfit generation status; null when unknown or not readable (SPEC §8). */
export async function getOutfitGenerationStatus(ctx: Pick<AppContext, "db">, caller: Caller, cloneId?: string) {
  let clone: Clone | null;
  if (cloneId) {
    clone = await getOwnedClone(ctx, { ...caller, cloneId, allowPublic: true }).catch((e: unknown) => {
      if (e instanceof ApiError && e.status === 404) return null;
      throw e;
    });
  } else {
    clone = await ctx.db.clone.findFirst({ where: { user_id: caller.userId }, orderBy: [{ created_at: "desc" }, { id: "desc" }] });
  }
  if (!clone) return null;
  return { processing_status: clone.processing_status, outfit_generation_status: clone.outfit_generation_status, processing_progress: clone.processing_progress };
}

export async function listTrainingJobs(ctx: Pick<AppContext, "db">, caller: Caller, q: { skip: number; take: number; clone_id?: string }) {
  const where: Prisma.CloneTrainingJobWhereInput = { user_id: caller.userId, ...(q.clone_id ? { clone_id: q.clone_id } : {}) };
  const [rows, total] = await Promise.all([
    ctx.db.cloneTrainingJob.findMany({ where, orderBy: [{ created_at: "desc" }, { id: "desc" }], skip: q.skip, take: q.take }),
    ctx.db.cloneTrainingJob.count({ where }),
  ]);
  return { jobs: rows.map(toTrainingJobView), total };
}

export async function getTrainingJob(ctx: Pick<AppContext, "db">, caller: Caller & { jobId: string }): Promise<CloneTrainingJobView> {
  const job = caller.jobId.length <= 100 ? await ctx.db.cloneTrainingJob.findUnique({ where: { id: caller.jobId } }) : null;
  if (!job || (!caller.isAdmin && job.user_id !== caller.userId)) throw notFound(TRAINING_JOB_NOT_FOUND);
  return toTrainingJobView(job);
}

// ---------------------------------------------------------------------------------------------
// Updates

export async function updateClone(
  ctx: Pick<AppContext, "db">,
  caller: Caller & { cloneId: string },
  patch: { name?: string; gender?: CloneGender; isPublic?: boolean },
): Promise<CloneView> {
  const clone = await getEditableClone(ctx, caller);
  if (patch.isPublic === true && !caller.isAdmin && !clone.isPublic) throw forbidden(IS_PUBLIC_FORBIDDEN);
  const updated = await ctx.db.clone.update({
    where: { id: clone.id },
    data: { name: patch.name, gender: patch.gender, isPublic: caller.isAdmin || patch.isPublic === false ? patch.isPublic : undefined },
  });
  return cloneView(ctx, updated, caller);
}

async function generatedImageUrls(ctx: Pick<AppContext, "db">, cloneId: string): Promise<Set<string>> {
  const rows = await ctx.db.generatedImage.findMany({ where: { clone_id: cloneId }, select: { image_url: true } });
  return new Set(rows.map((r) => r.image_url));
}

export async function setCloneProfileImage(ctx: Pick<AppContext, "db">, caller: Caller & { cloneId: string }, profileImageUrl: string): Promise<CloneView> {
  const clone = await getEditableClone(ctx, caller);
  const allowed = new Set([...clone.baseImageUrls, ...storedPhotos(clone).map((p) => p.image_url), ...(await generatedImageUrls(ctx, clone.id))]);
  if (!allowed.has(profileImageUrl)) {
    throw unprocessable("The profile image must be one of the clone's photos or an image generated for it");
  }
  const updated = await ctx.db.clone.update({ where: { id: clone.id }, data: { profileImageUrl } });
  return cloneView(ctx, updated, caller);
}

/**
 * Deletes the clone and (cascade) its try-ons, generated images and saved try-ons; a running
 * training is cancelled first. Once the row is gone, the files made for it leave storage (see
 * cloneFiles); a storage failure is logged, never answered: the clone is deleted either way.
 */
export async function deleteClone(ctx: AppContext, caller: Caller & { cloneId: string }): Promise<{ ok: true }> {
  const clone = await getEditableClone(ctx, caller);
  await cancelActiveTraining(ctx, clone.id);
  // Read before the delete: the cascade removes the rows that name the files.
  const files = await cloneFiles(ctx, clone);
  await ctx.db.clone.delete({ where: { id: clone.id } });
  const keys = await unreferenced(ctx, files);
  await deleteKeys(ctx, keys);
  ctx.log.info({ cloneId: clone.id, files: keys.length }, "clone deleted");
  return { ok: true };
}

/** Where a clone's own files live: its photos, and what image AI made from or for it. */
const CLONE_FILE_PREFIXES = ["images/clones/", "images/ai/"];

const urlsIn = (v: unknown, field: string): string[] =>
  Array.isArray(v) ? v.map((x) => (x && typeof x === "object" ? (x as Record<string, unknown>)[field] : null)).filter((u): u is string => typeof u === "string" && u.length > 0) : [];

/**
 * The files of a clone, as storage key → the URL rows name it by: its uploaded photos
 * (attributes.photos), the masks and cut-outs its trainings prepared and the photo zips sent to
 * the provider (images/ai/training/<request id>.zip), its generated profile images and its
 * try-ons' images. Base images given by URL (admin clones) are not the clone's own and stay.
 */
async function cloneFiles(ctx: AppContext, clone: Clone): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const add = (url: string) => {
    const key = ownStorageKey(ctx, url);
    if (key && CLONE_FILE_PREFIXES.some((p) => key.startsWith(p)) && !files.has(key)) files.set(key, url);
  };
  for (const p of storedPhotos(clone)) {
    if (p.key && p.key.startsWith(`images/clones/${clone.id}/`)) files.set(p.key, p.image_url);
  }
  urlsIn(cloneAttributes(clone).prepared, "mask_url").forEach(add);

  const [images, jobs] = await Promise.all([
    ctx.db.generatedImage.findMany({ where: { OR: [{ clone_id: clone.id }, { tryon: { is: { clone_id: clone.id } } }] }, select: { image_url: true } }),
    ctx.db.cloneTrainingJob.findMany({ where: { clone_id: clone.id }, select: { id: true } }),
  ]);
  images.forEach((i) => add(i.image_url));
  const requests = await ctx.db.imageAiRequest.findMany({
    where: {
      OR: [
        { target_type: "clone_training", target_id: { in: jobs.map((j) => j.id) } },
        { target_type: "clone_profile", target_id: clone.id },
      ],
    },
    select: { id: true, target_type: true, output: true },
  });
  for (const r of requests) {
    const out = r.output && typeof r.output === "object" && !Array.isArray(r.output) ? (r.output as Record<string, unknown>) : {};
    urlsIn(out.images, "url").forEach(add);
    urlsIn(out.prepared, "mask_url").forEach(add);
    if (r.target_type === "clone_training") {
      const zip = `images/ai/training/${r.id.replace(/[^A-Za-z0-9_-]/g, "_")}.zip`;
      files.set(zip, ctx.storage.publicUrl(zip));
    }
  }
  return files;
}

/** The keys among `files` that no remaining row names (another clone's images, another generated image). */
async function unreferenced(ctx: Pick<AppContext, "db">, files: Map<string, string>): Promise<string[]> {
  if (files.size === 0) return [];
  const urls = [...new Set(files.values())];
  const [images, clones] = await Promise.all([
    ctx.db.generatedImage.findMany({ where: { image_url: { in: urls } }, select: { image_url: true } }),
    ctx.db.clone.findMany({ where: { OR: [{ baseImageUrls: { hasSome: urls } }, { profileImageUrl: { in: urls } }] }, select: { baseImageUrls: true, profileImageUrl: true } }),
  ]);
  const named = new Set([...images.map((i) => i.image_url), ...clones.flatMap((c) => [...c.baseImageUrls, ...(c.profileImageUrl ? [c.profileImageUrl] : [])])]);
  return [...files].filter(([, url]) => !named.has(url)).map(([key]) => key);
}

async function cancelActiveTraining(ctx: AppContext, cloneId: string) {
  const jobs = await ctx.db.cloneTrainingJob.findMany({ where: { clone_id: cloneId, status: { in: [...ACTIVE_JOB] } }, select: { id: true } });
  if (jobs.length === 0) return;
  const requests = await ctx.db.imageAiRequest.findMany({
    where: { target_type: "clone_training", target_id: { in: jobs.map((j) => j.id) }, status: { in: ["queued", "in_progress"] } },
    select: { id: true },
  });
  for (const r of requests) await cancelImageAiRequest(ctx, r.id).catch((e: unknown) => ctx.log.warn({ err: e, requestId: r.id }, "cancelling clone training failed"));
  await ctx.db.cloneTrainingJob.updateMany({
    where: { id: { in: jobs.map((j) => j.id) }, status: { in: [...ACTIVE_JOB] } },
    data: { status: "cancelled", error: "Cancelled: the clone was deleted" },
  });
}

// ---------------------------------------------------------------------------------------------
// Training

/** "TOK" + the first 8 letters/digits of the clone id (a word the model will not confuse with anything). */
export function triggerWordFor(cloneId: string): string {
  return `TOK${cloneId.replace(/[^A-Za-z0-9]/g, "").slice(0, 8).toUpperCase()}`;
}

const OPERATION = { shopper: "train-flux", admin: "train-flux-admin", product: "train-flux-product" } as const;

/**
 * Starts training a clone on its baseImageUrls: a CloneTrainingJob (queued) and an image-AI
 * request aimed at it; the clone goes PROCESSING_IMAGES / PENDING. 409 while a training of the
 * clone is running; 422 with fewer than 4 base images (product clones: 1).
 */
export async function startCloneTraining(
  ctx: AppContext,
  args: {
    userId: string;
    isAdmin: boolean;
    cloneId: string;
    kind: CloneTrainingKind;
    triggerWord?: string;
    steps?: number;
    /** New baseImageUrls, set together with the claim (process-selected-base-images). */
    imageUrls?: string[];
  },
): Promise<{ job: CloneTrainingJob; request: ImageAiRequestRecord }> {
  const clone = await getEditableClone(ctx, args);
  const min = args.kind === "product" ? 1 : CLONE_MIN_PHOTOS;
  const urls = [...new Set(args.imageUrls ?? clone.baseImageUrls)];
  if (urls.length < min) {
    throw unprocessable(`Training needs at least ${min} photos (this clone has ${urls.length}); add photos and select at least ${min}`);
  }
  const running = await ctx.db.cloneTrainingJob.findFirst({ where: { clone_id: clone.id, status: { in: [...ACTIVE_JOB] } } });
  if (running) throw conflict(ALREADY_TRAINING);
  // Another start has just claimed it and is creating its job.
  if (clone.processing_status === "PROCESSING_IMAGES" && Date.now() - clone.updated_at.getTime() < 60_000) throw conflict(ALREADY_TRAINING);
  // Claim the clone atomically (optimistic on updated_at): two concurrent starts cannot both win,
  // and a clone left PROCESSING_IMAGES without a running job (a crash) can be trained again.
  const claimed = await ctx.db.clone.updateMany({
    where: { id: clone.id, updated_at: clone.updated_at },
    data: { processing_status: "PROCESSING_IMAGES", outfit_generation_status: "PENDING", processing_progress: 0, baseImageUrls: urls },
  });
  if (claimed.count === 0) throw conflict(ALREADY_TRAINING);

  const triggerWord = args.triggerWord ?? clone.trigger_word ?? triggerWordFor(clone.id);
  const job = await ctx.db.cloneTrainingJob.create({
    data: {
      user_id: args.userId,
      clone_id: clone.id,
      status: "queued",
      progress: 0,
      is_product_clone: args.kind === "product" || clone.is_product_clone,
      input_image_urls: urls,
    },
  });
  try {
    const request = await startImageAiRequest(ctx, {
      operation: OPERATION[args.kind],
      input: { image_urls: urls, trigger_word: triggerWord, steps: args.steps ?? DEFAULT_STEPS },
      userId: args.userId,
      target: { type: "clone_training", id: job.id },
    });
    await ctx.db.clone.update({ where: { id: clone.id }, data: { trigger_word: triggerWord } });
    ctx.log.info({ cloneId: clone.id, jobId: job.id, requestId: request.id, operation: request.operation }, "clone training started");
    return { job, request };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    await ctx.db.cloneTrainingJob.update({ where: { id: job.id }, data: { status: "failed", error: message.slice(0, 2000), completed_at: new Date() } });
    await ctx.db.clone.update({
      where: { id: clone.id },
      data: {
        processing_status: clone.processing_status,
        outfit_generation_status: clone.outfit_generation_status,
        processing_progress: clone.processing_progress,
        baseImageUrls: clone.baseImageUrls,
      },
    });
    throw e;
  }
}

/** POST /clones/process-selected-base-images: the chosen photos become baseImageUrls, then training starts. */
export async function processSelectedBaseImages(
  ctx: AppContext,
  caller: Caller,
  input: { cloneId?: string; selectedImageUrls: string[] },
): Promise<{ clone: CloneView; job: CloneTrainingJobView }> {
  const selected = [...new Set(input.selectedImageUrls)];
  let cloneId = input.cloneId;
  if (!cloneId) {
    const ids = new Set(selected.map((u) => /\/images\/clones\/([A-Za-z0-9-]+)\//.exec(u)?.[1] ?? ""));
    if (ids.size !== 1 || ids.has("")) throw badRequest("cloneId is required: the selected photos do not all belong to one clone");
    cloneId = [...ids][0];
  }
  const clone = await getEditableClone(ctx, { ...caller, cloneId });
  const photos = storedPhotos(clone);
  const usable = new Set(photos.filter((p) => p.ok).map((p) => p.image_url));
  // Admin clones are made from stored images without uploads: their base images count as usable.
  if (clone.user_id === null) for (const u of clone.baseImageUrls) usable.add(u);
  const unknown = selected.filter((u) => !photos.some((p) => p.image_url === u) && !usable.has(u));
  if (unknown.length) throw unprocessable("Some selected images are not photos of this clone", { unknown });
  const refused = selected.filter((u) => !usable.has(u));
  if (refused.length) throw unprocessable("Some selected photos cannot be used", { refused });
  if (selected.length < CLONE_MIN_PHOTOS) throw unprocessable(`Select at least ${CLONE_MIN_PHOTOS} different photos`);
  const kind = clone.is_product_clone ? "product" : clone.user_id === null ? "admin" : "shopper";
  const { job } = await startCloneTraining(ctx, { ...caller, cloneId: clone.id, kind, imageUrls: selected });
  const updated = (await ctx.db.clone.findUnique({ where: { id: clone.id } }))!;
  return { clone: toCloneView(updated, caller, job), job: toTrainingJobView(job) };
}

// ---------------------------------------------------------------------------------------------
// Profile image

/** Starts a flux-profile-image request from the clone's photos; the hook sets profileImageUrl. 409 while one runs. */
export async function generateCloneProfileImage(ctx: AppContext, args: { userId: string; isAdmin: boolean; cloneId: string }): Promise<{ request: ImageAiRequestRecord }> {
  const clone = await getEditableClone(ctx, args);
  const urls = [...new Set([...clone.baseImageUrls, ...storedPhotos(clone).filter((p) => p.ok).map((p) => p.image_url)])].slice(0, 40);
  if (urls.length === 0) throw unprocessable("This clone has no photos to make a profile image from");
  const current = profileState(clone);
  if (current?.status === "processing") {
    const req = await ctx.db.imageAiRequest.findUnique({ where: { id: current.request_id }, select: { status: true } });
    if (req && (req.status === "queued" || req.status === "in_progress")) throw conflict("A profile image is already being generated for this clone");
  }
  const request = await startImageAiRequest(ctx, {
    operation: "flux-profile-image",
    input: {
      image_urls: urls,
      ...(clone.trigger_word ? { trigger_word: clone.trigger_word } : {}),
      loras: clone.lora_url ? [{ url: clone.lora_url, scale: 1 }] : [],
    },
    userId: args.userId,
    target: { type: "clone_profile", id: clone.id },
  });
  await setProfileState(ctx, clone.id, { request_id: request.id, status: "processing", error: null });
  return { request };
}

/** Records the profile-image state in the clone's attributes (re-read, so concurrent changes are kept). */
export async function setProfileState(ctx: Pick<AppContext, "db">, cloneId: string, state: ProfileState, data: Prisma.CloneUpdateInput = {}): Promise<Clone | null> {
  const fresh = await ctx.db.clone.findUnique({ where: { id: cloneId } });
  if (!fresh) return null;
  return ctx.db.clone.update({
    where: { id: cloneId },
    data: { ...data, attributes: { ...cloneAttributes(fresh), profile: state } as unknown as Prisma.InputJsonValue },
  });
}

export async function generateProfileImageView(ctx: AppContext, caller: Caller & { cloneId: string }) {
  const { request } = await generateCloneProfileImage(ctx, caller);
  const clone = await getOwnedClone(ctx, caller);
  return { clone: await cloneView(ctx, clone, caller), request_id: request.id, status: request.status };
}

export { ACTIVE_JOB as ACTIVE_TRAINING_STATUSES };
