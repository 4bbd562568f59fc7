/**
 * AI image tools: pick a tool (product shot, remove object, fill, edit with a model, train a
 * product model, train an admin model), a product and one of its images (or an uploaded photo),
 * the tool's inputs (a prompt, a box drawn on the image), and run it. The run is an image-AI
 * request (app/services/image-ai, target "tool"; admin training goes through the clone's training
 * job): its status and progress are polled every 2 s, then the result is shown next to the source
 * image and can be sent to Proposed image edits (or added to the product's images).
 *
 * Tools the configured provider cannot do show a Banner naming the provider they need, before
 * anything runs, and cannot be run.
 */
import { useEffect, useMemo, useRef, useState } from "react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Link, useFetcher, useLoaderData, useRevalidator, useSearchParams } from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Box,
  Button,
  Card,
  FormLayout,
  InlineGrid,
  InlineStack,
  Layout,
  Page,
  ProgressBar,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { z } from "zod";
import { getAppContext } from "~/context.server";
import { toApiError } from "~/api/router.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { hasPermission } from "~/api/auth.server";
import type { ImageAiOperation } from "~/providers/image-ai/port";
import { adminListProducts, getProductDetail } from "~/services/catalog.server";
import { maskForBox, storeToolUpload } from "~/services/ai-tools.server";
import { cancelImageAiRequest, getImageAiRequest, supportsOperation } from "~/services/image-ai/requests.server";
import { imageRequestView, startImageTool } from "~/services/image-ai/api.server";
import { listClones, startCloneTraining } from "~/services/clones/index.server";
import { addProductGeneratedImage, createImageEdit } from "~/services/proposed-image-edits.server";
import { formOf, ONE_IMAGE_FORM_BYTES } from "~/lib/body-limit.server";

const TOOLS = [
  { id: "product-shot", label: "Product shot", ops: ["generate-flux-product-shot"], help: "The product cut out and placed on a clean scene." },
  { id: "remove-object", label: "Remove object", ops: ["remove-object"], help: "Draw a box around what to remove; it is filled from its surroundings." },
  { id: "fill", label: "Fill", ops: ["flux-lora-fill"], help: "Draw a box; the region is repainted (following the prompt where the provider can)." },
  { id: "edit", label: "Edit with a model", ops: ["chrono-edit", "reve-edit", "seedream-v4-edit", "gemini-image-edit"], help: "Describe the change; the chosen model edits the image." },
  { id: "train-product", label: "Train product model", ops: ["train-flux-product"], help: "Trains a model of this product from its images." },
  { id: "train-admin", label: "Train admin model", ops: ["train-flux-admin"], help: "Trains an admin model (a public clone or a house model) from its base photos." },
] as const satisfies readonly { id: string; label: string; ops: readonly ImageAiOperation[]; help: string }[];
type ToolId = (typeof TOOLS)[number]["id"];
const EDIT_MODELS: { op: ImageAiOperation; label: string }[] = [
  { op: "chrono-edit", label: "Chrono" },
  { op: "reve-edit", label: "Reve" },
  { op: "seedream-v4-edit", label: "Seedream v4" },
  { op: "gemini-image-edit", label: "Gemini" },
];
const ACTIVE = new Set(["queued", "in_progress"]);

const toolOf = (id: string | null) => TOOLS.find((t) => t.id === id) ?? TOOLS[0];
const opOf = (tool: (typeof TOOLS)[number], model: string | null): ImageAiOperation =>
  tool.id === "edit" ? ((EDIT_MODELS.find((m) => m.op === model)?.op ?? "chrono-edit") as ImageAiOperation) : tool.ops[0];

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { user } = await requireAdmin(request, "ai.train");
  const ctx = getAppContext();
  const sp = new URL(request.url).searchParams;
  const q = (sp.get("q") ?? "").trim().slice(0, 200);
  const productId = (sp.get("product") ?? "").trim();
  const [products, product, req, clones] = await Promise.all([
    adminListProducts(ctx.db, { query: q || undefined, pageSize: 8, sort: q ? "title" : "newest" }),
    productId ? getProductDetail(ctx.db, productId, { includeHidden: true }).catch(() => null) : Promise.resolve(null),
    sp.get("request") ? getImageAiRequest(ctx, sp.get("request")!) : Promise.resolve(null),
    listClones(ctx, { userId: user.id, isAdmin: true }, { limit: 50 })
      .then((r) => r.clones.filter((c) => c.user_id === null && !c.is_product_clone))
      .catch(() => []),
  ]);
  const capabilities = Object.fromEntries(TOOLS.flatMap((t) => t.ops).map((op) => [op, supportsOperation(ctx, op)])) as Record<ImageAiOperation, ReturnType<typeof supportsOperation>>;
  const view = req ? imageRequestView(req) : null;
  const input = (req?.input ?? {}) as { image_url?: string; image_urls?: string[]; prompt?: string };
  return {
    q,
    products: products.products.map((p) => ({ id: p.id, title: p.title, image: p.image })),
    product: product ? { id: product.id, title: product.title, images: product.images.map((i) => ({ id: i.id, url: i.url, altText: i.altText })) } : null,
    capabilities,
    request: view
      ? {
          id: view.request_id,
          operation: view.operation,
          provider: view.provider,
          status: view.status,
          progress: view.progress,
          message: view.message,
          error: view.error,
          images: view.images.map((i) => i.url),
          prepared: view.prepared,
          sourceUrl: input.image_url ?? input.image_urls?.[0] ?? null,
          prompt: input.prompt ?? null,
        }
      : null,
    clones: clones.map((c) => ({ id: c.id, name: c.name, photos: c.baseImageUrls.length, status: c.processing_status })),
    canPropose: hasPermission(user, "media.manage"),
  };
};

type ActionResult =
  | { ok: true; intent: "upload"; url: string }
  | { ok: true; intent: "run"; requestId: string }
  | { ok: true; intent: "propose" | "add" | "cancel"; message: string }
  | { ok: false; intent: string; error: string };

const RunForm = z.object({
  tool: z.enum(TOOLS.map((t) => t.id) as [ToolId, ...ToolId[]]),
  model: z.string().optional(),
  product: z.string().trim().optional(),
  image: z.string().trim().optional(),
  prompt: z.string().trim().max(2000).optional(),
  scene: z.string().trim().max(500).optional(),
  clone: z.string().trim().optional(),
  trigger_word: z.string().trim().optional(),
  box: z.string().optional(),
});
const BoxSchema = z.object({ x: z.number().min(0), y: z.number().min(0), width: z.number().positive(), height: z.number().positive() });

export const action = async ({ request }: ActionFunctionArgs): Promise<ActionResult> => {
  const { user } = await requireAdmin(request, "ai.train");
  const ctx = getAppContext();
  const form = await formOf(request, ONE_IMAGE_FORM_BYTES);
  const intent = String(form.get("intent"));
  try {
    if (intent === "upload") {
      const file = form.get("file");
      if (!(file instanceof Blob) || file.size === 0) return { ok: false, intent, error: "Choose an image to upload" };
      return { ok: true, intent, url: await storeToolUpload(ctx, file) };
    }
    if (intent === "run") {
      const parsed = RunForm.safeParse(Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === "string" && v !== "")));
      if (!parsed.success) return { ok: false, intent, error: parsed.error.issues[0]?.message ?? "Check the inputs" };
      const f = parsed.data;
      const tool = toolOf(f.tool);
      const op = opOf(tool, f.model ?? null);
      if (tool.id === "train-admin") {
        if (!f.clone) return { ok: false, intent, error: "Choose the admin model to train" };
        const { request: req } = await startCloneTraining(ctx, { userId: user.id, isAdmin: true, cloneId: f.clone, kind: "admin", ...(f.trigger_word ? { triggerWord: f.trigger_word } : {}) });
        return { ok: true, intent, requestId: req.id };
      }
      if (!f.product) return { ok: false, intent, error: "Choose a product first" };
      const product = await getProductDetail(ctx.db, f.product, { includeHidden: true });
      if (tool.id === "train-product") {
        const urls = product.images.map((i) => i.url).slice(0, 40);
        if (!urls.length) return { ok: false, intent, error: "This product has no images to train on" };
        const trigger = f.trigger_word || `prod_${product.handle.replace(/[^A-Za-z0-9]+/g, "_").slice(0, 24)}`.replace(/_+$/, "");
        const req = await startImageTool(ctx, op, { image_urls: urls, trigger_word: trigger }, user.id);
        return { ok: true, intent, requestId: req.id };
      }
      if (!f.image) return { ok: false, intent, error: "Choose one of the product's images (or upload one)" };
      let input: Record<string, unknown>;
      if (tool.id === "product-shot") input = { image_url: f.image, scene: f.scene || "studio" };
      else if (tool.id === "edit") {
        if (!f.prompt) return { ok: false, intent, error: "Describe the edit in the prompt" };
        input = { image_urls: [f.image], prompt: f.prompt };
      } else {
        let box: z.infer<typeof BoxSchema>;
        try {
          box = BoxSchema.parse(JSON.parse(f.box ?? "null"));
        } catch {
          return { ok: false, intent, error: "Draw a box on the image (drag across the part to change)" };
        }
        input = tool.id === "remove-object" ? { image_url: f.image, box } : { image_url: f.image, mask_url: await maskForBox(ctx, f.image, box), ...(f.prompt ? { prompt: f.prompt } : {}) };
      }
      const req = await startImageTool(ctx, op, input, user.id);
      return { ok: true, intent, requestId: req.id };
    }
    if (intent === "cancel") {
      await cancelImageAiRequest(ctx, String(form.get("request") ?? ""));
      return { ok: true, intent, message: "Cancelled." };
    }
    if (intent === "propose" || intent === "add") {
      const req = await getImageAiRequest(ctx, String(form.get("request") ?? ""));
      const result = req?.output as { images?: { url: string }[] } | null;
      const url = String(form.get("result") ?? "") || result?.images?.[0]?.url;
      if (!req || req.status !== "completed" || !url) return { ok: false, intent, error: "The result is not ready" };
      const productId = String(form.get("product") ?? "");
      if (!productId) return { ok: false, intent, error: "Choose the product the image is for" };
      if (intent === "add") {
        const r = await addProductGeneratedImage(ctx, { productId, imageUrl: url, userId: user.id });
        return { ok: true, intent, message: `Added to the product's images (position ${r.image.position + 1}).` };
      }
      if (!hasPermission(user, "media.manage")) return { ok: false, intent, error: "Sending to proposed edits needs the media.manage permission" };
      const input = req.input as { image_url?: string; image_urls?: string[]; prompt?: string };
      const edit = await createImageEdit(ctx, {
        product_id: productId,
        image_url: String(form.get("source") ?? "") || input.image_url || input.image_urls?.[0] || "",
        proposed_image_url: url,
        prompt: input.prompt ?? null,
        operation: req.operation,
      });
      ctx.log.info({ editId: edit.id, requestId: req.id, userId: user.id }, "AI tool result sent to proposed edits");
      return { ok: true, intent, message: `Sent to proposed edits (${edit.product.title}).` };
    }
    return { ok: false, intent, error: "Unknown action" };
  } catch (e) {
    if (e instanceof Response) throw e;
    const err = toApiError(e);
    if (err.status === 500) throw e;
    return { ok: false, intent, error: err.message };
  }
};

type BoxValue = { x: number; y: number; width: number; height: number };

/** The source image; with `drawing`, dragging across it draws the box (in the image's own pixels). */
function ImageWithBox({ url, box, onBox, drawing }: { url: string; box: BoxValue | null; onBox: (b: BoxValue | null) => void; drawing: boolean }) {
  const img = useRef<HTMLImageElement>(null);
  const start = useRef<{ x: number; y: number } | null>(null);
  const [, force] = useState(0);
  const scale = () => {
    const el = img.current;
    return el && el.naturalWidth ? el.clientWidth / el.naturalWidth : 1;
  };
  const point = (e: React.MouseEvent) => {
    const rect = img.current!.getBoundingClientRect();
    const s = scale();
    return { x: Math.max(0, (e.clientX - rect.left) / s), y: Math.max(0, (e.clientY - rect.top) / s) };
  };
  const s = scale();
  return (
    <div
      style={{ position: "relative", display: "inline-block", cursor: drawing ? "crosshair" : "default", userSelect: "none" }}
      onMouseDown={(e) => {
        if (!drawing) return;
        e.preventDefault();
        start.current = point(e);
        onBox(null);
      }}
      onMouseMove={(e) => {
        if (!drawing || !start.current) return;
        const p = point(e);
        const a = start.current;
        onBox({ x: Math.round(Math.min(a.x, p.x)), y: Math.round(Math.min(a.y, p.y)), width: Math.max(1, Math.round(Math.abs(p.x - a.x))), height: Math.max(1, Math.round(Math.abs(p.y - a.y))) });
      }}
      onMouseUp={() => {
        start.current = null;
      }}
      data-testid="source-image"
    >
      <img ref={img} src={url} alt="Source" onLoad={() => force((n) => n + 1)} style={{ maxWidth: 360, maxHeight: 420, display: "block", borderRadius: 8 }} draggable={false} />
      {box ? (
        <div
          data-testid="box"
          style={{ position: "absolute", left: box.x * s, top: box.y * s, width: box.width * s, height: box.height * s, border: "2px solid #e11", background: "rgba(255,0,0,0.15)", pointerEvents: "none" }}
        />
      ) : null}
    </div>
  );
}

function Picture({ url, label }: { url: string | null; label: string }) {
  return (
    <BlockStack gap="100" inlineAlign="center">
      <div style={{ width: 300, height: 360, borderRadius: 8, overflow: "hidden", background: "var(--p-color-bg-surface-secondary)", display: "flex", alignItems: "center", justifyContent: "center" }}>
        {url ? <img src={url} alt={label} style={{ width: "100%", height: "100%", objectFit: "contain" }} /> : <Text as="span" tone="subdued">No image</Text>}
      </div>
      <Text as="span" tone="subdued">
        {label}
      </Text>
    </BlockStack>
  );
}

const STATUS_TONE: Record<string, "info" | "attention" | "success" | "critical" | undefined> = { queued: "info", in_progress: "attention", completed: "success", failed: "critical", cancelled: undefined };
const STATUS_LABEL: Record<string, string> = { queued: "Queued", in_progress: "Running", completed: "Completed", failed: "Failed", cancelled: "Cancelled" };

export default function AiTools() {
  const data = useLoaderData<typeof loader>();
  const [searchParams, setSearchParams] = useSearchParams();
  const revalidator = useRevalidator();
  const run = useFetcher<typeof action>();
  const upload = useFetcher<typeof action>();
  const result = useFetcher<typeof action>();

  const tool = toolOf(searchParams.get("tool"));
  const [model, setModel] = useState<string>(searchParams.get("model") ?? "chrono-edit");
  const op = opOf(tool, model);
  const capability = data.capabilities[op];
  const image = searchParams.get("image") ?? "";
  const [query, setQuery] = useState(data.q);
  const [prompt, setPrompt] = useState("");
  const [scene, setScene] = useState("studio");
  const [box, setBox] = useState<BoxValue | null>(null);
  const [clone, setClone] = useState(data.clones[0]?.id ?? "");
  const [trigger, setTrigger] = useState("");
  const fileInput = useRef<HTMLInputElement>(null);

  const setParams = (patch: Record<string, string | null>) => {
    const next = new URLSearchParams(searchParams);
    for (const [k, v] of Object.entries(patch)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    setSearchParams(next, { replace: true, preventScrollReset: true });
  };

  // A started run: follow its request in the URL (reloads keep showing it).
  useEffect(() => {
    if (run.state === "idle" && run.data?.ok && run.data.intent === "run") setParams({ request: run.data.requestId });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [run.state, run.data]);
  useEffect(() => {
    if (upload.state === "idle" && upload.data?.ok && upload.data.intent === "upload") {
      setParams({ image: upload.data.url });
      setBox(null);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [upload.state, upload.data]);
  // Live progress: poll every 2 s while the request is queued or running.
  const active = !!data.request && ACTIVE.has(data.request.status);
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => {
      if (revalidator.state === "idle") revalidator.revalidate();
    }, 2000);
    return () => clearInterval(t);
  }, [active, revalidator]);
  useEffect(() => setBox(null), [image]);

  const needsImage = tool.id !== "train-product" && tool.id !== "train-admin";
  const needsBox = tool.id === "remove-object" || tool.id === "fill";
  const ready = capability.supported && (tool.id === "train-admin" ? !!clone : !!data.product && (!needsImage || !!image) && (!needsBox || !!box) && (tool.id !== "edit" || !!prompt.trim()));
  const submitRun = () => {
    const fd = new FormData();
    fd.set("intent", "run");
    fd.set("tool", tool.id);
    fd.set("model", model);
    if (data.product) fd.set("product", data.product.id);
    if (image) fd.set("image", image);
    if (prompt.trim()) fd.set("prompt", prompt.trim());
    if (scene.trim()) fd.set("scene", scene.trim());
    if (box) fd.set("box", JSON.stringify(box));
    if (clone) fd.set("clone", clone);
    if (trigger.trim()) fd.set("trigger_word", trigger.trim());
    run.submit(fd, { method: "post" });
  };
  const req = data.request;
  const resultUrl = req?.images[0] ?? null;
  const runError = run.state === "idle" && run.data && !run.data.ok ? run.data.error : null;
  const uploadError = upload.state === "idle" && upload.data && !upload.data.ok ? upload.data.error : null;
  const resultMessage = result.state === "idle" && result.data ? result.data : null;
  const sendResult = (intent: "propose" | "add" | "cancel") => {
    const fd = new FormData();
    fd.set("intent", intent);
    fd.set("request", req!.id);
    if (resultUrl) fd.set("result", resultUrl);
    if (data.product) fd.set("product", data.product.id);
    if (req?.sourceUrl) fd.set("source", req.sourceUrl);
    result.submit(fd, { method: "post" });
  };

  const toolOptions = useMemo(() => TOOLS.map((t) => ({ label: t.label, value: t.id })), []);

  return (
    <Page title="AI image tools" secondaryActions={[{ content: "Proposed edits", url: "/app/proposed-edits" }]}>
      <Layout>
        <Layout.Section>
          <Card>
            <BlockStack gap="400">
              <InlineGrid columns={{ xs: 1, md: 2 }} gap="400">
                <Select
                  label="Tool"
                  options={toolOptions}
                  value={tool.id}
                  onChange={(v) => {
                    setParams({ tool: v, request: null });
                    setBox(null);
                  }}
                />
                {tool.id === "edit" ? (
                  <Select
                    label="Model"
                    options={EDIT_MODELS.map((m) => ({ label: `${m.label}${data.capabilities[m.op].supported ? "" : " (needs fal)"}`, value: m.op }))}
                    value={model}
                    onChange={(v) => {
                      setModel(v);
                      setParams({ model: v });
                    }}
                  />
                ) : null}
              </InlineGrid>
              <Text as="p" tone="subdued">
                {tool.help} Runs on the {capability.provider} provider.
              </Text>
              {!capability.supported ? (
                <Banner tone="warning" title={`${tool.label} needs the ${capability.provider === "fal" ? "local" : "fal"} image provider`}>
                  <p data-testid="needs-provider">{capability.message}</p>
                </Banner>
              ) : null}
            </BlockStack>
          </Card>
        </Layout.Section>

        {tool.id === "train-admin" ? (
          <Layout.Section>
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  Admin model
                </Text>
                {data.clones.length ? (
                  <FormLayout>
                    <Select label="Model to train" options={data.clones.map((c) => ({ label: `${c.name} (${c.photos} photos, ${c.status.toLowerCase().replace(/_/g, " ")})`, value: c.id }))} value={clone} onChange={setClone} />
                    <TextField label="Trigger word" value={trigger} onChange={setTrigger} autoComplete="off" helpText="Optional: letters, digits and underscores; a default is made from the model's id." />
                  </FormLayout>
                ) : (
                  <Text as="p">
                    No admin models yet. <Link to="/app/clones">Create one</Link> with at least 4 base photos.
                  </Text>
                )}
              </BlockStack>
            </Card>
          </Layout.Section>
        ) : (
          <Layout.Section>
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  Product {needsImage ? "and image" : ""}
                </Text>
                <InlineStack gap="200" blockAlign="end">
                  <div style={{ flex: 1 }}>
                    <TextField
                      label="Find a product"
                      value={query}
                      onChange={setQuery}
                      autoComplete="off"
                      placeholder="Title, handle, vendor or id"
                      connectedRight={<Button onClick={() => setParams({ q: query.trim() || null })}>Search</Button>}
                    />
                  </div>
                </InlineStack>
                <InlineStack gap="200" wrap>
                  {data.products.map((p) => (
                    <Button key={p.id} pressed={data.product?.id === p.id} onClick={() => setParams({ product: p.id, image: null, request: null })} accessibilityLabel={`Choose ${p.title}`}>
                      {p.title}
                    </Button>
                  ))}
                  {data.products.length === 0 ? <Text as="span" tone="subdued">No products match.</Text> : null}
                </InlineStack>
                {data.product ? (
                  <BlockStack gap="200">
                    <Text as="p" fontWeight="semibold">
                      {data.product.title}
                    </Text>
                    {needsImage ? (
                      <InlineStack gap="200" wrap>
                        {data.product.images.map((i, n) => (
                          <button
                            key={i.id}
                            type="button"
                            onClick={() => setParams({ image: i.url })}
                            aria-label={`Use image ${n + 1}`}
                            aria-pressed={image === i.url}
                            style={{ padding: 0, border: image === i.url ? "3px solid var(--p-color-border-emphasis)" : "1px solid var(--p-color-border)", borderRadius: 8, background: "none", cursor: "pointer" }}
                          >
                            <img src={i.url} alt={i.altText ?? `Image ${n + 1}`} style={{ width: 72, height: 72, objectFit: "cover", borderRadius: 6, display: "block" }} />
                          </button>
                        ))}
                        <upload.Form method="post" encType="multipart/form-data">
                          <input type="hidden" name="intent" value="upload" />
                          <input
                            ref={fileInput}
                            type="file"
                            name="file"
                            accept="image/jpeg,image/png,image/webp"
                            aria-label="Upload an image"
                            style={{ display: "none" }}
                            onChange={(e) => {
                              if (e.currentTarget.files?.length) upload.submit(e.currentTarget.form);
                            }}
                          />
                          <Button onClick={() => fileInput.current?.click()} loading={upload.state !== "idle"}>
                            Upload an image
                          </Button>
                        </upload.Form>
                      </InlineStack>
                    ) : (
                      <Text as="p" tone="subdued">
                        Trains on the product's {data.product.images.length} {data.product.images.length === 1 ? "image" : "images"}.
                      </Text>
                    )}
                    {uploadError ? <Banner tone="critical">{uploadError}</Banner> : null}
                  </BlockStack>
                ) : (
                  <Text as="p" tone="subdued">
                    Choose a product.
                  </Text>
                )}
              </BlockStack>
            </Card>
          </Layout.Section>
        )}

        {needsImage && image ? (
          <Layout.Section>
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  Inputs
                </Text>
                <InlineStack gap="400" blockAlign="start" wrap>
                  <ImageWithBox url={image} box={box} onBox={setBox} drawing={needsBox} />
                  <div style={{ minWidth: 280, flex: 1 }}>
                    <FormLayout>
                      {tool.id === "product-shot" ? <TextField label="Scene" value={scene} onChange={setScene} autoComplete="off" helpText="studio, marble table, beach…" /> : null}
                      {tool.id === "edit" || tool.id === "fill" ? (
                        <TextField label="Prompt" value={prompt} onChange={setPrompt} multiline={3} autoComplete="off" helpText={tool.id === "fill" ? "Optional: what to paint in the box." : "What should change?"} />
                      ) : null}
                      {needsBox ? (
                        <Text as="p" tone={box ? undefined : "subdued"} data-testid="box-value">
                          {box ? `Box: ${box.width}×${box.height} px at ${box.x}, ${box.y}` : "Drag across the image to draw the box."}
                        </Text>
                      ) : null}
                    </FormLayout>
                  </div>
                </InlineStack>
              </BlockStack>
            </Card>
          </Layout.Section>
        ) : null}

        {tool.id === "train-product" && data.product ? (
          <Layout.Section>
            <Card>
              <TextField label="Trigger word" value={trigger} onChange={setTrigger} autoComplete="off" helpText="Optional: letters, digits and underscores; a default is made from the product's handle." />
            </Card>
          </Layout.Section>
        ) : null}

        <Layout.Section>
          <InlineStack gap="200" align="end">
            <Button variant="primary" onClick={submitRun} disabled={!ready || active} loading={run.state !== "idle"}>
              Run
            </Button>
          </InlineStack>
          {runError ? (
            <Box paddingBlockStart="200">
              <Banner tone="critical">{runError}</Banner>
            </Box>
          ) : null}
        </Layout.Section>

        {req ? (
          <Layout.Section>
            <Card>
              <BlockStack gap="300">
                <InlineStack gap="200" blockAlign="center" align="space-between">
                  <InlineStack gap="200" blockAlign="center">
                    <Text as="h2" variant="headingMd">
                      Result
                    </Text>
                    <span data-testid="request-status">
                      <Badge tone={STATUS_TONE[req.status]}>{STATUS_LABEL[req.status] ?? req.status}</Badge>
                    </span>
                    <Text as="span" tone="subdued">
                      {req.operation} on {req.provider}
                    </Text>
                  </InlineStack>
                  {active ? (
                    <Button onClick={() => sendResult("cancel")} loading={result.state !== "idle"}>
                      Cancel
                    </Button>
                  ) : null}
                </InlineStack>
                {active || req.status === "completed" ? (
                  <div data-testid="progress">
                    <ProgressBar progress={req.status === "completed" ? 100 : req.progress} size="small" tone={req.status === "completed" ? "success" : "highlight"} />
                    <Text as="p" tone="subdued" variant="bodySm">
                      {req.message ?? ""} {req.status !== "completed" ? `(${req.progress}%)` : ""}
                    </Text>
                  </div>
                ) : null}
                {req.status === "failed" || req.status === "cancelled" ? <Banner tone="critical">{req.error ?? "The request failed"}</Banner> : null}
                {req.status === "completed" && resultUrl ? (
                  <BlockStack gap="300">
                    <div data-testid="result-compare">
                      <InlineStack gap="400" blockAlign="center" wrap>
                        <Picture url={req.sourceUrl} label="Before" />
                        <Text as="span" tone="subdued">
                          →
                        </Text>
                        <Picture url={resultUrl} label="After" />
                      </InlineStack>
                    </div>
                    <InlineStack gap="200">
                      <Button variant="primary" onClick={() => sendResult("propose")} disabled={!data.product || !data.canPropose} loading={result.state !== "idle" && result.formData?.get("intent") === "propose"}>
                        Send to proposed edits
                      </Button>
                      <Button onClick={() => sendResult("add")} disabled={!data.product} loading={result.state !== "idle" && result.formData?.get("intent") === "add"}>
                        Add to product images
                      </Button>
                    </InlineStack>
                    {!data.canPropose ? <Text as="p" tone="subdued">Sending to proposed edits needs the media.manage permission.</Text> : null}
                  </BlockStack>
                ) : null}
                {req.status === "completed" && !resultUrl && req.prepared ? (
                  <Text as="p">
                    Prepared {req.prepared.filter((p) => p.ok).length} of {req.prepared.length} photos for training.
                  </Text>
                ) : null}
                {resultMessage ? (
                  resultMessage.ok ? (
                    <Banner tone="success" title={"message" in resultMessage ? resultMessage.message : "Done"}>
                      {resultMessage.intent === "propose" ? <Link to="/app/proposed-edits">Review it in Proposed edits</Link> : null}
                    </Banner>
                  ) : (
                    <Banner tone="critical">{resultMessage.error}</Banner>
                  )
                ) : null}
              </BlockStack>
            </Card>
          </Layout.Section>
        ) : null}
      </Layout>
    </Page>
  );
}
