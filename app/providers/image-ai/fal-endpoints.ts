/**
 * Which fal.ai endpoint serves each image-AI operation, and how our zod input (./port.ts) becomes
 * that endpoint's input. Field names are those of the endpoints' published schemas (the types of
 * @fal-ai/client 1.10.1 `endpoints.d.ts`, and fal's model pages for Reve, which the client does
 * not type yet).
 *
 * fal's queue addresses status/result/cancel by app (`owner/alias`), not by sub-path, so an
 * operation may pick a sub-path per input (mask vs box, one vs several images) as long as the app
 * stays the same: `FAL_APPS[op]` is what status/result/cancel use.
 *
 * | operation                     | fal endpoint                              | our input → fal input |
 * |-------------------------------|-------------------------------------------|-----------------------|
 * | train-flux                    | fal-ai/flux-lora-fast-training            | image_urls → zip in our storage → images_data_url; trigger_word; steps; create_masks=true |
 * | train-flux-admin              | fal-ai/flux-lora-fast-training            | same as train-flux |
 * | train-flux-product            | fal-ai/flux-lora-fast-training            | same, create_masks=false (objects, no face mask) |
 * | generate-flux-lora            | fal-ai/flux-lora                          | prompt (+ photo-quality suffix), loras[{url,scale}] → loras[{path,scale}], image_size, num_images, seed, guidance_scale |
 * | generate-flux-lora-clone      | fal-ai/flux-lora                          | same (the service put the clone's LoRA and trigger word in) |
 * | generate-flux-lora-raw        | fal-ai/flux-lora                          | same, prompt sent as written |
 * | generate-flux-lora-clone-raw  | fal-ai/flux-lora                          | same, prompt sent as written |
 * | generate-custom-flux-lora-raw | fal-ai/flux-lora                          | same, prompt sent as written |
 * | flux-change-model             | fal-ai/flux-lora/image-to-image           | image_url, loras, prompt, seed, strength=0.65 |
 * | flux-profile-image            | fal-ai/flux-lora (with loras) or fal-ai/flux-lora/image-to-image (none) | portrait prompt with the trigger word, image_size=square_hd; without a LoRA: the first photo at strength 0.45 |
 * | remove-object                 | fal-ai/finegrain-eraser/mask or …/bbox    | image_url, mask_url \| box → box_prompts[{x_min,y_min,x_max,y_max}], seed-less, mode=standard |
 * | generate-flux-product-shot    | fal-ai/bria/product-shot                  | image_url, scene (+ background colour in words) → scene_description, image_size → shot_size, placement_type=manual_placement (bottom_center), num_results=1 |
 * | edit-flux-product-shot        | fal-ai/flux-pro/kontext                   | image_url, prompt, seed |
 * | vton-flux                     | fal-ai/fashn/tryon/v1.6                   | person_image_url → model_image, garment_image_url → garment_image, category (same values), enable_add_details → mode quality\|balanced, seed; prompt_strength has no FASHN counterpart (kept in meta) |
 * | flux-lora-fill                | fal-ai/flux-lora-fill                     | image_url, mask_url, prompt ("" when absent), loras, paste_back=true, resize_to_original=true |
 * | chrono-edit                   | fal-ai/chrono-edit                        | image_urls[0] → image_url, prompt, seed (one image only) |
 * | reve-edit                     | fal-ai/reve/edit or fal-ai/reve/remix     | one image → image_url; several → image_urls (remix); prompt |
 * | seedream-v4-edit              | fal-ai/bytedance/seedream/v4/edit         | image_urls, prompt, seed, num_images=1 |
 * | gemini-image-edit             | fal-ai/gemini-25-flash-image/edit         | image_urls, prompt, num_images=1 (Gemini 2.5 Flash Image, "nano banana") |
 *
 * Outputs (see `falOutputFromPayload` in ./fal.server.ts): `images[]` (or a single `image`) →
 * ImageAiOutput.images; training's `diffusers_lora_file.url` → lora_url (`config_file` in meta);
 * `seed` / `used_seed` → seed; `description`, `has_nsfw_concepts` → meta.
 */
import type { ImageAiInput, ImageAiOperation } from "./port";

export const FAL_TRAINING_OPERATIONS: ReadonlySet<ImageAiOperation> = new Set<ImageAiOperation>(["train-flux", "train-flux-admin", "train-flux-product"]);

/** The fal app (owner/alias) of each operation: the queue's status/result/cancel address. */
export const FAL_APPS: Record<ImageAiOperation, string> = {
  "train-flux": "fal-ai/flux-lora-fast-training",
  "train-flux-admin": "fal-ai/flux-lora-fast-training",
  "train-flux-product": "fal-ai/flux-lora-fast-training",
  "generate-flux-lora": "fal-ai/flux-lora",
  "generate-flux-lora-clone": "fal-ai/flux-lora",
  "generate-flux-lora-raw": "fal-ai/flux-lora",
  "generate-flux-lora-clone-raw": "fal-ai/flux-lora",
  "generate-custom-flux-lora-raw": "fal-ai/flux-lora",
  "flux-change-model": "fal-ai/flux-lora",
  "flux-profile-image": "fal-ai/flux-lora",
  "remove-object": "fal-ai/finegrain-eraser",
  "generate-flux-product-shot": "fal-ai/bria",
  "edit-flux-product-shot": "fal-ai/flux-pro",
  "vton-flux": "fal-ai/fashn",
  "flux-lora-fill": "fal-ai/flux-lora-fill",
  "chrono-edit": "fal-ai/chrono-edit",
  "reve-edit": "fal-ai/reve",
  "seedream-v4-edit": "fal-ai/bytedance",
  "gemini-image-edit": "fal-ai/gemini-25-flash-image",
};

export interface FalCall {
  /** Full endpoint id (app + sub-path) to submit to. */
  endpoint: string;
  input: Record<string, unknown>;
  /** Facts worth keeping with the output (inputs the endpoint has no field for). */
  meta?: Record<string, unknown>;
}

export interface FalInputContext {
  /** /uploads/… → absolute URL fal can fetch; absolute URLs unchanged. */
  abs(ref: string): string;
  /** Training only: public URL of the zip of the photos (built by the adapter). */
  imagesDataUrl?: string;
}

/** Added to the prompt of the non-"raw" generations ("raw" = sent as written). */
export const PROMPT_ENHANCEMENT = "high-quality fashion photograph, natural light, sharp focus, detailed fabric texture";

const SHOT_SIZES: Record<string, [number, number]> = {
  square_hd: [1024, 1024],
  square: [1024, 1024],
  portrait_4_3: [864, 1152],
  portrait_16_9: [768, 1344],
  landscape_4_3: [1152, 864],
  landscape_16_9: [1344, 768],
};

/** Bria accepts plain English without special characters: "#1a2b3c" → the nearest colour name. */
export function colourName(hex: string): string {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return "white";
  const [r, g, b] = [m[1], m[2], m[3]].map((h) => parseInt(h, 16));
  const palette: [string, number, number, number][] = [
    ["white", 255, 255, 255], ["light grey", 200, 200, 200], ["grey", 128, 128, 128], ["charcoal", 64, 64, 64], ["black", 0, 0, 0],
    ["red", 200, 30, 30], ["pink", 240, 160, 190], ["orange", 240, 140, 40], ["yellow", 240, 220, 60], ["beige", 225, 205, 170],
    ["brown", 120, 75, 40], ["green", 50, 150, 60], ["olive", 120, 120, 40], ["teal", 30, 130, 130], ["light blue", 150, 200, 240],
    ["blue", 40, 80, 200], ["navy", 20, 30, 90], ["purple", 120, 50, 160], ["lavender", 200, 180, 230],
  ];
  let best = palette[0];
  let bestD = Infinity;
  for (const p of palette) {
    const d = (p[1] - r) ** 2 + (p[2] - g) ** 2 + (p[3] - b) ** 2;
    if (d < bestD) [best, bestD] = [p, d];
  }
  return best[0];
}

const loras = (ctx: FalInputContext, list: { url: string; scale: number }[]) => list.map((l) => ({ path: ctx.abs(l.url), scale: l.scale }));
const seed = (s: number | undefined) => (s === undefined ? {} : { seed: s });
const defined = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

function generation(op: ImageAiOperation, i: ImageAiInput<"generate-flux-lora">, ctx: FalInputContext): FalCall {
  const raw = op.endsWith("-raw");
  return {
    endpoint: "fal-ai/flux-lora",
    input: defined({
      prompt: raw ? i.prompt : `${i.prompt}, ${PROMPT_ENHANCEMENT}`,
      loras: loras(ctx, i.loras),
      image_size: i.image_size,
      num_images: i.num_images,
      guidance_scale: i.guidance_scale,
      ...seed(i.seed),
      enable_safety_checker: true,
      output_format: "jpeg",
    }),
  };
}

function training(op: ImageAiOperation, i: ImageAiInput<"train-flux">, ctx: FalInputContext): FalCall {
  if (!ctx.imagesDataUrl) throw new Error("training needs the URL of the zip of the photos");
  return {
    endpoint: "fal-ai/flux-lora-fast-training",
    input: {
      images_data_url: ctx.imagesDataUrl,
      trigger_word: i.trigger_word,
      steps: i.steps,
      create_masks: op !== "train-flux-product",
      is_style: false,
      data_archive_format: "zip",
    },
    meta: { photos: i.image_urls.length, subject: i.subject },
  };
}

/** Our parsed input → the fal endpoint and its input. Pure apart from `ctx.abs`. */
export function falCallFor<Op extends ImageAiOperation>(op: Op, input: ImageAiInput<Op>, ctx: FalInputContext): FalCall {
  const any = input as never;
  switch (op) {
    case "train-flux":
    case "train-flux-admin":
    case "train-flux-product":
      return training(op, any, ctx);
    case "generate-flux-lora":
    case "generate-flux-lora-clone":
    case "generate-flux-lora-raw":
    case "generate-flux-lora-clone-raw":
    case "generate-custom-flux-lora-raw":
      return generation(op, any, ctx);
    case "flux-change-model": {
      const i = input as ImageAiInput<"flux-change-model">;
      return {
        endpoint: "fal-ai/flux-lora/image-to-image",
        input: { image_url: ctx.abs(i.image_url), loras: loras(ctx, i.loras), prompt: i.prompt, strength: 0.65, ...seed(i.seed), enable_safety_checker: true, output_format: "jpeg" },
      };
    }
    case "flux-profile-image": {
      const i = input as ImageAiInput<"flux-profile-image">;
      const who = i.trigger_word ? `${i.trigger_word}, ` : "";
      const prompt = `${who}head-and-shoulders profile portrait of the person, looking at the camera, neutral light grey studio background, soft even light, sharp focus`;
      if (i.loras.length > 0) {
        return { endpoint: "fal-ai/flux-lora", input: { prompt, loras: loras(ctx, i.loras), image_size: "square_hd", num_images: 1, enable_safety_checker: true, output_format: "jpeg" } };
      }
      return {
        endpoint: "fal-ai/flux-lora/image-to-image",
        input: { image_url: ctx.abs(i.image_urls[0]), prompt, image_size: "square_hd", strength: 0.45, num_images: 1, enable_safety_checker: true, output_format: "jpeg" },
        meta: { note: "no LoRA yet: restyled from the first photo" },
      };
    }
    case "remove-object": {
      const i = input as ImageAiInput<"remove-object">;
      if (i.mask_url) return { endpoint: "fal-ai/finegrain-eraser/mask", input: { image_url: ctx.abs(i.image_url), mask_url: ctx.abs(i.mask_url), mode: "standard" } };
      const b = i.box!;
      return {
        endpoint: "fal-ai/finegrain-eraser/bbox",
        input: { image_url: ctx.abs(i.image_url), box_prompts: [{ x_min: Math.round(b.x), y_min: Math.round(b.y), x_max: Math.round(b.x + b.width), y_max: Math.round(b.y + b.height) }], mode: "standard" },
      };
    }
    case "generate-flux-product-shot": {
      const i = input as ImageAiInput<"generate-flux-product-shot">;
      const scene = i.scene.replace(/[^A-Za-z0-9 ,.'-]+/g, " ").replace(/\s+/g, " ").trim() || "studio";
      const bg = i.background_color ? `, plain ${colourName(i.background_color)} background` : "";
      return {
        endpoint: "fal-ai/bria/product-shot",
        input: {
          image_url: ctx.abs(i.image_url),
          scene_description: `${scene}${bg}`,
          placement_type: "manual_placement",
          manual_placement_selection: "bottom_center",
          shot_size: SHOT_SIZES[i.image_size] ?? SHOT_SIZES.portrait_4_3,
          num_results: 1,
          fast: true,
          optimize_description: true,
        },
      };
    }
    case "edit-flux-product-shot": {
      const i = input as ImageAiInput<"edit-flux-product-shot">;
      return { endpoint: "fal-ai/flux-pro/kontext", input: { image_url: ctx.abs(i.image_url), prompt: i.prompt, ...seed(i.seed), num_images: 1, output_format: "jpeg" } };
    }
    case "vton-flux": {
      const i = input as ImageAiInput<"vton-flux">;
      return {
        endpoint: "fal-ai/fashn/tryon/v1.6",
        input: {
          model_image: ctx.abs(i.person_image_url),
          garment_image: ctx.abs(i.garment_image_url),
          category: i.category,
          mode: i.enable_add_details ? "quality" : "balanced",
          garment_photo_type: "auto",
          moderation_level: "permissive",
          num_samples: 1,
          output_format: "png",
          ...seed(i.seed),
        },
        meta: { prompt_strength: i.prompt_strength },
      };
    }
    case "flux-lora-fill": {
      const i = input as ImageAiInput<"flux-lora-fill">;
      return {
        endpoint: "fal-ai/flux-lora-fill",
        input: { image_url: ctx.abs(i.image_url), mask_url: ctx.abs(i.mask_url), prompt: i.prompt ?? "", loras: loras(ctx, i.loras), paste_back: true, resize_to_original: true, num_images: 1, enable_safety_checker: true, output_format: "jpeg" },
      };
    }
    case "chrono-edit": {
      const i = input as ImageAiInput<"chrono-edit">;
      return {
        endpoint: "fal-ai/chrono-edit",
        input: { image_url: ctx.abs(i.image_urls[0]), prompt: i.prompt, ...seed(i.seed), output_format: "png", enable_safety_checker: true },
        meta: i.image_urls.length > 1 ? { ignored_images: i.image_urls.length - 1 } : undefined,
      };
    }
    case "reve-edit": {
      const i = input as ImageAiInput<"reve-edit">;
      if (i.image_urls.length === 1) return { endpoint: "fal-ai/reve/edit", input: { image_url: ctx.abs(i.image_urls[0]), prompt: i.prompt, num_images: 1, output_format: "png" } };
      return { endpoint: "fal-ai/reve/remix", input: { image_urls: i.image_urls.map(ctx.abs), prompt: i.prompt, num_images: 1, output_format: "png" } };
    }
    case "seedream-v4-edit": {
      const i = input as ImageAiInput<"seedream-v4-edit">;
      return { endpoint: "fal-ai/bytedance/seedream/v4/edit", input: { image_urls: i.image_urls.map(ctx.abs), prompt: i.prompt, ...seed(i.seed), num_images: 1, enable_safety_checker: true } };
    }
    case "gemini-image-edit": {
      const i = input as ImageAiInput<"gemini-image-edit">;
      return { endpoint: "fal-ai/gemini-25-flash-image/edit", input: { image_urls: i.image_urls.map(ctx.abs), prompt: i.prompt, ...seed(i.seed), num_images: 1, output_format: "png" } };
    }
  }
  throw new Error(`no fal endpoint for ${String(op)}`);
}
