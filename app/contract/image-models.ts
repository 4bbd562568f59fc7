/**
 * Image models (SPEC §7 "Image models, all POST under /fal/: …"): every model call the shopper
 * app and the admin tools make, on whichever image-AI provider the configuration routes the
 * operation to (local CPU models by default, fal.ai in production). Payloads are not in the spec:
 * each operation's body is its input in app/providers/image-ai/port.ts.
 *
 * Starting a call answers 201 with the request (`request_id`, `status` queued); follow it with
 * GET /fal/requests/{id} (progress 0–100, message, output images in our storage, error) or cancel
 * it with POST /fal/requests/{id}/cancel. An operation the configured provider cannot do answers
 * 501 with a message naming the provider it needs; GET /fal/capabilities tells UIs in advance.
 *
 * Shopper calls (train-flux, flux-profile-image/{id}, vton-flux) go through the clone and try-on
 * areas (ownership, statuses); the rest are admin tools (permission ai.train).
 */
import { z } from "zod";
import { access, endpoint } from "./endpoint";
import { IdParams, IsoDate } from "./common";
import { TryOnSchema } from "./tryons";
import { IMAGE_AI_OPERATIONS, ImageRef, imageAiInputs, type ImageAiOperation } from "../providers/image-ai/port";

const TAGS = ["Image models"] as const;

export const ImageModelsImageSchema = z.object({
  url: z.string(),
  width: z.number().int().optional(),
  height: z.number().int().optional(),
  content_type: z.string().optional(),
});

export const ImageModelsRequestStatusSchema = z.enum(["queued", "in_progress", "completed", "failed", "cancelled"]);

/** One image-AI request as callers see it. */
export const ImageModelsRequestSchema = z.object({
  request_id: z.string(),
  operation: z.string(),
  provider: z.string(),
  status: ImageModelsRequestStatusSchema,
  /** 0–100. */
  progress: z.number().int(),
  message: z.string().nullable(),
  error: z.string().nullable(),
  /** Output images, in our storage (/uploads/images/ai/…). */
  images: z.array(ImageModelsImageSchema),
  /** Training: the LoRA weights when the provider made some (fal), null otherwise. */
  lora_url: z.string().nullable(),
  trigger_word: z.string().nullable(),
  /** Training and profile photos: per-photo outcome (refused photos say why). */
  prepared: z
    .array(z.object({ image_url: z.string(), ok: z.boolean(), reason: z.string().optional(), mask_url: z.string().optional() }))
    .nullable(),
  seed: z.number().nullable(),
  target_type: z.string().nullable(),
  target_id: z.string().nullable(),
  created_at: IsoDate,
  started_at: IsoDate.nullable(),
  completed_at: IsoDate.nullable(),
});
export type ImageModelsRequest = z.input<typeof ImageModelsRequestSchema>;

const TrainBody = z.object({
  clone_id: z.string().trim().min(1, "clone_id is required"),
  trigger_word: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_]{2,32}$/, "trigger_word: letters, digits and underscores, 2 to 32 characters")
    .optional(),
  steps: z.number().int().min(100).max(4000).optional(),
});

const TrainResponse = ImageModelsRequestSchema.extend({ job_id: z.string(), clone_id: z.string() });
const ProfileResponse = ImageModelsRequestSchema.extend({ clone_id: z.string() });

export const VtonFluxBody = z.object({
  ai_clone_id: z.string().trim().min(1, "ai_clone_id is required"),
  shopify_product_id: z.string().trim().min(1, "shopify_product_id is required"),
  enable_add_details: z.boolean().default(true),
  prompt_strength: z.number().min(0).max(1).optional(),
});
/** The try-on (as GET /try-ons/{id} shows it), its id again as tryon_id, and the image request following it. */
const VtonResponse = TryOnSchema.extend({ tryon_id: z.string(), request_id: z.string().nullable() });

export const AddProductGeneratedImageBody = z
  .object({
    product_id: z.string().trim().min(1).optional(),
    shopify_product_id: z.string().trim().min(1).optional(),
    image_url: ImageRef,
  })
  .refine((b) => b.product_id || b.shopify_product_id, "product_id is required");

/** Generation "with a clone": the clone's LoRA and trigger word are added by the server. */
const withClone = <S extends z.ZodObject>(s: S) => s.extend({ clone_id: z.string().trim().min(1).optional() });

const start = <B extends z.ZodType>(op: ImageAiOperation, summary: string, body: B) =>
  endpoint({
    method: "POST",
    path: `/fal/${op}`,
    summary,
    tags: TAGS,
    access: access.admin("ai.train"),
    body,
    response: ImageModelsRequestSchema,
    status: 201,
  });

const trainEndpoint = (op: "train-flux" | "train-flux-admin" | "train-flux-product", summary: string, shopper: boolean) =>
  endpoint({
    method: "POST",
    path: `/fal/${op}`,
    summary,
    tags: TAGS,
    access: shopper ? access.user : access.admin("ai.train"),
    body: TrainBody,
    response: TrainResponse,
    status: 201,
  });

export const ImageModelsCapabilitySchema = z.object({
  operation: z.enum(IMAGE_AI_OPERATIONS),
  provider: z.enum(["local", "fal"]),
  supported: z.boolean(),
  /** Why not, naming the provider it needs. */
  message: z.string().optional(),
});

export const imageModelsEndpoints = {
  imageModelsTrainFlux: trainEndpoint("train-flux", "Train the caller's clone from its photos (local: validates and prepares the photos)", true),
  imageModelsTrainFluxAdmin: trainEndpoint("train-flux-admin", "Train an admin or public clone", false),
  imageModelsTrainFluxProduct: trainEndpoint("train-flux-product", "Train a product clone from product photos", false),
  imageModelsGenerateFluxLora: start("generate-flux-lora", "Generate images with LoRAs", imageAiInputs["generate-flux-lora"]),
  imageModelsGenerateFluxLoraClone: start("generate-flux-lora-clone", "Generate images of a clone (clone_id adds its LoRA and trigger word)", withClone(imageAiInputs["generate-flux-lora-clone"])),
  imageModelsGenerateFluxLoraRaw: start("generate-flux-lora-raw", "Generate images, prompt sent as written", imageAiInputs["generate-flux-lora-raw"]),
  imageModelsGenerateFluxLoraCloneRaw: start("generate-flux-lora-clone-raw", "Generate images of a clone, prompt sent as written", withClone(imageAiInputs["generate-flux-lora-clone-raw"])),
  imageModelsGenerateCustomFluxLoraRaw: start("generate-custom-flux-lora-raw", "Generate images with the given LoRAs, prompt sent as written", imageAiInputs["generate-custom-flux-lora-raw"]),
  imageModelsFluxChangeModel: start("flux-change-model", "Put another model (a LoRA) into a product photo", imageAiInputs["flux-change-model"]),
  imageModelsFluxProfileImage: endpoint({
    method: "POST",
    path: "/fal/flux-profile-image/{id}",
    summary: "Make the profile image of a clone (the caller's, or any clone for admins with ai.train)",
    tags: TAGS,
    access: access.user,
    params: IdParams,
    response: ProfileResponse,
    status: 201,
  }),
  imageModelsRemoveObject: start("remove-object", "Remove what a mask or box covers from an image", imageAiInputs["remove-object"]),
  imageModelsGenerateFluxProductShot: start("generate-flux-product-shot", "Cut a product out and place it on a scene", imageAiInputs["generate-flux-product-shot"]),
  imageModelsAddProductGeneratedImage: endpoint({
    method: "POST",
    path: "/fal/add-product-generated-image",
    summary: "Attach a generated image to a product (through the store)",
    tags: TAGS,
    access: access.admin("ai.train"),
    body: AddProductGeneratedImageBody,
    response: z.object({
      product_id: z.string(),
      image: z.object({ id: z.string(), url: z.string(), altText: z.string().nullable().optional(), position: z.number().int().optional() }),
    }),
    status: 201,
  }),
  imageModelsEditFluxProductShot: start("edit-flux-product-shot", "Edit a product shot following a prompt", imageAiInputs["edit-flux-product-shot"]),
  imageModelsVtonFlux: endpoint({
    method: "POST",
    path: "/fal/vton-flux",
    summary: "Virtual try-on: a product on one of the caller's clones (or a public clone)",
    tags: TAGS,
    access: access.user,
    body: VtonFluxBody,
    response: VtonResponse,
    status: 201,
  }),
  imageModelsFluxLoraFill: start("flux-lora-fill", "Fill the masked region of an image", imageAiInputs["flux-lora-fill"]),
  imageModelsChronoEdit: start("chrono-edit", "Edit an image following a prompt (Chrono Edit)", imageAiInputs["chrono-edit"]),
  imageModelsReveEdit: start("reve-edit", "Edit or remix images following a prompt (Reve)", imageAiInputs["reve-edit"]),
  imageModelsSeedreamV4Edit: start("seedream-v4-edit", "Edit images following a prompt (Seedream 4)", imageAiInputs["seedream-v4-edit"]),
  imageModelsGeminiImageEdit: start("gemini-image-edit", "Edit images following a prompt (Gemini image)", imageAiInputs["gemini-image-edit"]),
  imageModelsGetRequest: endpoint({
    method: "GET",
    path: "/fal/requests/{id}",
    summary: "Status, progress and output of an image request (its owner, or admins with ai.train)",
    tags: TAGS,
    access: access.user,
    params: IdParams,
    response: ImageModelsRequestSchema,
  }),
  imageModelsCancelRequest: endpoint({
    method: "POST",
    path: "/fal/requests/{id}/cancel",
    summary: "Cancel a queued or running image request (a finished one is answered unchanged)",
    tags: TAGS,
    access: access.user,
    params: IdParams,
    response: ImageModelsRequestSchema,
  }),
  imageModelsCapabilities: endpoint({
    method: "GET",
    path: "/fal/capabilities",
    summary: "Which provider serves each image operation, and whether it can",
    tags: TAGS,
    access: access.user,
    response: z.object({ adapter: z.enum(["local", "fal"]), operations: z.array(ImageModelsCapabilitySchema) }),
  }),
};
