/**
 * The application's dependencies, built once from validated configuration. Routes hand it to
 * services; tests build their own with a fresh database.
 */
import type { AppConfig } from "~/config.server";
import type { Db } from "~/db.server";
import type { Logger } from "~/lib/logger.server";
import { createRateLimiter, type RateLimiter } from "~/api/rate-limit.server";
import { createStorage, type StoragePort } from "~/providers/storage.server";
import { createJobQueue, type JobQueue } from "~/jobs/queue.server";
import { createEmail, type EmailPort } from "~/providers/email.server";
import { createCommerce } from "~/providers/commerce/index.server";
import type { CommercePort } from "~/providers/commerce/port";
import { createVectorIndex } from "~/providers/vector-index/index.server";
import type { VectorIndex } from "~/providers/vector-index/port";
import { createImageEmbedding } from "~/providers/image-embedding/index.server";
import type { ImageEmbeddingPort } from "~/providers/image-embedding/port";
import { withProductIndexing } from "~/services/product-index.server";

export interface AppContext {
  config: AppConfig;
  db: Db;
  log: Logger;
  authRateLimiter: RateLimiter;
  storage: StoragePort;
  queue: JobQueue;
  email: EmailPort;
  commerce: CommercePort;
  /** Nearest-neighbour search over product vectors (VECTOR_INDEX). */
  vectors: VectorIndex;
  /** Image vectors (visual search) and face boxes; models load on first use. */
  imageEmbedding: ImageEmbeddingPort;
}

export function createAppContext(deps: { config: AppConfig; db: Db; log: Logger; authRateLimit?: { points: number; durationSeconds: number } }): AppContext {
  const queue = createJobQueue(deps.db);
  return {
    config: deps.config,
    db: deps.db,
    log: deps.log,
    authRateLimiter: createRateLimiter(deps.authRateLimit ?? { points: 30, durationSeconds: 60 }),
    storage: createStorage(deps.config),
    queue,
    email: createEmail(deps.config),
    // Product writes through the port enqueue `products.index` (vectors for search by photo).
    commerce: withProductIndexing(createCommerce(deps.config, deps.db, deps.log), { queue, log: deps.log }),
    vectors: createVectorIndex(deps.config, deps.db, deps.log),
    imageEmbedding: createImageEmbedding(),
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
