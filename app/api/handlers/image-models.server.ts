import type { imageModelsEndpoints } from "~/contract/image-models";
import { hasPermission } from "~/api/auth.server";
import { unauthenticated } from "~/api/errors.server";
import { toProductGid } from "~/lib/gid";
import type { ImageAiOperation } from "~/providers/image-ai/port";
import {
  assertSupported,
  cancelVisibleImageRequest,
  getVisibleImageRequest,
  imageCapabilities,
  imageRequestView,
  startImageTool,
} from "~/services/image-ai/api.server";
import type { AuthState } from "../auth.server";
import type { HandlersFor, HandlerArgs } from "../router.server";

type Endpoints = typeof imageModelsEndpoints;

const userOf = (auth: AuthState) => {
  if (!auth.user) throw unauthenticated();
  return auth.user;
};

/** An admin tool: the op's input as body, on the "tool" target. */
const tool =
  <K extends keyof Endpoints>(op: ImageAiOperation) =>
  async ({ ctx, input, auth }: HandlerArgs<Endpoints[K]>) =>
    imageRequestView(await startImageTool(ctx, op, (input as { body: Record<string, unknown> }).body, userOf(auth).id));

const train =
  (kind: "shopper" | "admin" | "product", op: ImageAiOperation) =>
  async ({ ctx, input, auth }: HandlerArgs<Endpoints["imageModelsTrainFlux"]>) => {
    const user = userOf(auth);
    assertSupported(ctx, op);
    // The clones area (helper C) owns clone training; imported on use.
    const { startCloneTraining } = await import("~/services/clones/index.server");
    const { job, request } = await startCloneTraining(ctx, {
      userId: user.id,
      isAdmin: hasPermission(user, "ai.train"),
      cloneId: input.body.clone_id,
      kind,
      triggerWord: input.body.trigger_word,
      steps: input.body.steps,
    });
    return { ...imageRequestView(request), job_id: job.id, clone_id: input.body.clone_id };
  };

export const imageModelsHandlers: HandlersFor<Endpoints> = {
  imageModelsTrainFlux: train("shopper", "train-flux"),
  imageModelsTrainFluxAdmin: train("admin", "train-flux-admin"),
  imageModelsTrainFluxProduct: train("product", "train-flux-product"),
  imageModelsGenerateFluxLora: tool("generate-flux-lora"),
  imageModelsGenerateFluxLoraClone: tool("generate-flux-lora-clone"),
  imageModelsGenerateFluxLoraRaw: tool("generate-flux-lora-raw"),
  imageModelsGenerateFluxLoraCloneRaw: tool("generate-flux-lora-clone-raw"),
  imageModelsGenerateCustomFluxLoraRaw: tool("generate-custom-flux-lora-raw"),
  imageModelsFluxChangeModel: tool("flux-change-model"),
  imageModelsFluxProfileImage: async ({ ctx, input, auth }) => {
    const user = userOf(auth);
    assertSupported(ctx, "flux-profile-image");
    const { generateCloneProfileImage } = await import("~/services/clones/index.server");
    const { request } = await generateCloneProfileImage(ctx, { userId: user.id, isAdmin: hasPermission(user, "ai.train"), cloneId: input.params.id });
    return { ...imageRequestView(request), clone_id: input.params.id };
  },
  imageModelsRemoveObject: tool("remove-object"),
  imageModelsGenerateFluxProductShot: tool("generate-flux-product-shot"),
  imageModelsAddProductGeneratedImage: async ({ ctx, input, auth }) => {
    const user = userOf(auth);
    // The admin area (helper A) attaches images to products through the commerce port.
    const { addProductGeneratedImage } = await import("~/services/proposed-image-edits.server");
    const productId = toProductGid(input.body.product_id ?? input.body.shopify_product_id ?? "");
    return addProductGeneratedImage(ctx, { productId, imageUrl: input.body.image_url, userId: user.id });
  },
  imageModelsEditFluxProductShot: tool("edit-flux-product-shot"),
  imageModelsVtonFlux: async ({ ctx, input, auth }) => {
    const user = userOf(auth);
    assertSupported(ctx, "vton-flux");
    // The try-on area (helper T) owns try-ons: eligibility, ownership, reuse of a finished one.
    const { startTryOn } = await import("~/services/tryons/index.server");
    const view = await startTryOn(ctx, {
      userId: user.id,
      cloneId: input.body.ai_clone_id,
      productId: toProductGid(input.body.shopify_product_id),
      enableAddDetails: input.body.enable_add_details,
      promptStrength: input.body.prompt_strength,
    });
    return { ...view, tryon_id: view.id, request_id: view.request_id ?? null };
  },
  imageModelsFluxLoraFill: tool("flux-lora-fill"),
  imageModelsChronoEdit: tool("chrono-edit"),
  imageModelsReveEdit: tool("reve-edit"),
  imageModelsSeedreamV4Edit: tool("seedream-v4-edit"),
  imageModelsGeminiImageEdit: tool("gemini-image-edit"),
  imageModelsGetRequest: async ({ ctx, input, auth }) => imageRequestView(await getVisibleImageRequest(ctx, userOf(auth), input.params.id)),
  imageModelsCancelRequest: async ({ ctx, input, auth }) => imageRequestView(await cancelVisibleImageRequest(ctx, userOf(auth), input.params.id)),
  imageModelsCapabilities: async ({ ctx }) => imageCapabilities(ctx),
};
