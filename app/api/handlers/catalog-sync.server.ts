import type { catalogSyncEndpoints } from "~/contract/catalog-sync";
import { getCatalogSyncJob, startCatalogSync } from "~/services/catalog-sync.server";
import type { HandlersFor } from "../router.server";

export const catalogSyncHandlers: HandlersFor<typeof catalogSyncEndpoints> = {
  catalogSyncStore: async ({ ctx, input }) => startCatalogSync(ctx, input.params.id),
  catalogSyncJob: async ({ ctx, input }) => getCatalogSyncJob(ctx.db, input.params.id),
};
