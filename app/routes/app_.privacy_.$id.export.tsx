/**
 * Download of one customer's data export for the Privacy requests page: privacy.manage admins
 * only, never cached. A resource route (no page): the file comes from private storage.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { getAppContext } from "~/context.server";
import { toApiError } from "~/api/router.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { staffError } from "~/lib/staff-errors";
import { readDataRequestExport } from "~/services/privacy-exports.server";

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { user } = await requireAdmin(request, "privacy.manage");
  const ctx = getAppContext();
  try {
    const { bytes, filename } = await readDataRequestExport({ db: ctx.db, privateStorage: ctx.privateStorage, queue: ctx.queue, log: ctx.log }, params.id ?? "");
    ctx.log.info({ dataRequestId: params.id, adminId: user.id }, "customer data export downloaded");
    return new Response(Buffer.from(bytes), {
      headers: {
        "content-type": "application/json; charset=utf-8",
        "content-disposition": `attachment; filename="${filename}"`,
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
      },
    });
  } catch (e) {
    const err = toApiError(e);
    if (err.status >= 500) throw e;
    throw staffError(err.status, err.message);
  }
};
