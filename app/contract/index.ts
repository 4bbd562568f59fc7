/**
 * Every endpoint of the API, by a stable name. Each area declares its own `*Endpoints` object in
 * its file and is listed once in `areas` below; names and method+path pairs must be unique
 * across areas (checked at load, and by tests/unit/contract.test.ts).
 */
import type { EndpointDef } from "./endpoint";
import { usersEndpoints } from "./users";
import { productsEndpoints } from "./products";
import { companionEndpoints } from "./companion";
import { systemEndpoints } from "./system";
import { stylesEndpoints } from "./styles";
import { dropsEndpoints } from "./drops";
import { internalMediaEndpoints } from "./internal-media";
import { storesEndpoints } from "./stores";
import { collectionsEndpoints } from "./collections";
import { catalogSyncEndpoints } from "./catalog-sync";
import { recommendationsEndpoints } from "./recommendations";
import { searchEndpoints } from "./search";
import { visionEndpoints } from "./vision";
import { reviewsEndpoints } from "./reviews";
import { apiKeysEndpoints } from "./api-keys";
import { savedEndpoints } from "./saved";
import { userCollectionsEndpoints } from "./user-collections";
import { accountOrdersEndpoints } from "./account-orders";
import { adminOrdersEndpoints } from "./admin-orders";
import { adminOrdersBulkEndpoints } from "./admin-orders-bulk";
import { adminReturnsEndpoints } from "./admin-returns";
import { notificationsEndpoints } from "./notifications";
import { assistantEndpoints } from "./assistant";
import { proposedVariantImagesEndpoints } from "./proposed-variant-images";
import { proposedImageEditsEndpoints } from "./proposed-image-edits";
import { taobaoImportEndpoints } from "./taobao-import";
import { tryonsEndpoints } from "./tryons";
import { imageModelsEndpoints } from "./image-models";
import { clonesEndpoints } from "./clones";
import { outfitGenerationsEndpoints } from "./outfit-generations";
import { privacyEndpoints } from "./privacy";
import { staffInvitationsEndpoints } from "./staff-invitations";
import { cartEndpoints } from "./cart";
import { checkoutEndpoints } from "./checkout";
import { orderAnalyticsEndpoints } from "./order-analytics";
import { vendorAnalyticsEndpoints } from "./vendor-analytics";
import { vendorsEndpoints } from "./vendors";
import { productAdsEndpoints } from "./product-ads";
import { productAdCreativesEndpoints } from "./product-ad-creatives";
import { productAdRequestsEndpoints } from "./product-ad-requests";
import { productAdMetricsEndpoints } from "./product-ad-metrics";
import { knowledgeEndpoints } from "./knowledge";
import { materialsEndpoints } from "./materials";
import { productRequestsEndpoints } from "./product-requests";
import { outfitsEndpoints } from "./outfits";
import { productSocialsContentEndpoints } from "./product-socials-content";
import { uploadedImagesEndpoints } from "./uploaded-images";

const areas = {
  imageModels: imageModelsEndpoints,
  taobaoImport: taobaoImportEndpoints,
  stores: storesEndpoints,
  collections: collectionsEndpoints,
  styles: stylesEndpoints,
  drops: dropsEndpoints,
  internalMedia: internalMediaEndpoints,
  system: systemEndpoints,
  users: usersEndpoints,
  products: productsEndpoints,
  companion: companionEndpoints,
  catalogSync: catalogSyncEndpoints,
  recommendations: recommendationsEndpoints,
  search: searchEndpoints,
  vision: visionEndpoints,
  reviews: reviewsEndpoints,
  apiKeys: apiKeysEndpoints,
  saved: savedEndpoints,
  userCollections: userCollectionsEndpoints,
  accountOrders: accountOrdersEndpoints,
  adminOrders: adminOrdersEndpoints,
  adminOrdersBulk: adminOrdersBulkEndpoints,
  adminReturns: adminReturnsEndpoints,
  notifications: notificationsEndpoints,
  assistant: assistantEndpoints,
  proposedVariantImages: proposedVariantImagesEndpoints,
  proposedImageEdits: proposedImageEditsEndpoints,
  tryons: tryonsEndpoints,
  clones: clonesEndpoints,
  outfitGenerations: outfitGenerationsEndpoints,
  privacy: privacyEndpoints,
  staffInvitations: staffInvitationsEndpoints,
  cart: cartEndpoints,
  checkout: checkoutEndpoints,
  orderAnalytics: orderAnalyticsEndpoints,
  vendorAnalytics: vendorAnalyticsEndpoints,
  vendors: vendorsEndpoints,
  productAds: productAdsEndpoints,
  productAdCreatives: productAdCreativesEndpoints,
  productAdRequests: productAdRequestsEndpoints,
  productAdMetrics: productAdMetricsEndpoints,
  knowledge: knowledgeEndpoints,
  materials: materialsEndpoints,
  productRequests: productRequestsEndpoints,
  outfits: outfitsEndpoints,
  productSocialsContent: productSocialsContentEndpoints,
  uploadedImages: uploadedImagesEndpoints,
};

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
type Merged = UnionToIntersection<(typeof areas)[keyof typeof areas]>;

export function mergeAreas(list: Record<string, Record<string, EndpointDef>>): Record<string, EndpointDef> {
  const out: Record<string, EndpointDef> = {};
  const routes = new Map<string, string>();
  for (const [area, defs] of Object.entries(list)) {
    for (const [name, def] of Object.entries(defs)) {
      if (out[name]) throw new Error(`Endpoint name "${name}" of area "${area}" is already used`);
      const key = `${def.method} ${def.path.replace(/\{\w+\}/g, "{}")}`;
      const other = routes.get(key);
      if (other) throw new Error(`${key} is declared twice: "${other}" and "${name}"`);
      routes.set(key, name);
      out[name] = def;
    }
  }
  return out;
}

export const endpoints = mergeAreas(areas) as Merged;
export const endpointAreas = areas;

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;

export * from "./endpoint";
export * from "./messages";
export * from "./permissions";
export * from "./common";
export * from "./users";
export * from "./products";
export * from "./companion";
export * from "./styles";
export * from "./drops";
export * from "./internal-media";
export * from "./stores";
export * from "./collections";
export * from "./catalog-sync";
export * from "./recommendations";
export * from "./search";
export * from "./vision";
export * from "./reviews";
export * from "./api-keys";
export * from "./saved";
export * from "./user-collections";
export * from "./account-orders";
export * from "./admin-orders";
export * from "./admin-orders-bulk";
export * from "./admin-returns";
export * from "./notifications";
export * from "./assistant";
export * from "./proposed-variant-images";
export * from "./proposed-image-edits";
export * from "./taobao-import";
export * from "./tryons";
export * from "./image-models";
export * from "./clones";
export * from "./outfit-generations";
export * from "./vendor-analytics";
export * from "./vendors";
export * from "./product-ads";
export * from "./product-ad-creatives";
export * from "./product-ad-requests";
export * from "./product-ad-metrics";
export * from "./knowledge";
export * from "./product-socials-content";
export * from "./uploaded-images";
