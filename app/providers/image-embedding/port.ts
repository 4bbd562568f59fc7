/**
 * The image embedding port: a vector per image for visual search (products' featured images and
 * shoppers' photos are embedded by the same adapter, so their vectors compare), and the faces in
 * a photo. Adapters: `local` (CPU, offline: MobileNetV2 + colour and shape features, blazeface).
 * Logo detection needs a hosted image-AI provider; the local adapter says so in its answers.
 */
export interface ImageEmbedding {
  vector: number[];
  model: string;
  dimensions: number;
  /** The foreground the features were taken from (pixels of the oriented image). */
  foreground: { share: number; separated: boolean; box: { x: number; y: number; width: number; height: number } };
  timings: { prepareMs: number; modelMs: number };
}

export interface FaceBox {
  x: number;
  y: number;
  width: number;
  height: number;
  score: number;
}

export interface LogoBox {
  name: string;
  x: number;
  y: number;
  width: number;
  height: number;
  score: number;
}

export type LogoDetection = { supported: true; provider: string } | { supported: false; provider: string; reason: string };

export interface ImageEmbeddingPort {
  readonly provider: "local";
  /** Model id stored with every vector (ProductEmbedding.model); vectors of other ids do not compare. */
  readonly model: string;
  readonly dimensions: number;
  /** The image as bytes (JPEG, PNG, WebP…); throws when it cannot be decoded. */
  embed(image: Uint8Array): Promise<ImageEmbedding>;
  detectFaces(image: Uint8Array): Promise<{ faces: FaceBox[]; width: number; height: number; model: string }>;
  readonly logoDetection: LogoDetection;
  detectLogos(image: Uint8Array): Promise<LogoBox[]>;
  /** Loads the models now (otherwise on first use); answers the load time. */
  warmup(): Promise<{ ms: number }>;
}
