/**
 * The packing list of chosen orders (issue 16): `/app/orders/packing-list?ids=<id,id,…>&format=html|pdf`,
 * orders.manage only, at most MAX_BULK_ORDERS orders. html: a print-ready page (one order a page when
 * printed); pdf: a download (packing-list-<date>.pdf). No ids or a bad format → 400; unknown ids → 404
 * naming them. A resource route (no page); the orders list fetches it (inside the Shopify admin,
 * App Bridge adds the session token to fetch, which a plain link would not carry).
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { PackingListQuerySchema } from "~/contract/admin-orders-bulk";
import { getAppContext } from "~/context.server";
import { issuesMessage, refusalOf } from "~/lib/admin-route.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { staffError } from "~/lib/staff-errors";
import { loadPackingList, packingListFilename, packingListHtml, packingListPdf, shopNameOf } from "~/services/orders/packing-list.server";

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { user } = await requireAdmin(request, "orders.manage");
  const ctx = getAppContext();
  const sp = new URL(request.url).searchParams;
  const parsed = PackingListQuerySchema.safeParse({
    // Comma-separated, repeated, or both.
    ids: sp
      .getAll("ids")
      .flatMap((v) => v.split(","))
      .map((v) => v.trim())
      .filter(Boolean),
    format: sp.get("format") || undefined,
  });
  if (!parsed.success) throw staffError(400, issuesMessage(parsed.error));
  let list: Awaited<ReturnType<typeof loadPackingList>>;
  try {
    list = await loadPackingList(ctx.db, parsed.data.ids, shopNameOf(ctx.config.EMAIL_FROM));
  } catch (e) {
    const refusal = refusalOf(e);
    throw staffError(refusal.status, refusal.message);
  }
  ctx.log.info({ adminId: user.id, orders: list.orders.length, format: parsed.data.format }, "packing list");
  const headers = { "cache-control": "no-store", "x-content-type-options": "nosniff" };
  if (parsed.data.format === "pdf") {
    const pdf = await packingListPdf(list);
    return new Response(new Uint8Array(pdf), {
      headers: { ...headers, "content-type": "application/pdf", "content-disposition": `attachment; filename="${packingListFilename(list.generatedAt)}"` },
    });
  }
  return new Response(packingListHtml(list), { headers: { ...headers, "content-type": "text/html; charset=utf-8" } });
};
