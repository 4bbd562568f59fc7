/**
 * Uploaded images (issue 19): every upload people made for ad requests, reviews and product
 * requests, newest first, with a purpose filter, what still uses each one, and the edits the API
 * offers (rotate, background removal, delete; crop and replace stay API calls). Same service and
 * zod query as GET /api/uploaded-images?all=true; media.manage only.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigate, useNavigation } from "@remix-run/react";
import { BlockStack, Box, Button, Card, InlineStack, Layout, Page, Select, Text, Thumbnail } from "@shopify/polaris";
import { z } from "zod";
import { ActionBanner } from "~/components/admin/ActionBanner";
import { CursorFooter, cursorParams } from "~/components/admin/CursorFooter";
import { ResponsiveCell, ResponsiveIndexTable, ResponsiveRow } from "~/components/admin/ResponsiveIndexTable";
import { RotateBody, UploadedImagesQuery } from "~/contract/uploaded-images";
import { getAppContext } from "~/context.server";
import { answerRefusals, issuesMessage, refusalOf } from "~/lib/admin-route.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { staffError } from "~/lib/staff-errors";
import { deleteUploadedImage, listUploadedImages, removeUploadedImageBackground, rotateUploadedImage } from "~/services/uploaded-image-edits.server";

const PURPOSES = ["ad_request", "review", "product_request"] as const;
const PURPOSE_LABEL: Record<string, string> = { ad_request: "Ad request", review: "Review", product_request: "Product request" };

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { user } = await requireAdmin(request, "media.manage");
  const sp = new URL(request.url).searchParams;
  const { cursor, trail } = cursorParams(sp);
  const parsed = UploadedImagesQuery.safeParse({ all: true, purpose: sp.get("purpose") || undefined, cursor: cursor ?? undefined });
  if (!parsed.success) throw staffError(400, issuesMessage(parsed.error));
  try {
    const page = await listUploadedImages(getAppContext().db, { userId: user.id, admin: true }, parsed.data);
    return { purpose: parsed.data.purpose ?? "", items: page.items, nextCursor: page.nextCursor, cursor, trail };
  } catch (e) {
    const refusal = refusalOf(e);
    throw staffError(refusal.status, refusal.message);
  }
};

const Intent = z.enum(["rotate", "remove-background", "delete"]);

export const action = async ({ request }: ActionFunctionArgs) => {
  const { user } = await requireAdmin(request, "media.manage");
  const ctx = getAppContext();
  const viewer = { userId: user.id, admin: true };
  const form = await request.formData();
  const intent = Intent.safeParse(form.get("intent"));
  if (!intent.success) return { ok: false as const, error: "Unknown action" };
  const id = String(form.get("id") ?? "");
  return answerRefusals(async () => {
    if (intent.data === "rotate") {
      const body = RotateBody.safeParse({ degrees: Number(form.get("degrees")) });
      if (!body.success) return { ok: false as const, error: issuesMessage(body.error) };
      const r = await rotateUploadedImage(ctx, viewer, id, body.data.degrees);
      return { ok: true as const, message: `Rotated (version ${r.version})` };
    }
    if (intent.data === "remove-background") {
      const r = await removeUploadedImageBackground(ctx, viewer, id, "#ffffff");
      return { ok: true as const, message: `Background removed (version ${r.version})` };
    }
    await deleteUploadedImage(ctx, viewer, id);
    return { ok: true as const, message: "Deleted" };
  });
};

function Act({ id, intent, label, extra, tone }: { id: string; intent: string; label: string; extra?: Record<string, string>; tone?: "critical" }) {
  const nav = useNavigation();
  const busy = nav.formData?.get("id") === id && nav.formData?.get("intent") === intent;
  return (
    <Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      {Object.entries(extra ?? {}).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <Button submit size="slim" tone={tone} loading={busy}>
        {label}
      </Button>
    </Form>
  );
}

export default function UploadsPage() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigate = useNavigate();
  return (
    <Page title="Uploaded images" subtitle="Photos uploaded for ad requests, reviews and product requests. Edits keep the image's address, so whatever uses it shows the new picture.">
      <Layout>
        {result ? (
          <Layout.Section>
            <ActionBanner result={result} testId="uploads-result" />
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <Card padding="0">
            <Box padding="300">
              <Select
                label="Uploaded for"
                labelInline
                options={[{ label: "Anything", value: "" }, ...PURPOSES.map((p) => ({ label: PURPOSE_LABEL[p], value: p }))]}
                value={data.purpose}
                onChange={(v) => navigate(v ? `/app/uploads?purpose=${v}` : "/app/uploads")}
              />
            </Box>
            <ResponsiveIndexTable
              resourceName={{ singular: "image", plural: "images" }}
              itemCount={data.items.length}
              selectable={false}
              headings={[{ title: "Image" }, { title: "Uploaded for" }, { title: "Used by" }, { title: "Size" }, { title: "Actions" }]}
              emptyState={
                <Box padding="400">
                  <Text as="p" tone="subdued">
                    <span data-testid="uploads-empty">No uploaded image yet.</span>
                  </Text>
                </Box>
              }
            >
              {data.items.map((img, i) => (
                <ResponsiveRow id={img.id} key={img.id} position={i}>
                  <ResponsiveCell>
                    <InlineStack gap="200" blockAlign="center" wrap={false}>
                      {/* The versioned address: a cached copy of the previous version is not shown after an edit. */}
                      <Thumbnail size="medium" source={img.versioned_url} alt="" />
                      <BlockStack gap="050">
                        <Text as="span" variant="bodySm">
                          {img.created_at.slice(0, 10)}
                        </Text>
                        <Text as="span" tone="subdued" variant="bodySm">
                          Version {img.version}
                        </Text>
                      </BlockStack>
                    </InlineStack>
                  </ResponsiveCell>
                  <ResponsiveCell>{PURPOSE_LABEL[img.purpose] ?? img.purpose}</ResponsiveCell>
                  <ResponsiveCell>{img.used_by.length ? img.used_by.join(", ") : "Nothing"}</ResponsiveCell>
                  <ResponsiveCell>
                    <Text as="span" numeric>
                      {img.width && img.height ? `${img.width}×${img.height}` : "—"} · {Math.round(img.size_bytes / 1024)} kB
                    </Text>
                  </ResponsiveCell>
                  <ResponsiveCell>
                    <InlineStack gap="100">
                      <Act id={img.id} intent="rotate" label="Rotate ↻" extra={{ degrees: "90" }} />
                      <Act id={img.id} intent="remove-background" label="Remove background" />
                      {img.used_by.length ? null : <Act id={img.id} intent="delete" label="Delete" tone="critical" />}
                    </InlineStack>
                  </ResponsiveCell>
                </ResponsiveRow>
              ))}
            </ResponsiveIndexTable>
            <CursorFooter summary={`${data.items.length} image${data.items.length === 1 ? "" : "s"} on this page`} cursor={data.cursor} trail={data.trail} nextCursor={data.nextCursor} />
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
