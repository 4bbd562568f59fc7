/**
 * The application's dependencies, built once from validated configuration. Routes hand it to
 * services; tests build their own with a fresh database.
 */
import type { AppConfig } from "~/config.server";
import type { Db } from "~/db.server";
import type { Logger } from "~/lib/logger.server";
import { createRateLimiter, type RateLimiter } from "~/api/rate-limit.server";
import { createStorage, type StoragePort } from "~/providers/storage.server";
import { createPrivateStorage, type PrivateStoragePort } from "~/providers/private-storage.server";
import { createJobQueue, type JobQueue } from "~/jobs/queue.server";
import { createEmail, type EmailPort } from "~/providers/email.server";
import { createCommerce } from "~/providers/commerce/index.server";
import type { CommercePort } from "~/providers/commerce/port";
import { createVectorIndex } from "~/providers/vector-index/index.server";
import type { VectorIndex } from "~/providers/vector-index/port";
import { createImageEmbedding } from "~/providers/image-embedding/index.server";
import type { ImageEmbeddingPort } from "~/providers/image-embedding/port";
import { withProductIndexing } from "~/services/product-index.server";
import { withImagePrewarm } from "~/services/image-prewarm.server";
import { createLanguageModel } from "~/providers/language-model/index.server";
import { getSearchVocabulary } from "~/services/search/vocabulary.server";
import type { LanguageModelPort } from "~/providers/language-model/port";
import { withNotificationTriggers } from "~/services/notification-requests.server";
import { createTaobaoSource } from "~/providers/taobao/index.server";
import type { TaobaoSourcePort } from "~/providers/taobao/port";
import { createImageAi, type ImageAiRouter } from "~/providers/image-ai/index.server";
import type { StorefrontCartApi } from "~/storefront-api/cart-client";
import { storefrontCartFor } from "~/storefront-api/reader.server";
import { useStatsTimeZone } from "~/services/vendor-stats/daily-stats.server";
import { createAdsPlatform } from "~/providers/ads-platform/index.server";
import type { AdsPlatformPort } from "~/providers/ads-platform/port";

export interface AppContext {
  config: AppConfig;
  db: Db;
  log: Logger;
  authRateLimiter: RateLimiter;
  /** Sign-in attempts per account (normalised email), whatever address they come from. */
  loginAccountRateLimiter: RateLimiter;
  /** Image work on request (search by photo, face detection): per user, or per address for anonymous callers. */
  imageRateLimiter: RateLimiter;
  /** Language-model work (assistant messages, NLU queries, personalised collections): per user, or per address. */
  languageRateLimiter: RateLimiter;
  storage: StoragePort;
  /** Files with no public URL (customers' data exports), served only through authorised endpoints. */
  privateStorage: PrivateStoragePort;
  queue: JobQueue;
  email: EmailPort;
  commerce: CommercePort;
  /** Nearest-neighbour search over product vectors (VECTOR_INDEX). */
  vectors: VectorIndex;
  /** Image vectors (visual search) and face boxes; models load on first use. */
  imageEmbedding: ImageEmbeddingPort;
  /** Intents, slots and replies of the shopping assistant, collection copy (LANGUAGE_MODEL). */
  languageModel: LanguageModelPort;
  /** Where Taobao imports read items and images (TAOBAO_ADAPTER: the demo catalogue, or the HTTP item API). */
  taobao: TaobaoSourcePort;
  /** Image-AI provider per operation (IMAGE_AI_ADAPTER, IMAGE_AI_ROUTES); models load on first use. */
  imageAi: ImageAiRouter;
  /** Shoppers' carts (issue 15): Shopify's Storefront API, or the local endpoint's carts in-process. */
  storefrontCart: StorefrontCartApi;
  /** Where LIVE product ads run and their delivery is read back (ADS_PLATFORM: simulated, or Meta). */
  adsPlatform: AdsPlatformPort;
}

export function createAppContext(deps: { config: AppConfig; db: Db; log: Logger; authRateLimit?: { points: number; durationSeconds: number }; imageRateLimit?: { points: number; durationSeconds: number }; languageRateLimit?: { points: number; durationSeconds: number }; loginAccountRateLimit?: { points: number; durationSeconds: number } }): AppContext {
  const queue = createJobQueue(deps.db, { leaseMs: deps.config.JOB_LEASE_MS });
  const storage = createStorage(deps.config);
  // Event writers deep in the services date their daily-stats rows in the store's zone; read
  // through the config object, so a zone changed while the app runs applies to the next event.
  useStatsTimeZone(() => deps.config.STORE_TIMEZONE);
  return {
    config: deps.config,
    db: deps.db,
    log: deps.log,
    authRateLimiter: createRateLimiter(deps.authRateLimit ?? { points: 30, durationSeconds: 60 }),
    // Failed attempts only (a success gives its point back): ten per quarter hour and account.
    loginAccountRateLimiter: createRateLimiter(deps.loginAccountRateLimit ?? { points: 10, durationSeconds: 900 }),
    imageRateLimiter: createRateLimiter(deps.imageRateLimit ?? { points: 30, durationSeconds: 60 }),
    languageRateLimiter: createRateLimiter(deps.languageRateLimit ?? { points: 20, durationSeconds: 60 }),
    storage,
    privateStorage: createPrivateStorage(deps.config),
    queue,
    email: createEmail(deps.config),
    // Product writes through the port enqueue `products.index` (vectors for search by photo).
    // Inventory going up through the port (setInventory, a restocking cancelOrder) enqueues the back-in-stock check.
    // Images a product write adds enqueue `images.prewarm` (their sizes made before a shopper asks).
    commerce: withNotificationTriggers(withImagePrewarm(withProductIndexing(createCommerce(deps.config, deps.db, deps.log), { queue, log: deps.log }), { queue, log: deps.log }), {
      db: deps.db,
      queue,
      log: deps.log,
    }),
    vectors: createVectorIndex(deps.config, deps.db, deps.log),
    imageEmbedding: createImageEmbedding(),
    // The model reads the catalogue vocabulary from the search engine's cache, handed in here so the provider imports no service.
    languageModel: createLanguageModel(deps.config, async () => (await getSearchVocabulary(deps.db)).parseContext, deps.log),
    taobao: createTaobaoSource(deps.config, deps.log),
    imageAi: createImageAi(deps.config, { storage, log: deps.log, dataDir: deps.config.DATA_DIR }),
    storefrontCart: storefrontCartFor({ config: deps.config, db: deps.db, log: deps.log }),
    adsPlatform: createAdsPlatform(deps.config, deps.log),
  };
}

declare global {
  // eslint-disable-next-line no-var
  var appContextGlobal: AppContext | undefined;
}

export function setAppContext(ctx: AppContext) {
  global.appContextGlobal = ctx;
}

export function getAppContext(): AppContext {
  if (!global.appContextGlobal) throw new Error("The app context is not initialised: start the app through server.ts");
  return global.appContextGlobal;
}
