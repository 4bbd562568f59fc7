/**
 * The API: every endpoint of the contract with its handler. `AllHandlers` makes a missing
 * handler a compile error.
 */
import { createApiHandler, type AllHandlers } from "./router.server";
import { accountOrdersHandlers } from "./handlers/account-orders.server";
import { adminOrdersHandlers } from "./handlers/admin-orders.server";
import { adminOrdersBulkHandlers } from "./handlers/admin-orders-bulk.server";
import { adminReturnsHandlers } from "./handlers/admin-returns.server";
import { notificationsHandlers } from "./handlers/notifications.server";
import { systemHandlers } from "./handlers/system.server";
import { usersHandlers } from "./handlers/users.server";
import { productsHandlers } from "./handlers/products.server";
import { companionHandlers } from "./handlers/companion.server";
import { stylesHandlers } from "./handlers/styles.server";
import { dropsHandlers } from "./handlers/drops.server";
import { internalMediaHandlers } from "./handlers/internal-media.server";
import { storesHandlers } from "./handlers/stores.server";
import { collectionsHandlers } from "./handlers/collections.server";
import { catalogSyncHandlers } from "./handlers/catalog-sync.server";
import { recommendationsHandlers } from "./handlers/recommendations.server";
import { searchHandlers } from "./handlers/search.server";
import { visionHandlers } from "./handlers/vision.server";
import { reviewsHandlers } from "./handlers/reviews.server";
import { apiKeysHandlers } from "./handlers/api-keys.server";
import { savedHandlers } from "./handlers/saved.server";
import { userCollectionsHandlers } from "./handlers/user-collections.server";
import { assistantHandlers } from "./handlers/assistant.server";
import { proposedVariantImagesHandlers } from "./handlers/proposed-variant-images.server";
import { proposedImageEditsHandlers } from "./handlers/proposed-image-edits.server";
import { taobaoImportHandlers } from "./handlers/taobao-import.server";
import { imageModelsHandlers } from "./handlers/image-models.server";
import { clonesHandlers } from "./handlers/clones.server";
import { outfitGenerationsHandlers } from "./handlers/outfit-generations.server";
import { tryonsHandlers } from "./handlers/tryons.server";
import { privacyHandlers } from "./handlers/privacy.server";
import { staffInvitationsHandlers } from "./handlers/staff-invitations.server";
import { cartHandlers } from "./handlers/cart.server";
import { checkoutHandlers } from "./handlers/checkout.server";
import { orderAnalyticsHandlers } from "./handlers/order-analytics.server";
import { vendorAnalyticsHandlers } from "./handlers/vendor-analytics.server";
import { vendorsHandlers } from "./handlers/vendors.server";
import { productAdsHandlers } from "./handlers/product-ads.server";
import { productAdCreativesHandlers } from "./handlers/product-ad-creatives.server";
import { productAdRequestsHandlers } from "./handlers/product-ad-requests.server";
import { productAdMetricsHandlers } from "./handlers/product-ad-metrics.server";
import { knowledgeHandlers } from "./handlers/knowledge.server";
import { materialsHandlers } from "./handlers/materials.server";
import { productRequestsHandlers } from "./handlers/product-requests.server";
import { outfitsHandlers } from "./handlers/outfits.server";
import { productSocialsContentHandlers } from "./handlers/product-socials-content.server";
import { uploadedImagesHandlers } from "./handlers/uploaded-images.server";

export const handlers: AllHandlers = {
  ...imageModelsHandlers,
  ...clonesHandlers,
  ...outfitGenerationsHandlers,
  ...tryonsHandlers,
  ...taobaoImportHandlers,
  ...accountOrdersHandlers,
  ...adminOrdersHandlers,
  ...adminOrdersBulkHandlers,
  ...adminReturnsHandlers,
  ...notificationsHandlers,
  ...storesHandlers,
  ...collectionsHandlers,
  ...stylesHandlers,
  ...dropsHandlers,
  ...internalMediaHandlers,
  ...systemHandlers,
  ...usersHandlers,
  ...productsHandlers,
  ...companionHandlers,
  ...catalogSyncHandlers,
  ...recommendationsHandlers,
  ...searchHandlers,
  ...visionHandlers,
  ...reviewsHandlers,
  ...apiKeysHandlers,
  ...savedHandlers,
  ...userCollectionsHandlers,
  ...assistantHandlers,
  ...proposedVariantImagesHandlers,
  ...proposedImageEditsHandlers,
  ...privacyHandlers,
  ...staffInvitationsHandlers,
  ...cartHandlers,
  ...checkoutHandlers,
  ...orderAnalyticsHandlers,
  ...vendorAnalyticsHandlers,
  ...vendorsHandlers,
  ...productAdsHandlers,
  ...productAdCreativesHandlers,
  ...productAdRequestsHandlers,
  ...productAdMetricsHandlers,
  ...knowledgeHandlers,
  ...materialsHandlers,
  ...productRequestsHandlers,
  ...outfitsHandlers,
  ...productSocialsContentHandlers,
  ...uploadedImagesHandlers,
};

export const handleApiRequest = createApiHandler(handlers);
