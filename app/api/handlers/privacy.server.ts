import type { privacyEndpoints } from "~/contract/privacy";
import { listDataRequests, readDataRequestExport } from "~/services/privacy-exports.server";
import type { AppContext } from "~/context.server";
import type { HandlersFor } from "../router.server";

const deps = (ctx: AppContext) => ({ db: ctx.db, privateStorage: ctx.privateStorage, queue: ctx.queue, log: ctx.log });

export const privacyHandlers: HandlersFor<typeof privacyEndpoints> = {
  privacyDataRequestsList: async ({ ctx, input, headers }) => {
    headers.set("cache-control", "no-store");
    return { items: await listDataRequests(deps(ctx), input.query) };
  },
  privacyDataRequestDownload: async ({ ctx, input, auth, log, headers }) => {
    const { bytes, filename } = await readDataRequestExport(deps(ctx), input.params.id);
    log.info({ dataRequestId: input.params.id, adminId: auth.user?.id }, "customer data export downloaded");
    const out = new Headers(headers);
    out.set("content-type", "application/json; charset=utf-8");
    out.set("content-disposition", `attachment; filename="${filename}"`);
    out.set("cache-control", "no-store");
    out.set("x-content-type-options", "nosniff");
    return new Response(Buffer.from(bytes), { status: 200, headers: out });
  },
};
