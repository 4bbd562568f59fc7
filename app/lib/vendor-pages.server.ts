/**
 * Loaders and actions of the vendor portal's pages, shared by the vendor's own pages
 * (/app/vendor…, the vendor from the session) and the admins' view of any vendor
 * (/app/vendors/:id…, vendors.manage). The pages read through the same services and zod queries
 * as the API's /vendors/me/… and /vendors/{id}/… routes, so a range or search the API refuses
 * shows the API's message on the page.
 */
import type { Params } from "@remix-run/react";
import { VENDOR_PERFORMANCE_DEFAULT_LIMIT, VendorPerformanceSort, vendorAnalyticsEndpoints, type VendorProductsPerformance } from "~/contract/vendor-analytics";
import { getAppContext } from "~/context.server";
import { answerRefusals, invalidInput, issuesMessage, orNotFound, refusalOf } from "~/lib/admin-route.server";
import { formOf } from "~/lib/body-limit.server";
import { staffError } from "~/lib/staff-errors";
import { vendorsEndpoints } from "~/contract/vendors";
import { getVendor, listVendorStores, setVendorProductStatus } from "~/services/vendors/portal.server";
import { markPayoutPaid, payoutsCsv, setCommissionRate, vendorPayouts } from "~/services/vendors/payouts.server";
import { cursorParams } from "~/components/admin/CursorFooter";
import { rangeFromSearch, RANGE_PRESET_DAYS } from "~/lib/analytics-range";
import { requireAdmin, requireVendor } from "~/lib/staff-auth.server";
import { requireVendorExists, vendorAnalyticsSummary, vendorProductsPerformance, vendorTopProducts, type VendorAnalyticsDeps } from "~/services/vendors/analytics.server";

/** Whose pages these are: the signed-in vendor's, or the vendor of the URL for an admin. */
export interface VendorScope {
  vendorId: string;
  /** The pages' base URL: /app/vendor or /app/vendors/:id. */
  base: string;
  asAdmin: boolean;
}

/**
 * The vendor a page shows. /app/vendors/:id needs an admin with vendors.manage (anyone else is
 * refused with 403 — another vendor included — before the id is looked at) and an existing vendor
 * (404); /app/vendor needs a vendor account.
 */
export async function vendorScope(request: Request, params: Params): Promise<VendorScope> {
  if (params.id !== undefined) {
    await requireAdmin(request, "vendors.manage");
    const vendorId = params.id;
    await orNotFound("Vendor not found", () => requireVendorExists(getAppContext().db, vendorId));
    return {
      vendorId,
      base: `/app/vendors/${encodeURIComponent(vendorId)}`,
      asAdmin: true,
    };
  }
  const { vendorId } = await requireVendor(request);
  return { vendorId, base: "/app/vendor", asAdmin: false };
}

const analyticsDeps = (): VendorAnalyticsDeps => {
  const ctx = getAppContext();
  return { db: ctx.db, timeZone: ctx.config.STORE_TIMEZONE };
};

/** The home's range, KPIs with the previous period, daily series and top products. */
export async function loadVendorHome(scope: VendorScope, request: Request) {
  const deps = analyticsDeps();
  const timeZone = deps.timeZone ?? "UTC";
  const { asked, range } = rangeFromSearch(new URL(request.url).searchParams, timeZone);
  const parsed = vendorAnalyticsEndpoints.vendorsMeAnalyticsSummary.query.safeParse({
    ...asked,
    compare: "previous",
  });
  if (!parsed.success)
    return {
      range,
      timeZone,
      error: issuesMessage(parsed.error),
      summary: null,
      top: null,
    };
  try {
    const [summary, top] = await Promise.all([
      vendorAnalyticsSummary(deps, scope.vendorId, parsed.data),
      vendorTopProducts(deps, scope.vendorId, {
        from: parsed.data.from,
        to: parsed.data.to,
        by: "revenue",
        limit: 10,
      }),
    ]);
    return {
      range: { ...range, from: summary.from, to: summary.to },
      timeZone,
      error: null,
      summary,
      top,
    };
  } catch (e) {
    return {
      range,
      timeZone,
      error: refusalOf(e).message,
      summary: null,
      top: null,
    };
  }
}

const STATUS_FILTERS = ["active", "draft", "archived"] as const;
type StatusFilter = (typeof STATUS_FILTERS)[number];

/**
 * The products table: every product of the vendor with its measures over the last 7/30/90 days
 * (`?days=`, 30 by default), searched (`q`), sorted (`sort`, `order`) and paged by the API's
 * cursor (`cursor`; `trail` keeps the cursors of the pages before, for "previous").
 *
 * A status filter (`status`) is the API's own (`status` of the performance query).
 */
export async function loadVendorProducts(scope: VendorScope, request: Request) {
  const deps = analyticsDeps();
  const sp = new URL(request.url).searchParams;
  const days = RANGE_PRESET_DAYS.find((d) => String(d) === sp.get("days")) ?? 30;
  const { asked } = rangeFromSearch(new URLSearchParams({ days: String(days) }), deps.timeZone ?? "UTC");
  const status = STATUS_FILTERS.find((s) => s === sp.get("status")) ?? null;
  const { cursor, trail } = cursorParams(sp);
  const sortAsked = VendorPerformanceSort.find((s) => s === sp.get("sort")) ?? "revenue";
  const base = {
    days,
    q: sp.get("q") ?? "",
    status: (status ?? "all") as "all" | StatusFilter,
    sort: sortAsked,
    order: (sp.get("order") === "asc" ? "asc" : sp.get("order") === "desc" ? "desc" : sortAsked === "title" ? "asc" : "desc") as "asc" | "desc",
    trail,
    cursor,
  };
  const parsed = vendorAnalyticsEndpoints.vendorsMeProductsPerformance.query.safeParse({
    ...asked,
    sort: base.sort,
    order: base.order,
    q: base.q || undefined,
    status: status ?? undefined,
    cursor: cursor ?? undefined,
    limit: VENDOR_PERFORMANCE_DEFAULT_LIMIT,
  });
  if (!parsed.success) return { ...base, error: issuesMessage(parsed.error), performance: null };
  try {
    return {
      ...base,
      error: null,
      performance: await vendorProductsPerformance(deps, scope.vendorId, parsed.data),
    };
  } catch (e) {
    return { ...base, error: refusalOf(e).message, performance: null };
  }
}

/** The vendor (name, commission rate, counts), for the pages' titles. */
export async function vendorHeader(scope: VendorScope) {
  return orNotFound("Vendor not found", () => getVendor(getAppContext().db, scope.vendorId));
}

export type StatusActionResult = { ok: true; message: string; intent: "status" } | { ok: false; error: string; intent: "status" };

/**
 * The products page's status change `{ intent: "status", id, status }`, through the same service
 * and zod body as PATCH /vendors/me/products/{id}/status (the vendor's page) and PATCH
 * /vendors/{id}/products/{productId}/status (an admin's view of the vendor): the scope's vendor's
 * products only (another vendor's product is "Product not found"), the store's refusal as the
 * answer's error.
 */
export async function changeVendorProductStatus(scope: VendorScope, request: Request): Promise<StatusActionResult> {
  const intent = "status" as const;
  const form = await formOf(request);
  if (form.get("intent") !== intent) return { ok: false, intent, error: "Unknown action" };
  const body = vendorsEndpoints.vendorsMeProductStatus.body.safeParse({
    status: form.get("status") ?? undefined,
  });
  const params = vendorsEndpoints.vendorsMeProductStatus.params.safeParse({
    id: form.get("id") ?? "",
  });
  if (!body.success) return { ok: false, intent, error: issuesMessage(body.error) };
  if (!params.success) return { ok: false, intent, error: issuesMessage(params.error) };
  const ctx = getAppContext();
  const r = await answerRefusals(async () => {
    const p = await setVendorProductStatus({ db: ctx.db, commerce: ctx.commerce }, scope.vendorId, params.data.id, body.data.status);
    return {
      ok: true as const,
      intent,
      message: `“${p.title}” is ${p.status} now.`,
    };
  });
  return r.ok ? r : { ...r, intent };
}

/** The vendor's stores. */
export async function loadVendorStores(scope: VendorScope) {
  return (await listVendorStores(getAppContext().db, scope.vendorId)).items;
}

const payoutDeps = () => {
  const ctx = getAppContext();
  return { db: ctx.db, timeZone: ctx.config.STORE_TIMEZONE };
};

/** The payouts of the last 12 months (`?from=YYYY-MM&to=YYYY-MM`, the page's range picker, for others), as the API reads them. */
export async function loadVendorPayouts(scope: VendorScope, request: Request) {
  const sp = new URL(request.url).searchParams;
  // What the range picker shows again (a refused range included, beside the API's message).
  const range = { from: (sp.get("from") ?? "").slice(0, 20), to: (sp.get("to") ?? "").slice(0, 20) };
  const parsed = vendorsEndpoints.vendorsMePayouts.query.safeParse({
    from: range.from || undefined,
    to: range.to || undefined,
  });
  if (!parsed.success) return { range, error: issuesMessage(parsed.error), payouts: null };
  try {
    return {
      range,
      error: null,
      payouts: await vendorPayouts(payoutDeps(), scope.vendorId, parsed.data),
    };
  } catch (e) {
    return { range, error: refusalOf(e).message, payouts: null };
  }
}

/** The payouts as the API's CSV (same columns and file name pattern), for the page's download. */
export async function vendorPayoutsCsvResponse(scope: VendorScope, request: Request): Promise<Response> {
  const sp = new URL(request.url).searchParams;
  const parsed = vendorsEndpoints.vendorsMePayouts.query.safeParse({
    from: sp.get("from") || undefined,
    to: sp.get("to") || undefined,
    format: "csv",
  });
  if (!parsed.success) throw staffError(400, issuesMessage(parsed.error));
  let payouts: Awaited<ReturnType<typeof vendorPayouts>>;
  try {
    payouts = await vendorPayouts(payoutDeps(), scope.vendorId, parsed.data);
  } catch (e) {
    const refusal = refusalOf(e);
    throw staffError(refusal.status, refusal.message);
  }
  return new Response(payoutsCsv(payouts), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="payouts-${payouts.from}-${payouts.to}.csv"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}

export type AdminVendorActionResult = { ok: true; message: string; intent: string } | { ok: false; error: string; intent: string };

/**
 * The admins' actions on a vendor (vendors.manage, checked by vendorScope): `commission`
 * `{ commission_rate }` and `mark-paid` `{ id, reference }`, through the zod bodies and services of
 * PATCH /vendors/{id} and POST /vendors/{id}/payouts/{payoutId}/mark-paid.
 */
export async function adminVendorAction(scope: VendorScope, request: Request): Promise<AdminVendorActionResult> {
  const form = await formOf(request);
  const intent = String(form.get("intent") ?? "");
  if (!scope.asAdmin) return { ok: false, intent, error: "This action is for admins" };
  const refused = (r: { ok: false; error: string }) => ({ ...r, intent });
  if (intent === "commission") {
    const body = vendorsEndpoints.vendorsUpdate.body.safeParse({
      commission_rate: String(form.get("commission_rate") ?? "").trim() || undefined,
    });
    if (!body.success) return refused(invalidInput(body.error) as { ok: false; error: string });
    const r = await answerRefusals(async () => {
      await setCommissionRate(payoutDeps(), scope.vendorId, body.data.commission_rate);
      return {
        ok: true as const,
        intent,
        message: `Commission rate set to ${body.data.commission_rate.toFixed(2)}%. Periods not yet closed use it.`,
      };
    });
    return r.ok ? r : refused(r);
  }
  if (intent === "mark-paid") {
    const body = vendorsEndpoints.vendorsPayoutMarkPaid.body.safeParse({
      reference: String(form.get("reference") ?? ""),
    });
    if (!body.success) return refused(invalidInput(body.error) as { ok: false; error: string });
    const r = await answerRefusals(async () => {
      const p = await markPayoutPaid(payoutDeps(), scope.vendorId, String(form.get("id") ?? ""), body.data.reference);
      return {
        ok: true as const,
        intent,
        message: `Payout of ${p.period} marked paid (reference ${p.reference ?? ""}).`,
      };
    });
    return r.ok ? r : refused(r);
  }
  return { ok: false, intent, error: "Unknown action" };
}

// ---- the routes' loaders and actions (the vendor's /app/vendor… and the admins' /app/vendors/:id…) ----

type RouteArgs = { request: Request; params: Params };

export async function vendorHomeLoader({ request, params }: RouteArgs) {
  const scope = await vendorScope(request, params);
  const [vendor, home] = await Promise.all([vendorHeader(scope), loadVendorHome(scope, request)]);
  return { scope, vendor, ...home };
}

export async function vendorProductsLoader({ request, params }: RouteArgs) {
  const scope = await vendorScope(request, params);
  const [vendor, products] = await Promise.all([vendorHeader(scope), loadVendorProducts(scope, request)]);
  return { scope, vendor, ...products };
}

export async function vendorProductsAction({ request, params }: RouteArgs) {
  return changeVendorProductStatus(await vendorScope(request, params), request);
}

export async function vendorStoresLoader({ request, params }: RouteArgs) {
  const scope = await vendorScope(request, params);
  const [vendor, stores] = await Promise.all([vendorHeader(scope), loadVendorStores(scope)]);
  return { scope, vendor, stores };
}

export async function vendorPayoutsLoader({ request, params }: RouteArgs) {
  const scope = await vendorScope(request, params);
  const [vendor, payouts] = await Promise.all([vendorHeader(scope), loadVendorPayouts(scope, request)]);
  return { scope, vendor, ...payouts };
}

export async function vendorAdminAction({ request, params }: RouteArgs) {
  return adminVendorAction(await vendorScope(request, params), request);
}
