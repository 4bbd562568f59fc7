/**
 * Loader and action of the socials content screens (issue 19): the team's at /app/socials
 * (catalog.edit, every vendor) and a vendor's at /app/vendor/socials (its own only). Both go
 * through the same service and zod schemas as /api/product-socials-content, with the viewer the
 * page's user is: the scoping is the service's, never the page's.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { SocialsGenerateBody, SocialsUpdateBody, SocialsVendorQuery, SOCIALS_STATUSES, SOCIAL_PLATFORMS } from "~/contract/product-socials-content";
import { getAppContext } from "~/context.server";
import { answerRefusals, invalidInput, issuesMessage, refusalOf, utcFromLocalInput } from "~/lib/admin-route.server";
import { vendorOptions } from "~/lib/ads-admin.server";
import { requireAdmin, requireVendor } from "~/lib/staff-auth.server";
import { staffError } from "~/lib/staff-errors";
import { cursorParams } from "~/components/admin/CursorFooter";
import {
  deleteSocialsContent,
  generateSocialsDrafts,
  getSocialsContent,
  listForVendor,
  updateSocialsContent,
  type SocialsViewer,
} from "~/services/product-socials-content.server";

export interface SocialsScope {
  viewer: SocialsViewer;
  /** The page's own URL (links and redirects). */
  base: string;
  team: boolean;
}

export async function teamSocialsScope(request: Request): Promise<SocialsScope> {
  await requireAdmin(request, "catalog.edit");
  return { viewer: { vendorId: null }, base: "/app/socials", team: true };
}

export async function vendorSocialsScope(request: Request): Promise<SocialsScope> {
  const { vendorId } = await requireVendor(request);
  return { viewer: { vendorId }, base: "/app/vendor/socials", team: false };
}

const optional = (v: string | null) => (v && v.trim() ? v.trim() : undefined);

export async function loadSocialsPage(scope: SocialsScope, { request }: Pick<LoaderFunctionArgs, "request">) {
  const ctx = getAppContext();
  const sp = new URL(request.url).searchParams;
  const { cursor, trail } = cursorParams(sp);
  const parsed = SocialsVendorQuery.safeParse({
    vendorId: scope.team ? optional(sp.get("vendorId")) : undefined,
    status: optional(sp.get("status")),
    platform: optional(sp.get("platform")),
    cursor: cursor ?? undefined,
  });
  if (!parsed.success) throw staffError(400, issuesMessage(parsed.error));
  try {
    // One query after another: the embedded database serves one statement stream at a time.
    const page = await listForVendor(ctx.db, scope.viewer, parsed.data);
    const editId = optional(sp.get("edit"));
    const editing = editId ? await getSocialsContent(ctx.db, scope.viewer, editId).catch(() => null) : null;
    const products = await ctx.db.productCompanion.findMany({
      where: scope.viewer.vendorId ? { product: { vendor_id: scope.viewer.vendorId } } : {},
      select: { id: true, product: { select: { title: true } } },
      orderBy: { created_at: "desc" },
      take: 200,
    });
    const vendors = scope.team ? await vendorOptions(ctx.db) : [];
    return {
      base: scope.base,
      team: scope.team,
      filters: { status: parsed.data.status ?? "", platform: parsed.data.platform ?? "", vendorId: parsed.data.vendorId ?? "" },
      items: page.items,
      nextCursor: page.nextCursor,
      cursor,
      trail,
      editing,
      products: products.map((c) => ({ id: c.id, title: c.product.title })),
      vendors,
      statuses: SOCIALS_STATUSES,
      platforms: SOCIAL_PLATFORMS,
    };
  } catch (e) {
    if (e instanceof Response) throw e;
    const refusal = refusalOf(e);
    throw staffError(refusal.status, refusal.message);
  }
}

const Intent = z.enum(["generate", "save", "status", "delete"]);
/** The `datetime-local` field (UTC, as every page shows times) as an ISO date-time; empty clears it. */
function scheduleOf(form: FormData): string | null | undefined {
  if (!form.has("scheduled_at")) return undefined;
  const utc = utcFromLocalInput(String(form.get("scheduled_at")));
  if (!utc) return null;
  const d = new Date(utc);
  return Number.isNaN(d.getTime()) ? utc : d.toISOString();
}
const hashtagsOf = (text: string) => text.split(/[\s,]+/).map((h) => h.trim()).filter(Boolean);

export type SocialsActionResult = { ok: true; message: string } | { ok: false; error: string };

export async function socialsAction(scope: SocialsScope, request: Request): Promise<SocialsActionResult> {
  const ctx = getAppContext();
  const form = await request.formData();
  const intent = Intent.safeParse(form.get("intent"));
  if (!intent.success) return { ok: false, error: "Unknown action" };
  const id = String(form.get("id") ?? "");
  return answerRefusals(async (): Promise<SocialsActionResult> => {
    switch (intent.data) {
      case "generate": {
        const body = SocialsGenerateBody.safeParse({
          companion_id: String(form.get("companion_id") ?? ""),
          platforms: form.getAll("platforms").map(String),
          images: form.get("images") === "on",
        });
        if (!body.success) return invalidInput(body.error) as SocialsActionResult;
        const r = await generateSocialsDrafts(ctx, scope.viewer, body.data);
        const n = r.items.length;
        return { ok: true, message: `${n} draft${n === 1 ? "" : "s"} written${r.media_error ? ` (${r.media_error})` : ""}` };
      }
      case "save": {
        const body = SocialsUpdateBody.safeParse({
          caption: String(form.get("caption") ?? ""),
          hashtags: hashtagsOf(String(form.get("hashtags") ?? "")),
          scheduled_at: scheduleOf(form),
        });
        if (!body.success) return invalidInput(body.error) as SocialsActionResult;
        await updateSocialsContent(ctx.db, scope.viewer, id, body.data);
        return { ok: true, message: "Saved" };
      }
      case "status": {
        const body = SocialsUpdateBody.safeParse({ status: String(form.get("status") ?? "") });
        if (!body.success) return invalidInput(body.error) as SocialsActionResult;
        const r = await updateSocialsContent(ctx.db, scope.viewer, id, body.data);
        return { ok: true, message: `Now ${r.status}` };
      }
      case "delete":
        await deleteSocialsContent(ctx.db, scope.viewer, id);
        return { ok: true, message: "Deleted" };
    }
  });
}
