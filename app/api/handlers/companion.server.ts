import type { companionEndpoints } from "~/contract/companion";
import { Messages } from "~/contract/messages";
import {
  analyzeImageUrl,
  applyMaterialSections,
  createCompanion,
  deleteOptionValue,
  getCompanion,
  getCompanionByHandle,
  getCompanionByTaobaoId,
  getCompanionForVendor,
  getCompanionsForVendor,
  getPublicCompanion,
  isTaobaoItemImported,
  reanalyzeMaterials,
  renameOptionValue,
  scheduleProductPublish,
  scheduleProductsPublish,
  publishProductNow,
  setPresaleVariants,
  syncCompanionInventory,
  updateCompanion,
  updateCompanionStatus,
  updateVariantMedia,
  verifyCompanion,
  COMPANION_NOT_FOUND,
} from "~/services/companion.server";
import { similarProducts } from "~/services/similar-products.server";
import { enqueueBackInStockCheck } from "~/services/notification-requests.server";
import { syncProductVectors } from "~/services/product-index.server";
import { findCompanion } from "~/services/companion.server";
import { badRequest, notFound } from "../errors.server";
import type { HandlersFor } from "../router.server";

export const companionHandlers: HandlersFor<typeof companionEndpoints> = {
  companionCreate: async ({ ctx, input }) => createCompanion(ctx.db, input.body),
  companionMissingPublicId: async () => {
    throw badRequest(Messages.NO_PRODUCT_ID);
  },
  companionAnalyzeImageUrl: async ({ ctx, input }) => analyzeImageUrl(ctx, input.body),
  companionGet: async ({ ctx, input }) => getCompanion(ctx.db, input.params.id),
  companionGetPublic: async ({ ctx, input, headers }) => {
    headers.set("cache-control", "public, max-age=30");
    return getPublicCompanion(ctx.db, input.params.id);
  },
  companionGetForVendor: async ({ ctx, input, auth }) => getCompanionForVendor(ctx.db, input.params.id, auth.user!),
  companionGetByHandle: async ({ ctx, input, headers }) => {
    headers.set("cache-control", "public, max-age=30");
    return getCompanionByHandle(ctx.db, input.params.handle);
  },
  companionGetByTaobaoId: async ({ ctx, input }) => getCompanionByTaobaoId(ctx.db, input.params.id),
  companionVendorBulk: async ({ ctx, input, auth }) => getCompanionsForVendor(ctx.db, input.body.ids, auth.user!),
  companionVerify: async ({ ctx, input }) => verifyCompanion(ctx, input.params.id),
  companionCheckImported: async ({ ctx, input }) => isTaobaoItemImported(ctx.db, input.params.id),
  companionUpdate: async ({ ctx, input }) => updateCompanion(ctx.db, input.params.id, input.body),
  companionUpdateStatus: async ({ ctx, input, log, auth }) => {
    const r = await updateCompanionStatus(ctx, input.params.id, input.body);
    log.info({ companionId: r.id, status: r.status, by: auth.user?.id }, "companion status changed");
    return r;
  },
  companionUpdateOptionValue: async ({ ctx, input }) => renameOptionValue(ctx, input.params.id, input.body),
  companionDeleteOptionValue: async ({ ctx, input }) => deleteOptionValue(ctx, input.params.id, input.body),
  companionScheduledPublish: async ({ ctx, input }) =>
    scheduleProductPublish(ctx, input.params.id, input.body.scheduled_publish_date ? new Date(input.body.scheduled_publish_date) : null),
  companionPublishNow: async ({ ctx, input }) => publishProductNow(ctx, input.params.id),
  companionScheduledPublishBulk: async ({ ctx, input }) => scheduleProductsPublish(ctx, input.body.items),
  companionPresaleVariants: async ({ ctx, input }) => setPresaleVariants(ctx.db, input.params.id, input.body.variant_ids),
  companionSyncInventory: async ({ ctx, input, log }) => {
    const r = await syncCompanionInventory(ctx, input.params.id);
    if (r.availableForSale) await enqueueBackInStockCheck({ db: ctx.db, queue: ctx.queue, log }, [r.productId], "companion.sync-inventory");
    return r;
  },
  companionSimilar: async ({ ctx, input, headers }) => {
    headers.set("cache-control", "public, max-age=60");
    return similarProducts(ctx.db, input.params.id, input.query, ctx.vectors);
  },
  companionSyncVector: async ({ ctx, input }) => {
    const c = await findCompanion(ctx.db, input.params.id);
    if (!c) throw notFound(COMPANION_NOT_FOUND);
    const r = await syncProductVectors(ctx, c.shopify_product_id);
    if (!r) throw notFound(COMPANION_NOT_FOUND);
    return r;
  },
  companionReanalyzeMaterials: async ({ ctx, input }) => reanalyzeMaterials(ctx.db, input.params.id),
  companionApplyMaterialSections: async ({ ctx, input }) => applyMaterialSections(ctx, input.params.id, input.body.material_sections),
  companionVariantMediaUpdate: async ({ ctx, input }) => updateVariantMedia(ctx, input.params.id, input.body.pairs),
};
