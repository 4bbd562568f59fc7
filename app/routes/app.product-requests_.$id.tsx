/**
 * A product request (issue 19): what the shopper asked for (brand, garment, link, photo, who),
 * the team's notes, the status moves the state machine allows now (sourced may name the product
 * it became; the shopper is emailed), and "Start a Taobao import": with a Taobao item link, the
 * import starts here into the chosen store (POST /api/product-requests/{id}/import's service);
 * with any other link, the import screen opens prefilled with it. catalog.import only.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Badge, BlockStack, Box, Button, Card, InlineStack, Layout, Link, Page, Select, Text, TextField, Thumbnail } from "@shopify/polaris";
import { useState } from "react";
import { PRODUCT_REQUEST_STATUS_LABELS, ProductRequestStatusSchema, type ProductRequestStatus } from "~/contract/product-requests";
import { getAppContext } from "~/context.server";
import type { ActionResult } from "~/lib/admin-list";
import { answerRefusals, orNotFound } from "~/lib/admin-route.server";
import { formOf } from "~/lib/body-limit.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { getProductRequest, importFromProductRequest, moveProductRequest, updateProductRequestNotes } from "~/services/product-requests.server";
import { importStoreOptions } from "~/services/taobao-import/jobs.server";
import { ActionBannerSection, useIntentFetcher } from "~/components/admin";
import { STATUS_TONE } from "./app.product-requests";

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  await requireAdmin(request, "catalog.import");
  const db = getAppContext().db;
  const req = await orNotFound("Product request not found", () => getProductRequest(db, params.id ?? ""));
  const stores = await importStoreOptions(db);
  return { request: req, stores };
};

const text = (form: FormData, key: string) => {
  const v = form.get(key);
  return typeof v === "string" ? v.trim() : undefined;
};

const MOVE_LABEL: Record<ProductRequestStatus, string> = { pending: "Back to pending", in_review: "Start review", sourced: "Mark sourced", declined: "Decline" };

export const action = async ({ request, params }: ActionFunctionArgs): Promise<ActionResult> => {
  await requireAdmin(request, "catalog.import");
  const ctx = getAppContext();
  const form = await formOf(request);
  const id = params.id ?? "";
  return answerRefusals<ActionResult>(async () => {
    switch (form.get("intent")) {
      case "notes": {
        const notes = (text(form, "notes") ?? "").slice(0, 5000);
        await updateProductRequestNotes(ctx.db, id, notes || null);
        return { ok: true, message: "Notes saved." };
      }
      case "move": {
        const status = ProductRequestStatusSchema.safeParse(text(form, "status"));
        if (!status.success) return { ok: false, error: "Unknown status" };
        const productId = text(form, "product_id");
        const r = await moveProductRequest(ctx, id, { status: status.data, product_id: productId || undefined });
        return { ok: true, message: r.status === "sourced" ? "Marked sourced: the shopper is emailed." : `Moved to ${PRODUCT_REQUEST_STATUS_LABELS[r.status].toLowerCase()}.` };
      }
      case "import": {
        const storeId = text(form, "store_id");
        if (!storeId) return { ok: false, error: "Choose the store to import into" };
        const r = await importFromProductRequest(ctx, id, storeId);
        return { ok: true, message: `Import started (${r.jobs} item${r.jobs === 1 ? "" : "s"}): follow it on the Taobao import screen.` };
      }
      default:
        return { ok: false, error: "Unknown action" };
    }
  });
};

export default function ProductRequestPage() {
  const { request: r, stores } = useLoaderData<typeof loader>();
  const { fetcher, submit, busyWith } = useIntentFetcher<typeof action>();
  const [notes, setNotes] = useState(r.notes ?? "");
  const [store, setStore] = useState("");
  const [productId, setProductId] = useState("");
  const [dismissed, setDismissed] = useState<unknown>(null);
  const result = fetcher.data && fetcher.data !== dismissed ? fetcher.data : null;
  const importUrl = r.link ? `/app/import?ids=${encodeURIComponent(r.link)}` : "/app/import";

  return (
    <Page
      title={`${r.brand}: ${r.garment}`}
      titleMetadata={
        <span data-testid="prq-detail-status" data-status={r.status}>
          <Badge tone={STATUS_TONE[r.status]}>{PRODUCT_REQUEST_STATUS_LABELS[r.status]}</Badge>
        </span>
      }
      backAction={{ content: "Product requests", url: "/app/product-requests" }}
    >
      <Layout>
        <ActionBannerSection result={result} testId="prq-notice" onDismiss={() => setDismissed(fetcher.data)} />
        <Layout.Section>
          <BlockStack gap="400">
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  What they asked for
                </Text>
                <InlineStack gap="400" blockAlign="start" wrap={false}>
                  {r.image_url ? <Thumbnail size="large" source={r.image_url} alt={`${r.brand} ${r.garment}`} /> : null}
                  <BlockStack gap="100">
                    <Text as="p">
                      <strong>Brand:</strong> {r.brand}
                    </Text>
                    <Text as="p">
                      <strong>Garment:</strong> {r.garment}
                    </Text>
                    <Text as="p">
                      <strong>Link:</strong>{" "}
                      {r.link ? (
                        <Link url={r.link} target="_blank">
                          {r.link}
                        </Link>
                      ) : (
                        "none"
                      )}{" "}
                      {r.taobao ? <Badge tone="info">Taobao item</Badge> : null}
                    </Text>
                    <Text as="p">
                      <strong>From:</strong> {r.user && r.user.auth_provider !== "guest" ? `${r.user.name} (${r.user.email ?? "no email"})` : `${r.email ?? "—"} (guest)`}
                    </Text>
                    <Text as="p" tone="subdued">
                      Asked {new Date(r.created_at).toUTCString()}
                      {r.status_changed_at ? ` · status changed ${new Date(r.status_changed_at).toUTCString()}` : ""}
                    </Text>
                    {r.product ? (
                      <Text as="p">
                        <strong>Sourced as:</strong> {r.product.title}
                      </Text>
                    ) : null}
                  </BlockStack>
                </InlineStack>
              </BlockStack>
            </Card>
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  Notes
                </Text>
                <TextField label="Notes" labelHidden multiline={4} autoComplete="off" value={notes} onChange={setNotes} maxLength={5000} />
                <InlineStack align="end">
                  <Button loading={busyWith("notes")} onClick={() => submit({ intent: "notes", notes })}>
                    Save notes
                  </Button>
                </InlineStack>
              </BlockStack>
            </Card>
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <BlockStack gap="400">
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  Status
                </Text>
                {r.next_statuses.length === 0 ? (
                  <Text as="p" tone="subdued">
                    Sourced: nothing more to do.
                  </Text>
                ) : null}
                {r.next_statuses.includes("sourced") ? (
                  <TextField label="Product it became (optional)" placeholder="gid://shopify/Product/…" autoComplete="off" value={productId} onChange={setProductId} helpText="Named in the shopper's email with a link." />
                ) : null}
                <InlineStack gap="200">
                  {r.next_statuses.map((s) => (
                    <Button
                      key={s}
                      variant={s === "sourced" ? "primary" : undefined}
                      tone={s === "declined" ? "critical" : undefined}
                      loading={busyWith("move") && fetcher.formData?.get("status") === s}
                      onClick={() => submit({ intent: "move", status: s, ...(s === "sourced" && productId.trim() ? { product_id: productId.trim() } : {}) })}
                    >
                      {MOVE_LABEL[s]}
                    </Button>
                  ))}
                </InlineStack>
              </BlockStack>
            </Card>
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  Start a Taobao import
                </Text>
                {r.taobao ? (
                  <>
                    <Select label="Into store" options={[{ value: "", label: "Choose a store" }, ...stores.map((s) => ({ value: s.id, label: s.name }))]} value={store} onChange={setStore} />
                    <Button variant="primary" disabled={!store} loading={busyWith("import")} onClick={() => submit({ intent: "import", store_id: store })}>
                      Start a Taobao import
                    </Button>
                  </>
                ) : (
                  <Text as="p" tone="subdued">
                    {r.link ? "The link is not a Taobao item: find the item on Taobao, then import it." : "The request has no link: find the item on Taobao, then import it."}
                  </Text>
                )}
                {r.import_batch_id ? (
                  <Link url={`/app/import?batch=${encodeURIComponent(r.import_batch_id)}`}>Follow the import started from this request</Link>
                ) : null}
                <Box>
                  <Button url={importUrl} variant="plain">
                    Open the import screen{r.link ? " with this link" : ""}
                  </Button>
                </Box>
              </BlockStack>
            </Card>
          </BlockStack>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
