/**
 * Product requests (app/contract/product-requests.ts): shoppers ask for products the store does
 * not carry; the sourcing team moves them through the state machine, starts Taobao imports from
 * their links, and the requester is emailed once one is sourced.
 *
 * Status moves run under the request's row lock, so two admins moving the same request make one
 * move each in turn (the second sees the first's state) and "sourced" is emailed once.
 */
import { Prisma, type ProductRequest as Row, type User } from "@prisma/client";
import type { AppContext } from "~/context.server";
import type { Db } from "~/db.server";
import {
  PRODUCT_REQUEST_TRANSITIONS,
  ProductRequestMessages as M,
  type OwnProductRequest,
  type ProductRequest,
  type ProductRequestStatus,
} from "~/contract/product-requests";
import { conflictError, invalid, notFoundError, unprocessableError } from "~/lib/domain-errors";
import { escapeHtml } from "~/lib/storefront-html.server";
import { gidTail } from "~/lib/gid";
import { parseTaobaoReference } from "~/providers/taobao/port";
import { queueEmail, type OutgoingEmail } from "./email.server";
import { storeUploadedImage } from "./uploaded-image-store.server";
import { submitImport } from "./taobao-import/jobs.server";

export const PRODUCT_REQUEST_IMAGE_PURPOSE = "product_request";

type Tx = Prisma.TransactionClient;
const include = {
  user: { select: { id: true, email: true, first_name: true, last_name: true, auth_provider: true } },
} satisfies Prisma.ProductRequestInclude;
type FullRow = Prisma.ProductRequestGetPayload<{ include: typeof include }>;

export function canMove(from: ProductRequestStatus, to: ProductRequestStatus): boolean {
  return PRODUCT_REQUEST_TRANSITIONS[from].includes(to);
}

const isTaobaoLink = (link: string | null) => {
  if (!link) return false;
  const ref = parseTaobaoReference(link);
  return ref?.kind === "item";
};

async function productsOf(db: Db | Tx, rows: Row[]) {
  const ids = [...new Set(rows.map((r) => r.sourced_product_id).filter((x): x is string => !!x))];
  if (!ids.length) return new Map<string, { id: string; title: string; handle: string }>();
  const products = await db.product.findMany({ where: { id: { in: ids } }, select: { id: true, title: true, handle: true } });
  return new Map(products.map((p) => [p.id, p]));
}

function toOwn(r: Row, products: Map<string, { id: string; title: string; handle: string }>): OwnProductRequest {
  return {
    id: r.id,
    brand: r.brand,
    garment: r.garment,
    link: r.link,
    image_url: r.image_url,
    status: r.status,
    product: r.sourced_product_id ? (products.get(r.sourced_product_id) ?? null) : null,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

function personName(u: { first_name: string | null; last_name: string | null; email: string | null }): string {
  const full = [u.first_name, u.last_name].filter((p) => p && p.trim()).join(" ").trim();
  return full || u.email?.split("@")[0] || "Guest";
}

function toAdmin(r: FullRow, products: Map<string, { id: string; title: string; handle: string }>): ProductRequest {
  return {
    ...toOwn(r, products),
    email: r.email,
    user: r.user ? { id: r.user.id, email: r.user.email, name: personName(r.user), auth_provider: r.user.auth_provider } : null,
    notes: r.notes,
    import_batch_id: r.import_batch_id,
    taobao: isTaobaoLink(r.link),
    status_changed_at: r.status_changed_at ? r.status_changed_at.toISOString() : null,
    next_statuses: [...PRODUCT_REQUEST_TRANSITIONS[r.status]],
  };
}

async function adminView(db: Db | Tx, id: string): Promise<ProductRequest> {
  const r = await db.productRequest.findUnique({ where: { id }, include });
  if (!r) throw notFoundError(M.NOT_FOUND);
  return toAdmin(r, await productsOf(db, [r]));
}

// ---------------------------------------------------------------------------------------------
// Shoppers

export interface CreateInput {
  brand: string;
  garment: string;
  link: string | null;
  image: Blob | string | null;
  email?: string;
}

/** Guests and anonymous callers must give an email; a registered caller's own one is used. */
function requesterEmail(user: Pick<User, "auth_provider" | "email"> | null, given: string | undefined): string {
  if (user && user.auth_provider !== "guest" && user.email) return user.email;
  if (!given) throw invalid(M.EMAIL_REQUIRED, { field: "email" });
  return given;
}

async function storeImage(ctx: Pick<AppContext, "db" | "storage">, file: Blob, userId: string | null): Promise<{ url: string; key: string }> {
  const image = await storeUploadedImage(ctx, { file, userId, purpose: PRODUCT_REQUEST_IMAGE_PURPOSE, folder: "product-requests" });
  return { url: image.url, key: image.key };
}

export async function createProductRequest(
  ctx: Pick<AppContext, "db" | "storage">,
  user: Pick<User, "id" | "auth_provider" | "email"> | null,
  input: CreateInput,
): Promise<OwnProductRequest> {
  const email = requesterEmail(user, input.email);
  const image = input.image instanceof Blob ? await storeImage(ctx, input.image, user?.id ?? null) : null;
  try {
    const row = await ctx.db.productRequest.create({
      data: {
        brand: input.brand,
        garment: input.garment,
        link: input.link,
        image_url: image ? image.url : typeof input.image === "string" ? input.image : null,
        user_id: user?.id ?? null,
        email,
      },
    });
    return toOwn(row, new Map());
  } catch (e) {
    if (image) {
      await ctx.storage.delete(image.key).catch(() => undefined);
      await ctx.db.uploadedImage.deleteMany({ where: { key: image.key } }).catch(() => undefined);
    }
    throw e;
  }
}

export async function listOwnProductRequests(db: Db, userId: string): Promise<{ requests: OwnProductRequest[] }> {
  const rows = await db.productRequest.findMany({ where: { user_id: userId }, orderBy: [{ created_at: "desc" }, { id: "desc" }], take: 100 });
  const products = await productsOf(db, rows);
  return { requests: rows.map((r) => toOwn(r, products)) };
}

// ---------------------------------------------------------------------------------------------
// The sourcing team

export async function listProductRequests(db: Db, q: { status?: ProductRequestStatus; q?: string; page: number; limit: number }) {
  const text = q.q?.trim();
  const textWhere: Prisma.ProductRequestWhereInput = text
    ? {
        OR: [
          { brand: { contains: text, mode: "insensitive" } },
          { garment: { contains: text, mode: "insensitive" } },
          { email: { contains: text, mode: "insensitive" } },
        ],
      }
    : {};
  const where: Prisma.ProductRequestWhereInput = { ...textWhere, ...(q.status ? { status: q.status } : {}) };
  const [rows, total, grouped] = await Promise.all([
    db.productRequest.findMany({ where, include, orderBy: [{ created_at: "desc" }, { id: "desc" }], skip: (q.page - 1) * q.limit, take: q.limit }),
    db.productRequest.count({ where }),
    db.productRequest.groupBy({ by: ["status"], where: textWhere, _count: { _all: true } }),
  ]);
  const counts: Record<ProductRequestStatus, number> = { pending: 0, in_review: 0, sourced: 0, declined: 0 };
  for (const g of grouped) counts[g.status] = g._count._all;
  const products = await productsOf(db, rows);
  return { requests: rows.map((r) => toAdmin(r, products)), total, page: q.page, limit: q.limit, counts };
}

export const getProductRequest = (db: Db, id: string) => adminView(db, id);

export async function updateProductRequestNotes(db: Db, id: string, notes: string | null) {
  const n = await db.productRequest.updateMany({ where: { id }, data: { notes: notes || null } });
  if (!n.count) throw notFoundError(M.NOT_FOUND);
  return adminView(db, id);
}

async function lockRow(tx: Tx, id: string): Promise<Row> {
  await tx.$queryRaw`SELECT id FROM product_requests WHERE id = ${id} FOR UPDATE`;
  const r = await tx.productRequest.findUnique({ where: { id } });
  if (!r) throw notFoundError(M.NOT_FOUND);
  return r;
}

export function sourcedEmail(to: string, r: Pick<Row, "brand" | "garment">, product: { id: string; title: string; handle: string } | null, appUrl: string | undefined): OutgoingEmail {
  const what = `${r.brand} ${r.garment}`;
  const base = (appUrl ?? "").replace(/\/$/, "");
  const link = product ? `${base}/products/${encodeURIComponent(gidTail(product.id))}/${encodeURIComponent(product.handle)}` : `${base}/`;
  const lead = product ? `We found it: ${product.title} is now in the store.` : "We found it: it is now in the store.";
  return {
    to,
    kind: "product_request_sourced",
    subject: `We found the ${what} you asked for`,
    text: `${lead}\n\nYou asked us for: ${what}.\n\nSee it: ${link}\n`,
    html: `<p>${escapeHtml(lead)}</p><p>You asked us for: <strong>${escapeHtml(what)}</strong>.</p><p><a href="${escapeHtml(link)}">See it in the store</a></p>`,
  };
}

export async function moveProductRequest(
  ctx: Pick<AppContext, "db" | "queue" | "config">,
  id: string,
  body: { status: ProductRequestStatus; product_id?: string; notes?: string },
): Promise<ProductRequest> {
  await ctx.db.$transaction(async (tx) => {
    const r = await lockRow(tx, id);
    if (!canMove(r.status, body.status)) throw conflictError(M.transition(r.status, body.status), { from: r.status, to: body.status, allowed: PRODUCT_REQUEST_TRANSITIONS[r.status] });
    let product: { id: string; title: string; handle: string } | null = null;
    if (body.product_id) {
      if (body.status !== "sourced") throw invalid("product_id is only given when the request is sourced");
      product = await tx.product.findUnique({ where: { id: body.product_id }, select: { id: true, title: true, handle: true } });
      if (!product) throw notFoundError(M.PRODUCT_NOT_FOUND);
    }
    await tx.productRequest.update({
      where: { id },
      data: {
        status: body.status,
        status_changed_at: new Date(),
        ...(product ? { sourced_product_id: product.id } : {}),
        ...(body.notes !== undefined ? { notes: body.notes || null } : {}),
      },
    });
    if (body.status === "sourced") {
      const user = r.user_id ? await tx.user.findUnique({ where: { id: r.user_id }, select: { email: true, auth_provider: true } }) : null;
      const to = user && user.auth_provider !== "guest" && user.email ? user.email : r.email;
      // In the same transaction: the email is queued exactly when the move commits.
      if (to) await queueEmail(ctx, sourcedEmail(to, r, product, ctx.config.APP_URL ?? ctx.config.SHOPIFY_APP_URL), tx);
    }
  });
  return adminView(ctx.db, id);
}

/** Starts a Taobao import from the request's link; a pending request moves to in review. */
export async function importFromProductRequest(ctx: Pick<AppContext, "db" | "queue" | "config" | "taobao" | "log">, id: string, storeId: string) {
  const r = await ctx.db.productRequest.findUnique({ where: { id } });
  if (!r) throw notFoundError(M.NOT_FOUND);
  if (!r.link) throw unprocessableError(M.NO_LINK);
  if (!isTaobaoLink(r.link)) throw unprocessableError(M.NOT_TAOBAO);
  if (!(await ctx.db.store.findUnique({ where: { id: storeId }, select: { id: true } }))) throw notFoundError("Store not found");
  const submitted = await submitImport(ctx, { taobao_product_id: r.link, store_id: storeId });
  await ctx.db.$transaction(async (tx) => {
    const locked = await lockRow(tx, id);
    await tx.productRequest.update({
      where: { id },
      data: {
        import_batch_id: submitted.batch_id,
        ...(locked.status === "pending" ? { status: "in_review", status_changed_at: new Date() } : {}),
      },
    });
  });
  return { request: await adminView(ctx.db, id), batch_id: submitted.batch_id, jobs: submitted.jobs.length };
}
