/**
 * One style: details, score, products (picker to add, remove), categorisation (queue a run, see
 * the categories it found as a chart), delete with confirmation.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useFetcher, useLoaderData, useRevalidator } from "@remix-run/react";
import { Badge, Banner, BlockStack, Button, Card, Checkbox, FormLayout, InlineStack, Layout, Modal, Page, Select, Text, TextField } from "@shopify/polaris";
import { useEffect, useState } from "react";
import { stylesEndpoints } from "~/contract/styles";
import { getAppContext } from "~/context.server";
import { ApiError } from "~/api/errors.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { staffError } from "~/lib/staff-errors";
import {
  addStyleProducts,
  deleteStyle,
  enqueueCategorisation,
  getStyle,
  removeStyleProducts,
  searchProductsForPicker,
  setStyleScore,
  updateStyle,
} from "~/services/styles.server";
import { BarChart } from "~/components/BarChart";
import { CatalogueProductPicker, ProductThumb } from "~/components/CatalogueProductPicker";

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  await requireAdmin(request, "catalog.edit");
  const ctx = getAppContext();
  const pq = new URL(request.url).searchParams.get("pq");
  try {
    // One query after another: the embedded database does not take concurrent statement streams well.
    const style = await getStyle(ctx.db, params.id!);
    const picker = pq ? await searchProductsForPicker(ctx.db, pq, 15) : null;
    return { style, picker, pickerQuery: pq };
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) throw staffError(404, "This style does not exist (it may have been deleted)");
    throw e;
  }
};

type ActionResult = { ok: true; message: string } | { ok: false; error: string };
const issues = (e: { issues: { path: PropertyKey[]; message: string }[] }) => e.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; ");

export const action = async ({ request, params }: ActionFunctionArgs): Promise<ActionResult> => {
  await requireAdmin(request, "catalog.edit");
  const ctx = getAppContext();
  const id = params.id!;
  const form = await request.formData();
  const intent = form.get("intent");
  try {
    switch (intent) {
      case "update": {
        const parsed = stylesEndpoints.stylesUpdate.body.safeParse({
          name: form.get("name"),
          handle: form.get("handle") || undefined,
          description: String(form.get("description") ?? "") || null,
          image_url: String(form.get("image_url") ?? "") || null,
          target_gender: form.get("target_gender") || undefined,
          featured: form.get("featured") === "true",
        });
        if (!parsed.success) return { ok: false, error: issues(parsed.error) };
        await updateStyle(ctx.db, id, parsed.data);
        return { ok: true, message: "Style saved." };
      }
      case "score": {
        const parsed = stylesEndpoints.stylesSetScore.body.safeParse({ score: Number(form.get("score")) });
        if (!parsed.success || form.get("score") === "") return { ok: false, error: "Enter a number for the score" };
        const s = await setStyleScore(ctx.db, id, parsed.data.score);
        return { ok: true, message: `Score set to ${s.score}.` };
      }
      case "add": {
        const parsed = stylesEndpoints.stylesAddProducts.body.safeParse({ products: form.getAll("products") });
        if (!parsed.success) return { ok: false, error: issues(parsed.error) };
        const r = await addStyleProducts(ctx.db, id, parsed.data.products);
        return { ok: true, message: r.added ? `Added ${r.added} product${r.added === 1 ? "" : "s"}.` : "Already in this style." };
      }
      case "remove": {
        const parsed = stylesEndpoints.stylesRemoveProducts.body.safeParse({ products: form.getAll("products") });
        if (!parsed.success) return { ok: false, error: issues(parsed.error) };
        const r = await removeStyleProducts(ctx.db, id, parsed.data.products);
        return { ok: true, message: `Removed ${r.removed} product${r.removed === 1 ? "" : "s"}.` };
      }
      case "categorise": {
        await enqueueCategorisation(ctx, id);
        return { ok: true, message: "Categorisation queued; this page updates when it finishes." };
      }
      case "delete": {
        await deleteStyle(ctx.db, id);
        throw redirect("/app/styles");
      }
      default:
        return { ok: false, error: "Unknown action" };
    }
  } catch (e) {
    if (e instanceof ApiError) return { ok: false, error: e.message };
    throw e;
  }
};

const STATUS_TONE = { pending: "attention", processing: "info", completed: "success", failed: "critical" } as const;

export default function StyleDetail() {
  const { style } = useLoaderData<typeof loader>();
  const fetcher = useFetcher<typeof action>();
  const revalidator = useRevalidator();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [form, setForm] = useState(() => ({
    name: style.name,
    handle: style.handle,
    description: style.description ?? "",
    image_url: style.image_url ?? "",
    target_gender: style.target_gender as string,
    featured: style.featured,
  }));
  const [score, setScore] = useState(String(style.score));
  useEffect(() => setScore(String(style.score)), [style.score]);
  const busy = fetcher.state !== "idle";
  const running = style.categorisation_status === "pending" || style.categorisation_status === "processing";
  // A run was queued and has not finished yet.
  const queued = running && !!style.categorisation && !style.categorisation.completed_at;

  // While a queued run is under way, look again every 2 seconds.
  useEffect(() => {
    if (!queued) return;
    const t = setInterval(() => revalidator.state === "idle" && revalidator.revalidate(), 2000);
    return () => clearInterval(t);
  }, [queued, revalidator]);

  const submit = (data: Record<string, string | string[]>) => {
    const fd = new FormData();
    for (const [k, v] of Object.entries(data)) for (const x of Array.isArray(v) ? v : [v]) fd.append(k, x);
    fetcher.submit(fd, { method: "post" });
  };
  const ids = style.products.map((p) => p.id);
  const result = style.categorisation?.result;

  return (
    <Page
      title={style.name}
      titleMetadata={<Badge tone={STATUS_TONE[style.categorisation_status]}>{`Categorisation ${style.categorisation_status}`}</Badge>}
      backAction={{ content: "Styles", url: "/app/styles" }}
      primaryAction={{ content: "Categorise products", onAction: () => submit({ intent: "categorise" }), loading: busy && fetcher.formData?.get("intent") === "categorise" }}
      secondaryActions={[{ content: "Delete style", destructive: true, onAction: () => setConfirmDelete(true) }]}
    >
      <Layout>
        {fetcher.data ? (
          <Layout.Section>
            {fetcher.data.ok ? <Banner tone="success">{fetcher.data.message}</Banner> : <Banner tone="critical">{fetcher.data.error}</Banner>}
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <BlockStack gap="400">
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  Details
                </Text>
                <FormLayout>
                  <FormLayout.Group>
                    <TextField label="Name" autoComplete="off" value={form.name} onChange={(name) => setForm({ ...form, name })} />
                    <TextField label="Handle" autoComplete="off" value={form.handle} onChange={(handle) => setForm({ ...form, handle })} />
                  </FormLayout.Group>
                  <TextField label="Description" autoComplete="off" multiline={3} value={form.description} onChange={(description) => setForm({ ...form, description })} />
                  <TextField label="Image URL" autoComplete="off" value={form.image_url} onChange={(image_url) => setForm({ ...form, image_url })} />
                  <FormLayout.Group>
                    <Select
                      label="Target gender"
                      options={[{ label: "Both", value: "both" }, { label: "Menswear", value: "menswear" }, { label: "Womenswear", value: "womenswear" }]}
                      value={form.target_gender}
                      onChange={(target_gender) => setForm({ ...form, target_gender })}
                    />
                    <Checkbox label="Featured" checked={form.featured} onChange={(featured) => setForm({ ...form, featured })} />
                  </FormLayout.Group>
                  <InlineStack align="end">
                    <Button variant="primary" onClick={() => submit({ intent: "update", ...form, featured: String(form.featured) })} loading={busy && fetcher.formData?.get("intent") === "update"}>
                      Save
                    </Button>
                  </InlineStack>
                </FormLayout>
              </BlockStack>
            </Card>
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  Products ({style.product_count})
                </Text>
                <CatalogueProductPicker searchPath={`/app/styles/${style.id}`} selected={ids} busy={busy} onAdd={(products) => submit({ intent: "add", products })} />
                {style.products.length === 0 ? (
                  <Text as="p" tone="subdued">
                    No products yet: search above to add some.
                  </Text>
                ) : (
                  <BlockStack gap="200">
                    {style.products.map((p) => (
                      <InlineStack key={p.id} align="space-between" blockAlign="center" wrap={false} gap="200">
                        <InlineStack gap="200" blockAlign="center" wrap={false}>
                          <ProductThumb url={p.featuredImage?.url} alt={p.featuredImage?.altText ?? p.title} />
                          <BlockStack>
                            <Text as="span" fontWeight="medium">
                              <span data-testid="style-product">{p.title}</span>
                            </Text>
                            <Text as="span" tone="subdued" variant="bodySm">
                              {p.productType} · {p.priceRange.minVariantPrice.amount} {p.priceRange.minVariantPrice.currencyCode}
                            </Text>
                          </BlockStack>
                        </InlineStack>
                        <Button size="slim" tone="critical" variant="plain" onClick={() => submit({ intent: "remove", products: [p.id] })} accessibilityLabel={`Remove ${p.title}`}>
                          Remove
                        </Button>
                      </InlineStack>
                    ))}
                  </BlockStack>
                )}
              </BlockStack>
            </Card>
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <BlockStack gap="400">
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  Score
                </Text>
                <InlineStack gap="200" blockAlign="end" wrap={false}>
                  <div style={{ flex: 1 }}>
                    <TextField label="Score" labelHidden type="number" step={0.01} autoComplete="off" value={score} onChange={setScore} />
                  </div>
                  <Button onClick={() => submit({ intent: "score", score })} loading={busy && fetcher.formData?.get("intent") === "score"}>
                    Set score
                  </Button>
                </InlineStack>
              </BlockStack>
            </Card>
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  Categories
                </Text>
                {style.categorisation?.error ? <Banner tone="critical">{style.categorisation.error}</Banner> : null}
                {result ? (
                  <>
                    <BarChart data={result.categories.slice(0, 10).map((c) => ({ label: c.category.length > 16 ? `${c.category.slice(0, 15)}…` : c.category, value: c.count }))} />
                    {result.uncategorised.length ? (
                      <Text as="p" tone="subdued">
                        {result.uncategorised.length} product{result.uncategorised.length === 1 ? "" : "s"} without a category.
                      </Text>
                    ) : null}
                    <InlineStack gap="100">
                      {result.topTags.map((t) => (
                        <Badge key={t.tag}>{`${t.tag} · ${t.count}`}</Badge>
                      ))}
                    </InlineStack>
                  </>
                ) : (
                  <Text as="p" tone="subdued">
                    {queued ? "Categorising…" : "Not categorised yet. “Categorise products” groups them by type and tags."}
                  </Text>
                )}
              </BlockStack>
            </Card>
          </BlockStack>
        </Layout.Section>
      </Layout>
      <Modal
        open={confirmDelete}
        onClose={() => setConfirmDelete(false)}
        title={`Delete ${style.name}?`}
        primaryAction={{ content: "Delete", destructive: true, onAction: () => submit({ intent: "delete" }), loading: busy }}
        secondaryActions={[{ content: "Cancel", onAction: () => setConfirmDelete(false) }]}
      >
        <Modal.Section>
          <Text as="p">The style is removed; its {style.product_count} products stay in the catalogue.</Text>
        </Modal.Section>
      </Modal>
    </Page>
  );
}
