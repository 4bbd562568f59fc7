/**
 * AI models (admin clones): the public clones shoppers can try clothes on and the house models,
 * with their training state; create one (name, gender, base photos uploaded here, public or not,
 * train now or use the photos as they are), train it, make it public or private, delete it (with
 * confirmation). Same services as /api/clones (app/services/clones), permission ai.train.
 */
import { useEffect, useRef, useState } from "react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useFetcher, useLoaderData, useRevalidator } from "@remix-run/react";
import { Badge, BlockStack, Box, Button, Card, Checkbox, FormLayout, InlineStack, Layout, Page, ProgressBar, Select, Text, TextField, Thumbnail } from "@shopify/polaris";
import { ResponsiveCell, ResponsiveIndexTable, ResponsiveRow } from "~/components/admin/ResponsiveIndexTable";
import { z } from "zod";
import { CLONE_MIN_PHOTOS, CloneGenderSchema } from "~/contract/clones";
import { getAppContext } from "~/context.server";
import { toApiError } from "~/api/router.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { createAdminClone, deleteClone, listClones, startCloneTraining, updateClone } from "~/services/clones/index.server";
import { storeToolUpload } from "~/services/ai-tools.server";
import { ActionBannerSection, ConfirmModal, useFetcherResult, useRowAction } from "~/components/admin";
import { formOf, MAX_REQUEST_BODY_BYTES } from "~/lib/body-limit.server";
import { thumbnailUrl } from "~/client/images";

const MAX_PHOTOS = 40;

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { user } = await requireAdmin(request, "ai.train");
  const ctx = getAppContext();
  const { clones } = await listClones(ctx, { userId: user.id, isAdmin: true }, { limit: 100 });
  return {
    clones: clones
      .filter((c) => c.user_id === null && !c.is_product_clone)
      .map((c) => ({
        id: c.id,
        name: c.name,
        gender: c.gender,
        isPublic: c.isPublic,
        profileImageUrl: c.profileImageUrl,
        photos: c.baseImageUrls.length,
        status: c.processing_status,
        progress: c.processing_progress,
        trained: !!c.lora_url,
        trigger_word: c.trigger_word,
        jobError: c.training_job?.error ?? null,
        created_at: c.created_at,
      })),
  };
};

type ActionResult = { ok: true; message: string; intent: string } | { ok: false; error: string; intent: string };

const CreateForm = z.object({
  name: z.string().trim().min(1, "Give the model a name").max(100, "The name is at most 100 characters"),
  gender: CloneGenderSchema,
  isPublic: z.boolean(),
  train: z.boolean(),
});

export const action = async ({ request }: ActionFunctionArgs): Promise<ActionResult> => {
  const { user } = await requireAdmin(request, "ai.train");
  const ctx = getAppContext();
  const caller = { userId: user.id, isAdmin: true };
  const form = await formOf(request, MAX_REQUEST_BODY_BYTES);
  const intent = String(form.get("intent"));
  try {
    if (intent === "create") {
      const parsed = CreateForm.safeParse({ name: form.get("name"), gender: form.get("gender"), isPublic: form.get("isPublic") === "true", train: form.get("train") === "true" });
      if (!parsed.success) return { ok: false, intent, error: parsed.error.issues[0]?.message ?? "Check the form" };
      const files = form.getAll("photos").filter((f): f is File => f instanceof Blob && f.size > 0);
      if (files.length === 0) return { ok: false, intent, error: "Upload the model's base photos" };
      if (files.length > MAX_PHOTOS) return { ok: false, intent, error: `At most ${MAX_PHOTOS} photos` };
      if (parsed.data.train && files.length < CLONE_MIN_PHOTOS) return { ok: false, intent, error: `Training needs at least ${CLONE_MIN_PHOTOS} photos (${files.length} uploaded)` };
      const urls: string[] = [];
      for (const f of files) urls.push(await storeToolUpload(ctx, f, "images/clones/admin/"));
      const { clone, job } = await createAdminClone(ctx, caller, { ...parsed.data, baseImageUrls: urls });
      return { ok: true, intent, message: `${clone.name} created${job ? "; training started" : ""}.` };
    }
    const id = String(form.get("id") ?? "");
    if (!id) return { ok: false, intent, error: "Which model?" };
    if (intent === "train") {
      await startCloneTraining(ctx, { ...caller, cloneId: id, kind: "admin" });
      return { ok: true, intent, message: "Training started." };
    }
    if (intent === "public" || intent === "private") {
      const c = await updateClone(ctx, { ...caller, cloneId: id }, { isPublic: intent === "public" });
      return { ok: true, intent, message: `${c.name} is now ${c.isPublic ? "public: shoppers can try clothes on it" : "private"}.` };
    }
    if (intent === "delete") {
      await deleteClone(ctx, { ...caller, cloneId: id });
      return { ok: true, intent, message: "Model deleted." };
    }
    return { ok: false, intent, error: "Unknown action" };
  } catch (e) {
    const err = toApiError(e);
    if (err.status === 500) throw e;
    return { ok: false, intent, error: err.message };
  }
};

const STATUS: Record<string, { label: string; tone?: "success" | "attention" | "critical" | "info" }> = {
  PENDING: { label: "Not trained", tone: "info" },
  PROCESSING_IMAGES: { label: "Training", tone: "attention" },
  READY: { label: "Ready", tone: "success" },
  ERROR: { label: "Error", tone: "critical" },
};

export default function Clones() {
  const { clones } = useLoaderData<typeof loader>();
  const create = useFetcher<typeof action>();
  const { fetcher: row, act, isBusy: busy } = useRowAction<typeof action>();
  const revalidator = useRevalidator();
  const [name, setName] = useState("");
  const [gender, setGender] = useState("womenswear");
  const [isPublic, setIsPublic] = useState(true);
  const [train, setTrain] = useState(true);
  const [files, setFiles] = useState<File[]>([]);
  const [deleting, setDeleting] = useState<{ id: string; name: string } | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const training = clones.some((c) => c.status === "PROCESSING_IMAGES");
  useEffect(() => {
    if (!training) return;
    const t = setInterval(() => revalidator.state === "idle" && revalidator.revalidate(), 2000);
    return () => clearInterval(t);
  }, [training, revalidator]);
  // The banner shows whichever of the two forms answered last.
  const [result, setResult] = useState<ActionResult | undefined>(undefined);
  useFetcherResult(create, (r) => {
    setResult(r);
    if (!r.ok) return;
    setName("");
    setFiles([]);
    if (fileInput.current) fileInput.current.value = "";
  });
  useFetcherResult(row, (r) => {
    setResult(r);
    if (r.ok) setDeleting(null);
  });

  const submitCreate = () => {
    const fd = new FormData();
    fd.set("intent", "create");
    fd.set("name", name);
    fd.set("gender", gender);
    fd.set("isPublic", String(isPublic));
    fd.set("train", String(train));
    for (const f of files) fd.append("photos", f);
    create.submit(fd, { method: "post", encType: "multipart/form-data" });
  };

  return (
    <Page title="AI models" subtitle="Public clones and house models" secondaryActions={[{ content: "AI image tools", url: "/app/ai-tools" }]}>
      <Layout>
        <ActionBannerSection result={result} />
        <Layout.Section>
          <Card padding="0">
            <ResponsiveIndexTable
              resourceName={{ singular: "model", plural: "models" }}
              itemCount={clones.length}
              selectable={false}
              headings={[{ title: "" }, { title: "Name" }, { title: "Photos" }, { title: "Status" }, { title: "Visibility" }, { title: "" }]}
              emptyState={
                <Box padding="600">
                  <Text as="p" alignment="center">
                    No admin models yet: create one below.
                  </Text>
                </Box>
              }
            >
              {clones.map((c, i) => (
                <ResponsiveRow key={c.id} id={c.id} position={i}>
                  <ResponsiveCell>
                    <Thumbnail size="small" source={thumbnailUrl(c.profileImageUrl)} alt={c.name} />
                  </ResponsiveCell>
                  <ResponsiveCell>
                    <BlockStack gap="050">
                      <Text as="span" fontWeight="semibold">
                        {c.name}
                      </Text>
                      <Text as="span" tone="subdued" variant="bodySm">
                        {c.gender ?? "—"}
                        {c.trigger_word ? ` · ${c.trigger_word}` : ""}
                      </Text>
                    </BlockStack>
                  </ResponsiveCell>
                  <ResponsiveCell>{c.photos}</ResponsiveCell>
                  <ResponsiveCell>
                    <BlockStack gap="100">
                      <Badge tone={STATUS[c.status]?.tone}>{STATUS[c.status]?.label ?? c.status}</Badge>
                      {c.status === "PROCESSING_IMAGES" ? (
                        <div style={{ width: 120 }}>
                          <ProgressBar progress={c.progress} size="small" />
                        </div>
                      ) : null}
                      {c.status === "ERROR" && c.jobError ? (
                        <Text as="span" tone="critical" variant="bodySm">
                          {c.jobError}
                        </Text>
                      ) : null}
                    </BlockStack>
                  </ResponsiveCell>
                  <ResponsiveCell>{c.isPublic ? <Badge tone="success">Public</Badge> : <Badge>House model</Badge>}</ResponsiveCell>
                  <ResponsiveCell>
                    <InlineStack gap="200" wrap={false}>
                      <Button size="slim" onClick={() => act("train", c.id)} disabled={c.status === "PROCESSING_IMAGES" || c.photos < CLONE_MIN_PHOTOS} loading={busy("train", c.id)} accessibilityLabel={`Train ${c.name}`}>
                        {c.trained ? "Retrain" : "Train"}
                      </Button>
                      <Button size="slim" onClick={() => act(c.isPublic ? "private" : "public", c.id)} loading={busy(c.isPublic ? "private" : "public", c.id)} accessibilityLabel={`${c.isPublic ? "Make private" : "Make public"} ${c.name}`}>
                        {c.isPublic ? "Make private" : "Make public"}
                      </Button>
                      <Button size="slim" tone="critical" variant="plain" onClick={() => setDeleting({ id: c.id, name: c.name })} accessibilityLabel={`Delete ${c.name}`}>
                        Delete
                      </Button>
                    </InlineStack>
                  </ResponsiveCell>
                </ResponsiveRow>
              ))}
            </ResponsiveIndexTable>
          </Card>
        </Layout.Section>
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <Text as="h2" variant="headingMd">
                New model
              </Text>
              <FormLayout>
                <FormLayout.Group>
                  <TextField label="Name" value={name} onChange={setName} autoComplete="off" maxLength={100} />
                  <Select
                    label="Gender"
                    options={[
                      { label: "Womenswear", value: "womenswear" },
                      { label: "Menswear", value: "menswear" },
                    ]}
                    value={gender}
                    onChange={setGender}
                  />
                </FormLayout.Group>
                <BlockStack gap="100">
                  <Text as="span">Base photos</Text>
                  <input
                    ref={fileInput}
                    type="file"
                    multiple
                    accept="image/jpeg,image/png,image/webp"
                    aria-label="Base photos"
                    onChange={(e) => setFiles(Array.from(e.currentTarget.files ?? []))}
                  />
                  <Text as="span" tone="subdued" variant="bodySm">
                    {files.length ? `${files.length} ${files.length === 1 ? "photo" : "photos"} chosen. ` : ""}Training needs at least {CLONE_MIN_PHOTOS} photos of one person, face visible.
                  </Text>
                </BlockStack>
                <Checkbox label="Public: shoppers can try clothes on this model" checked={isPublic} onChange={setIsPublic} />
                <Checkbox label="Train now" checked={train} onChange={setTrain} helpText="Otherwise the photos are used as they are." />
                <InlineStack align="end">
                  <Button variant="primary" onClick={submitCreate} disabled={!name.trim() || files.length === 0} loading={create.state !== "idle"}>
                    Create model
                  </Button>
                </InlineStack>
              </FormLayout>
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
      {deleting ? (
        <ConfirmModal title={`Delete ${deleting.name}?`} confirmLabel="Delete" loading={busy("delete", deleting.id)} onConfirm={() => act("delete", deleting.id)} onClose={() => setDeleting(null)}>
          <Text as="p">The model, its photos and the try-ons made with it are deleted. A running training is cancelled.</Text>
        </ConfirmModal>
      ) : null}
    </Page>
  );
}
