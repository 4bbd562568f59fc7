/**
 * The image embedding adapter. Only `local` exists: visual search runs on the app's CPU in every
 * mode (hosted image AI — IMAGE_AI_ADAPTER=fal — covers generation and edits, not embeddings).
 */
import { createLocalImageEmbedding } from "./local.server";
import type { ImageEmbeddingPort } from "./port";

export type { ImageEmbeddingPort, ImageEmbedding, FaceBox, LogoBox, LogoDetection } from "./port";

let shared: ImageEmbeddingPort | null = null;

/** One adapter per process: its models are loaded once and shared by every context. */
export function createImageEmbedding(): ImageEmbeddingPort {
  shared ??= createLocalImageEmbedding();
  return shared;
}
