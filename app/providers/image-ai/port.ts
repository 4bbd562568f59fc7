/**
 * Image-AI port: every model call behind the spec's /fal/* endpoints (SPEC §7), one zod input per
 * operation. Two adapters implement it: fal.ai's queue API (production) and a local CPU provider
 * on the models of STACK.md (the embedded default). Which adapter serves an operation is
 * configuration (IMAGE_AI_ADAPTER, IMAGE_AI_ROUTES), so try-on can run on fal while profile
 * images stay local.
 *
 * Image inputs are URLs: absolute (https://…) or our own storage paths (/uploads/images/…).
 * Outputs name images by URL too; the request service copies images that are not already ours
 * into storage under images/ (SPEC §5) before anything else sees them.
 *
 * `add-product-generated-image` is a /fal/* endpoint but not a model call (it attaches an image to
 * a product through the commerce port), so it is not an operation of this port.
 */
import { z } from "zod";

export const IMAGE_AI_OPERATIONS = [
  "train-flux",
  "train-flux-admin",
  "train-flux-product",
  "generate-flux-lora",
  "generate-flux-lora-clone",
  "generate-flux-lora-raw",
  "generate-flux-lora-clone-raw",
  "generate-custom-flux-lora-raw",
  "flux-change-model",
  "flux-profile-image",
  "remove-object",
  "generate-flux-product-shot",
  "edit-flux-product-shot",
  "vton-flux",
  "flux-lora-fill",
  "chrono-edit",
  "reve-edit",
  "seedream-v4-edit",
  "gemini-image-edit",
] as const;
export type ImageAiOperation = (typeof IMAGE_AI_OPERATIONS)[number];
export const ImageAiOperationSchema = z.enum(IMAGE_AI_OPERATIONS);

/** An image reference: https URL or one of our storage paths (/uploads/…). */
export const ImageRef = z
  .string()
  .min(1)
  .max(2048)
  .refine((v) => /^https?:\/\//.test(v) || v.startsWith("/uploads/"), "must be an http(s) URL or a /uploads/ path");

const Prompt = z.string().trim().min(1).max(2000);
const Seed = z.number().int().min(0).max(2 ** 31 - 1).optional();
export const ImageSize = z.enum(["square_hd", "square", "portrait_4_3", "portrait_16_9", "landscape_4_3", "landscape_16_9"]);
const NumImages = z.number().int().min(1).max(4).default(1);
const TriggerWord = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_]{2,32}$/, "letters, digits and underscores, 2 to 32 characters");
/** A rectangle in pixels of the source image. */
export const Box = z.object({ x: z.number().min(0), y: z.number().min(0), width: z.number().positive(), height: z.number().positive() });
export type Box = z.infer<typeof Box>;
const Lora = z.object({ url: z.string().min(1).max(2048), scale: z.number().min(0).max(2).default(1) });

const training = (subject: "person" | "product") =>
  z.object({
    image_urls: z.array(ImageRef).min(subject === "person" ? 4 : 1).max(40),
    trigger_word: TriggerWord,
    steps: z.number().int().min(100).max(4000).default(1000),
    subject: z.literal(subject).default(subject),
  });

const generation = z.object({
  prompt: Prompt,
  loras: z.array(Lora).max(3).default([]),
  image_size: ImageSize.default("portrait_4_3"),
  num_images: NumImages,
  seed: Seed,
  guidance_scale: z.number().min(0).max(20).optional(),
});

const edit = z.object({ image_urls: z.array(ImageRef).min(1).max(4), prompt: Prompt, seed: Seed });

export const imageAiInputs = {
  /** Shopper clone: LoRA of a person from their photos (local: validate and preprocess the photos). */
  "train-flux": training("person"),
  /** Admin model (a public clone or a house model). */
  "train-flux-admin": training("person"),
  /** Product LoRA from product photos (local: garment cut-outs). */
  "train-flux-product": training("product"),
  "generate-flux-lora": generation,
  /** Generation with a clone's LoRA; the service resolves the clone into `loras` and the trigger word into the prompt. */
  "generate-flux-lora-clone": generation,
  /** "raw": no prompt enhancement, the prompt is sent as written. */
  "generate-flux-lora-raw": generation,
  "generate-flux-lora-clone-raw": generation,
  "generate-custom-flux-lora-raw": generation.extend({ loras: z.array(Lora).min(1).max(3) }),
  /** Puts another model (a clone) into a product photo. */
  "flux-change-model": z.object({ image_url: ImageRef, loras: z.array(Lora).min(1).max(3), prompt: Prompt, seed: Seed }),
  /** Square portrait of a clone from its photos (local: cropped around the clearest face). */
  "flux-profile-image": z.object({ image_urls: z.array(ImageRef).min(1).max(40), trigger_word: TriggerWord.optional(), loras: z.array(Lora).max(3).default([]) }),
  /** Removes what the mask (white = remove) or box covers, filling it from its surroundings. */
  "remove-object": z
    .object({ image_url: ImageRef, mask_url: ImageRef.optional(), box: Box.optional() })
    .refine((v) => v.mask_url || v.box, "mask_url or box is required"),
  /** The product cut out and placed on a scene (local: a studio background with a soft shadow). */
  "generate-flux-product-shot": z.object({
    image_url: ImageRef,
    scene: z.string().trim().max(500).default("studio"),
    background_color: z.string().regex(/^#[0-9a-fA-F]{6}$/).optional(),
    image_size: ImageSize.default("portrait_4_3"),
  }),
  "edit-flux-product-shot": z.object({ image_url: ImageRef, prompt: Prompt, seed: Seed }),
  /** Virtual try-on: the garment onto the person. */
  "vton-flux": z.object({
    person_image_url: ImageRef,
    garment_image_url: ImageRef,
    category: z.enum(["tops", "bottoms", "one-pieces"]),
    enable_add_details: z.boolean().default(true),
    prompt_strength: z.number().min(0).max(1).default(0.85),
    seed: Seed,
  }),
  /** Fills the masked region (white) following the prompt; local: inpainting from the surroundings. */
  "flux-lora-fill": z.object({ image_url: ImageRef, mask_url: ImageRef, prompt: Prompt.optional(), loras: z.array(Lora).max(3).default([]) }),
  "chrono-edit": edit,
  "reve-edit": edit,
  "seedream-v4-edit": edit,
  "gemini-image-edit": edit,
} satisfies Record<ImageAiOperation, z.ZodType>;

export type ImageAiInput<Op extends ImageAiOperation> = z.output<(typeof imageAiInputs)[Op]>;

export const ImageAiImage = z.object({
  url: z.string(),
  width: z.number().int().positive().optional(),
  height: z.number().int().positive().optional(),
  content_type: z.string().optional(),
});
export type ImageAiImage = z.infer<typeof ImageAiImage>;

/** Per-photo outcome of clone or product preprocessing. */
export const PreparedPhoto = z.object({
  image_url: z.string(),
  ok: z.boolean(),
  /** Why a photo was refused, in words for the shopper ("No person found", "3 people in the photo", …). */
  reason: z.string().optional(),
  /** Derived artefacts (mask, cut-out) in our storage. */
  mask_url: z.string().optional(),
  face_box: Box.optional(),
});
export type PreparedPhoto = z.infer<typeof PreparedPhoto>;

export const ImageAiOutput = z.object({
  images: z.array(ImageAiImage).default([]),
  /** Training: the LoRA weights (fal) — null when the provider only prepared the photos (local). */
  lora_url: z.string().nullable().optional(),
  trigger_word: z.string().optional(),
  prepared: z.array(PreparedPhoto).optional(),
  seed: z.number().optional(),
  /** Free-form facts worth keeping (model id, timings). */
  meta: z.record(z.string(), z.unknown()).optional(),
});
export type ImageAiOutput = z.infer<typeof ImageAiOutput>;

export type ProgressReporter = (progress: number, message?: string) => void | Promise<void>;

export interface SubmitOptions {
  /** Our request id (for logs, storage keys). */
  requestId: string;
  /** Where the provider should POST its completion (fal webhooks); absent when none can reach us. */
  webhookUrl?: string;
  onProgress?: ProgressReporter;
  signal?: AbortSignal;
}

/** Local work finishes inside `submit`; queued providers answer a request id to follow. */
export type ImageAiSubmission = { state: "completed"; output: ImageAiOutput } | { state: "submitted"; providerRequestId: string };

export type ImageAiStatus =
  | { state: "queued"; queuePosition?: number }
  | { state: "in_progress"; progress?: number; message?: string }
  | { state: "completed"; output: ImageAiOutput }
  | { state: "failed"; error: string };

export type ImageAiProviderName = "local" | "fal";

export interface ImageAiProvider {
  readonly name: ImageAiProviderName;
  supports(op: ImageAiOperation): boolean;
  /** `input` has been parsed with `imageAiInputs[op]` by the caller. */
  submit<Op extends ImageAiOperation>(op: Op, input: ImageAiInput<Op>, opts: SubmitOptions): Promise<ImageAiSubmission>;
  status(op: ImageAiOperation, providerRequestId: string): Promise<ImageAiStatus>;
  cancel(op: ImageAiOperation, providerRequestId: string): Promise<void>;
  health(): Promise<{ ok: boolean; detail?: string }>;
}

/** Thrown (and answered 501) when the configured provider cannot do an operation. */
export class ImageAiUnsupportedError extends Error {
  constructor(
    readonly operation: ImageAiOperation,
    readonly provider: ImageAiProviderName,
    readonly needs: ImageAiProviderName = "fal",
  ) {
    super(
      `${operation} needs the ${needs} image provider; the ${provider} provider cannot do it. ` +
        `Set IMAGE_AI_ADAPTER=${needs} (or IMAGE_AI_ROUTES=${operation}=${needs}) with its credentials.`,
    );
    this.name = "ImageAiUnsupportedError";
  }
}

/** A provider-side failure worth retrying (timeouts, 5xx, throttling) vs one that is final. */
export class ImageAiProviderError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = "ImageAiProviderError";
  }
}

/** Operations the local CPU provider does (the rest answer ImageAiUnsupportedError → 501). */
export const LOCAL_OPERATIONS: ReadonlySet<ImageAiOperation> = new Set<ImageAiOperation>([
  "train-flux",
  "train-flux-admin",
  "train-flux-product",
  "flux-profile-image",
  "remove-object",
  "generate-flux-product-shot",
  "vton-flux",
  "flux-lora-fill",
]);
