/**
 * Which image-AI provider serves each operation: IMAGE_AI_ADAPTER (local | fal, default local)
 * with per-operation overrides from IMAGE_AI_ROUTES ("vton-flux=fal,flux-profile-image=local").
 *
 * Both adapters load lazily: the local provider's models (and fal's client) are imported on the
 * first call that needs them, so a process that never runs an image job never loads them. The
 * local provider's `supports` answers from LOCAL_OPERATIONS until the module is loaded.
 */
import path from "node:path";
import type { AppConfig } from "~/config.server";
import type { Logger } from "~/lib/logger.server";
import type { StoragePort } from "~/providers/storage.server";
import { readImageUrl } from "~/lib/image-source.server";
import { IMAGE_AI_OPERATIONS, LOCAL_OPERATIONS, type ImageAiOperation, type ImageAiProvider, type ImageAiProviderName } from "./port";

export interface ImageAiRouter {
  /** The provider configured for an operation (it may still not support it: check `supports`). */
  providerFor(op: ImageAiOperation): ImageAiProvider;
  /** The providers some operation is routed to. */
  providers: Partial<Record<ImageAiProviderName, ImageAiProvider>>;
}

export interface ImageAiDeps {
  storage: StoragePort;
  log: Logger;
  /** DATA_DIR: the local provider caches models and analyses under DATA_DIR/image-ai. */
  dataDir: string;
}

/** Resolves each operation to a provider name from the configuration. */
export function imageAiRoutes(config: Pick<AppConfig, "IMAGE_AI_ADAPTER" | "IMAGE_AI_ROUTES">): Record<ImageAiOperation, ImageAiProviderName> {
  const routes = {} as Record<ImageAiOperation, ImageAiProviderName>;
  for (const op of IMAGE_AI_OPERATIONS) routes[op] = config.IMAGE_AI_ROUTES?.[op] ?? (config.IMAGE_AI_ADAPTER as ImageAiProviderName);
  return routes;
}

/** A provider whose module is imported on first use. */
function lazyProvider(name: ImageAiProviderName, supportsBeforeLoad: (op: ImageAiOperation) => boolean, load: () => Promise<ImageAiProvider>): ImageAiProvider {
  let loading: Promise<ImageAiProvider> | null = null;
  let loaded: ImageAiProvider | null = null;
  const get = () => {
    loading ??= load().then(
      (p) => (loaded = p),
      (e: unknown) => {
        loading = null; // a failed import (missing native module) is retried next time
        throw e;
      },
    );
    return loading;
  };
  return {
    name,
    supports: (op) => (loaded ? loaded.supports(op) : supportsBeforeLoad(op)),
    submit: async (op, input, opts) => (await get()).submit(op, input, opts),
    status: async (op, id) => (await get()).status(op, id),
    cancel: async (op, id) => (await get()).cancel(op, id),
    health: async () => (await get()).health(),
  };
}

export function createImageAi(config: AppConfig, deps: ImageAiDeps): ImageAiRouter {
  const routes = imageAiRoutes(config);
  const used = new Set(Object.values(routes));
  const providers: Partial<Record<ImageAiProviderName, ImageAiProvider>> = {};
  const log = deps.log.child({ port: "image-ai" });

  if (used.has("local")) {
    providers.local = lazyProvider(
      "local",
      (op) => LOCAL_OPERATIONS.has(op),
      async () => {
        const { createLocalImageAi } = await import("./local/index.server");
        return createLocalImageAi({
          storage: deps.storage,
          cacheDir: path.join(deps.dataDir, "image-ai"),
          log: log.child({ provider: "local" }),
          readImage: (ref: string) => readImageUrl({ config, storage: deps.storage }, ref),
        });
      },
    );
  }
  if (used.has("fal")) {
    const credentials = config.FAL_KEY;
    if (!credentials) throw new Error("FAL_KEY is required when an image-AI operation is routed to fal");
    const appUrl = config.APP_URL ?? config.SHOPIFY_APP_URL;
    providers.fal = lazyProvider(
      "fal",
      () => true,
      async () => {
        const { createFalImageAi } = await import("./fal.server");
        return createFalImageAi({
          credentials,
          baseUrl: config.FAL_BASE_URL,
          storage: deps.storage,
          log: log.child({ provider: "fal" }),
          // fal fetches our images: /uploads/… must be absolute (APP_URL, or the storage's public URL).
          publicUrl: (ref: string) => {
            if (!ref.startsWith("/")) return ref;
            if (appUrl) return new URL(ref, appUrl).href;
            const key = ref.replace(/^\/uploads\//, "");
            return deps.storage.publicUrl(key);
          },
        });
      },
    );
  }

  return {
    providers,
    providerFor(op) {
      const p = providers[routes[op]];
      if (!p) throw new Error(`No image-AI provider for ${op}`);
      return p;
    },
  };
}
