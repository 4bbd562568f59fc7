/**
 * Internal media: a grid of thumbnails, filtered by type and by colour (a colour input turned
 * into CIELAB for the similar_to_color query, nearest first by CIEDE2000), uploads with a drop
 * zone and progress, delete with confirmation. Same services and zod schemas as /api/internal-media.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useFetcher, useLoaderData, useRevalidator, useSearchParams } from "@remix-run/react";
import { Badge, Banner, BlockStack, Box, Button, Card, DropZone, InlineGrid, InlineStack, Layout, Modal, Page, Pagination, ProgressBar, RangeSlider, Select, Text } from "@shopify/polaris";
import { useCallback, useEffect, useState } from "react";
import { internalMediaEndpoints } from "~/contract/internal-media";
import { getAppContext } from "~/context.server";
import { answerRefusals } from "~/lib/admin-route.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { hexToLab, roundLab } from "~/services/color.server";
import { deleteInternalMedia, listInternalMedia } from "~/services/internal-media.server";
import { formOf } from "~/lib/body-limit.server";
import { thumbnailUrl } from "~/client/images";

const PAGE = 24;

export const loader = async ({ request }: LoaderFunctionArgs) => {
  await requireAdmin(request, "media.manage");
  const ctx = getAppContext();
  const sp = new URL(request.url).searchParams;
  const color = sp.get("color");
  const lab = color ? hexToLab(color) : null;
  const threshold = sp.get("threshold") ?? "10";
  const parsed = internalMediaEndpoints.internalMediaList.query.safeParse({
    type: sp.get("type") || undefined,
    page: sp.get("page") ?? "1",
    limit: PAGE,
    similar_to_color: lab ? { ...lab, threshold } : undefined,
  });
  const query = parsed.success ? parsed.data : internalMediaEndpoints.internalMediaList.query.parse({ limit: PAGE });
  const result = await listInternalMedia(ctx.db, query);
  return {
    filter: { color: lab ? color : null, lab: lab ? roundLab(lab) : null, threshold: query.similar_to_color?.threshold ?? 10, type: query.type ?? "" },
    error: parsed.success ? null : parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "),
    page: { page: result.page, total: result.total, totalPages: result.totalPages },
    media: result.media.map((m) => ({ ...m, created_at: new Date(m.created_at).toISOString(), updated_at: new Date(m.updated_at).toISOString() })),
  };
};

type ActionResult = { ok: true; message: string } | { ok: false; error: string };

export const action = async ({ request }: ActionFunctionArgs): Promise<ActionResult> => {
  await requireAdmin(request, "media.manage");
  const form = await formOf(request);
  if (form.get("intent") !== "delete") return { ok: false, error: "Unknown action" };
  return answerRefusals(async () => {
    await deleteInternalMedia(getAppContext(), String(form.get("id") ?? ""));
    return { ok: true, message: "Deleted." };
  });
};

type Upload = { name: string; progress: number; error?: string; done?: boolean };

/**
 * Inside the Shopify admin, App Bridge adds the session token to `fetch` calls only, not to
 * XMLHttpRequest: ask it for the token (none in local mode, where the session cookie is used).
 */
async function sessionToken(): Promise<string | null> {
  const bridge = (globalThis as { shopify?: { idToken?: () => Promise<string> } }).shopify;
  if (typeof bridge?.idToken !== "function") return null;
  return bridge.idToken().catch(() => null);
}

/** Sends one file with XMLHttpRequest (fetch cannot report upload progress). */
async function sendFile(file: File, onProgress: (p: number) => void): Promise<{ ok: boolean; error?: string }> {
  const token = await sessionToken();
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/app/media/upload");
    if (token) xhr.setRequestHeader("Authorization", `Bearer ${token}`);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(Math.round((e.loaded / e.total) * 100));
    xhr.onload = () => {
      let body: { ok?: boolean; error?: string; staffError?: string } = {};
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        /* not JSON */
      }
      resolve(xhr.status < 300 && body.ok ? { ok: true } : { ok: false, error: body.error ?? body.staffError ?? `Upload failed (HTTP ${xhr.status})` });
    };
    xhr.onerror = () => resolve({ ok: false, error: "The upload was interrupted; check the connection and try again" });
    const fd = new FormData();
    fd.append("file", file);
    xhr.send(fd);
  });
}

type MediaItem = ReturnType<typeof useLoaderData<typeof loader>>["media"][number];

export default function InternalMedia() {
  const { media, page, filter, error } = useLoaderData<typeof loader>();
  const [params, setParams] = useSearchParams();
  const revalidator = useRevalidator();
  const deleter = useFetcher<typeof action>();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [color, setColor] = useState(filter.color ?? "#c81e1e");
  const [threshold, setThreshold] = useState(filter.threshold);
  const [deleting, setDeleting] = useState<MediaItem | null>(null);
  useEffect(() => {
    if (deleter.state === "idle" && deleter.data) setDeleting(null);
  }, [deleter.state, deleter.data]);

  const set = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) (v ? next.set(k, v) : next.delete(k));
    if (!("page" in changes)) next.delete("page");
    setParams(next);
  };

  const onDrop = useCallback(
    async (_all: File[], accepted: File[], rejected: File[]) => {
      const list: Upload[] = [
        ...accepted.map((f) => ({ name: f.name, progress: 0 })),
        ...rejected.map((f) => ({ name: f.name, progress: 0, error: "Not a JPEG, PNG or WebP image" })),
      ];
      setUploads(list);
      for (const [i, file] of accepted.entries()) {
        const r = await sendFile(file, (p) => setUploads((u) => u.map((x, j) => (j === i ? { ...x, progress: p } : x))));
        setUploads((u) => u.map((x, j) => (j === i ? { ...x, progress: 100, done: r.ok, error: r.error } : x)));
      }
      revalidator.revalidate();
    },
    [revalidator],
  );

  return (
    <Page title="Internal media" subtitle={`${page.total} item${page.total === 1 ? "" : "s"}${filter.lab ? " matching the colour" : ""}`}>
      <Layout>
        {error ? (
          <Layout.Section>
            <Banner tone="warning">{error}</Banner>
          </Layout.Section>
        ) : null}
        {deleter.data && !deleter.data.ok ? (
          <Layout.Section>
            <Banner tone="critical">{deleter.data.error}</Banner>
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <Card>
            <BlockStack gap="300">
              <DropZone accept="image/jpeg,image/png,image/webp" type="image" allowMultiple onDrop={onDrop} label="Upload images" labelHidden>
                <DropZone.FileUpload actionTitle="Upload images" actionHint="JPEG, PNG or WebP, up to 10 MB and 40 megapixels; stored as JPEG without metadata" />
              </DropZone>
              {uploads.map((u, i) => (
                <BlockStack key={`${u.name}-${i}`} gap="100">
                  <InlineStack align="space-between">
                    <Text as="span">{u.name}</Text>
                    {u.done ? <Badge tone="success">Uploaded</Badge> : u.error ? <Badge tone="critical">Failed</Badge> : <Text as="span">{u.progress}%</Text>}
                  </InlineStack>
                  {u.error ? (
                    <Banner tone="critical">
                      <span data-testid="upload-error">{u.error}</span>
                    </Banner>
                  ) : (
                    <ProgressBar progress={u.progress} size="small" tone={u.done ? "success" : "highlight"} />
                  )}
                </BlockStack>
              ))}
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
          <Card>
            <InlineStack gap="400" blockAlign="end" wrap>
              <BlockStack gap="100">
                <label htmlFor="media-colour">
                  <Text as="span">Colour</Text>
                </label>
                <input id="media-colour" data-testid="colour-input" type="color" value={color} onChange={(e) => setColor(e.target.value)} style={{ width: 56, height: 36, padding: 0, border: "1px solid #c9cccf", borderRadius: 8 }} />
              </BlockStack>
              <div style={{ width: 220 }}>
                <RangeSlider label={`Closeness (ΔE00 ≤ ${threshold})`} min={1} max={50} value={threshold} onChange={(v) => setThreshold(Number(v))} output />
              </div>
              <Button onClick={() => set({ color, threshold: String(threshold) })}>Filter by colour</Button>
              {filter.lab ? <Button variant="plain" onClick={() => set({ color: undefined, threshold: undefined })}>Clear colour</Button> : null}
              <Select
                label="Type"
                labelInline
                options={[{ label: "All", value: "" }, { label: "Images", value: "image" }, { label: "Videos", value: "video" }]}
                value={filter.type}
                onChange={(type) => set({ type: type || undefined })}
              />
            </InlineStack>
            {filter.lab ? (
              <Box paddingBlockStart="200">
                <InlineStack gap="200" blockAlign="center">
                  <span aria-hidden style={{ display: "inline-block", width: 16, height: 16, borderRadius: 4, background: filter.color ?? undefined, border: "1px solid #c9cccf" }} />
                  <Text as="span" tone="subdued">
                    <span data-testid="colour-lab">{`L ${filter.lab.l} · a ${filter.lab.a} · b ${filter.lab.b}`}</span> — nearest first (CIEDE2000)
                  </Text>
                </InlineStack>
              </Box>
            ) : null}
          </Card>
        </Layout.Section>
        <Layout.Section>
          {media.length === 0 ? (
            <Card>
              {page.total > 0 ? (
                <InlineStack gap="200" blockAlign="center">
                  <Text as="p" tone="subdued">
                    {`Nothing on page ${page.page}: the list has ${page.totalPages} page${page.totalPages === 1 ? "" : "s"}.`}
                  </Text>
                  <Button variant="plain" onClick={() => set({ page: "1" })}>
                    Go to the first page
                  </Button>
                </InlineStack>
              ) : (
                <Text as="p" tone="subdued">
                  {filter.lab ? "Nothing close to this colour: widen the closeness or pick another colour." : "No media yet: drop images above to upload them."}
                </Text>
              )}
            </Card>
          ) : (
            <InlineGrid columns={{ xs: 2, sm: 3, md: 4, lg: 6 }} gap="300">
              {media.map((m) => (
                <Card key={m.id} padding="200">
                  <BlockStack gap="150">
                    <div data-testid="media-tile" style={{ aspectRatio: "1 / 1", borderRadius: 8, overflow: "hidden", background: "#f1f1f1" }}>
                      {m.type === "image" ? <img src={thumbnailUrl(m.url, 320)} alt={m.title ?? "Internal image"} loading="lazy" style={{ width: "100%", height: "100%", objectFit: "cover" }} /> : null}
                    </div>
                    <Text as="p" variant="bodySm" truncate>
                      {m.title ?? "Untitled"}
                    </Text>
                    <InlineStack gap="100" blockAlign="center" wrap={false}>
                      {m.color ? <span aria-hidden style={{ width: 12, height: 12, borderRadius: 3, background: m.color.hex, border: "1px solid #c9cccf", flex: "none" }} /> : null}
                      <Text as="span" variant="bodySm" tone="subdued">
                        {m.color?.hex ?? "—"} · {m.width}×{m.height}
                        {m.distance !== null ? ` · ΔE ${m.distance}` : ""}
                      </Text>
                    </InlineStack>
                    <Button size="slim" variant="plain" tone="critical" onClick={() => setDeleting(m)} accessibilityLabel={`Delete ${m.title ?? "media"}`}>
                      Delete
                    </Button>
                  </BlockStack>
                </Card>
              ))}
            </InlineGrid>
          )}
          {page.totalPages > 1 ? (
            <Box paddingBlockStart="300">
              <InlineStack align="center">
                <Pagination
                  hasPrevious={page.page > 1}
                  onPrevious={() => set({ page: String(page.page - 1) })}
                  hasNext={page.page < page.totalPages}
                  onNext={() => set({ page: String(page.page + 1) })}
                  label={`Page ${page.page} of ${page.totalPages}`}
                />
              </InlineStack>
            </Box>
          ) : null}
        </Layout.Section>
      </Layout>
      <Modal
        open={!!deleting}
        onClose={() => setDeleting(null)}
        title="Delete this media?"
        primaryAction={{ content: "Delete", destructive: true, loading: deleter.state !== "idle", onAction: () => deleting && deleter.submit({ intent: "delete", id: deleting.id }, { method: "post" }) }}
        secondaryActions={[{ content: "Cancel", onAction: () => setDeleting(null) }]}
      >
        <Modal.Section>
          <Text as="p">{`“${deleting?.title ?? "Untitled"}” and its stored file are removed for good.`}</Text>
        </Modal.Section>
      </Modal>
    </Page>
  );
}
