/**
 * One style: details, score, products (picker to add, remove), categorisation (queue a run, see
 * the categories it found as a chart), delete with confirmation.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useLoaderData, useRevalidator } from "@remix-run/react";
import { Badge, Banner, BlockStack, Button, Checkbox, FormLayout, InlineStack, Layout, Page, Text, TextField } from "@shopify/polaris";
import { useEffect, useState } from "react";
import { stylesEndpoints } from "~/contract/styles";
import { getAppContext } from "~/context.server";
import type { ActionResult } from "~/lib/admin-list";
import { answerRefusals, invalidInput, orNotFound, productPickerResults } from "~/lib/admin-route.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { addStyleProducts, deleteStyle, enqueueCategorisation, getStyle, removeStyleProducts, setStyleScore, updateStyle } from "~/services/styles.server";
import { BarChart } from "~/components/BarChart";
import { CatalogueProductPicker } from "~/components/CatalogueProductPicker";
import { ActionBannerSection, CategorisationBadge, ConfirmModal, CuratedProductRow, SectionCard, TargetGenderSelect, useIntentFetcher } from "~/components/admin";
import { formOf } from "~/lib/body-limit.server";

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  await requireAdmin(request, "catalog.edit");
  const ctx = getAppContext();
  return orNotFound("This style does not exist (it may have been deleted)", async () => {
    // One query after another: the embedded database does not take concurrent statement streams well.
    const style = await getStyle(ctx.db, params.id!);
    const { picker, pickerQuery } = await productPickerResults(ctx.db, new URL(request.url).searchParams);
    return { style, picker, pickerQuery };
  });
};

export const action = async ({ request, params }: ActionFunctionArgs): Promise<ActionResult> => {
  await requireAdmin(request, "catalog.edit");
  const ctx = getAppContext();
  const id = params.id!;
  const form = await formOf(request);
  const intent = form.get("intent");
  return answerRefusals<ActionResult>(async () => {
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
        if (!parsed.success) return invalidInput(parsed.error);
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
        if (!parsed.success) return invalidInput(parsed.error);
        const r = await addStyleProducts(ctx.db, id, parsed.data.products);
        return { ok: true, message: r.added ? `Added ${r.added} product${r.added === 1 ? "" : "s"}.` : "Already in this style." };
      }
      case "remove": {
        const parsed = stylesEndpoints.stylesRemoveProducts.body.safeParse({ products: form.getAll("products") });
        if (!parsed.success) return invalidInput(parsed.error);
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
  });
};

export default function StyleDetail() {
  const { style } = useLoaderData<typeof loader>();
  const { fetcher, submit, busy, busyWith } = useIntentFetcher<typeof action>();
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
  const running = style.categorisation_status === "pending" || style.categorisation_status === "processing";
  // A run was queued and has not finished yet.
  const queued = running && !!style.categorisation && !style.categorisation.completed_at;

  // While a queued run is under way, look again every 2 seconds.
  useEffect(() => {
    if (!queued) return;
    const t = setInterval(() => revalidator.state === "idle" && revalidator.revalidate(), 2000);
    return () => clearInterval(t);
  }, [queued, revalidator]);

  const ids = style.products.map((p) => p.id);
  const result = style.categorisation?.result;

  return (
    <Page
      title={style.name}
      titleMetadata={<CategorisationBadge status={style.categorisation_status} label={`Categorisation ${style.categorisation_status}`} />}
      backAction={{ content: "Styles", url: "/app/styles" }}
      primaryAction={{ content: "Categorise products", onAction: () => submit({ intent: "categorise" }), loading: busyWith("categorise") }}
      secondaryActions={[{ content: "Delete style", destructive: true, onAction: () => setConfirmDelete(true) }]}
    >
      <Layout>
        <ActionBannerSection result={fetcher.data} />
        <Layout.Section>
          <BlockStack gap="400">
            <SectionCard title="Details">
              <FormLayout>
                <FormLayout.Group>
                  <TextField label="Name" autoComplete="off" value={form.name} onChange={(name) => setForm({ ...form, name })} />
                  <TextField label="Handle" autoComplete="off" value={form.handle} onChange={(handle) => setForm({ ...form, handle })} />
                </FormLayout.Group>
                <TextField label="Description" autoComplete="off" multiline={3} value={form.description} onChange={(description) => setForm({ ...form, description })} />
                <TextField label="Image URL" autoComplete="off" value={form.image_url} onChange={(image_url) => setForm({ ...form, image_url })} />
                <FormLayout.Group>
                  <TargetGenderSelect value={form.target_gender} onChange={(target_gender) => setForm({ ...form, target_gender })} />
                  <Checkbox label="Featured" checked={form.featured} onChange={(featured) => setForm({ ...form, featured })} />
                </FormLayout.Group>
                <InlineStack align="end">
                  <Button variant="primary" onClick={() => submit({ intent: "update", ...form, featured: String(form.featured) })} loading={busyWith("update")}>
                    Save
                  </Button>
                </InlineStack>
              </FormLayout>
            </SectionCard>
            <SectionCard title={`Products (${style.product_count})`}>
              <CatalogueProductPicker searchPath={`/app/styles/${style.id}`} selected={ids} busy={busy} onAdd={(products) => submit({ intent: "add", products })} />
              {style.products.length === 0 ? (
                <Text as="p" tone="subdued">
                  No products yet: search above to add some.
                </Text>
              ) : (
                <BlockStack gap="200">
                  {style.products.map((p) => (
                    <CuratedProductRow
                      key={p.id}
                      product={p}
                      testId="style-product"
                      details={`${p.productType} · ${p.priceRange.minVariantPrice.amount} ${p.priceRange.minVariantPrice.currencyCode}`}
                      onRemove={() => submit({ intent: "remove", products: [p.id] })}
                    />
                  ))}
                </BlockStack>
              )}
            </SectionCard>
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <BlockStack gap="400">
            <SectionCard title="Score">
              <InlineStack gap="200" blockAlign="end" wrap={false}>
                <div style={{ flex: 1 }}>
                  <TextField label="Score" labelHidden type="number" step={0.01} autoComplete="off" value={score} onChange={setScore} />
                </div>
                <Button onClick={() => submit({ intent: "score", score })} loading={busyWith("score")}>
                  Set score
                </Button>
              </InlineStack>
            </SectionCard>
            <SectionCard title="Categories">
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
            </SectionCard>
          </BlockStack>
        </Layout.Section>
      </Layout>
      <ConfirmModal open={confirmDelete} onClose={() => setConfirmDelete(false)} title={`Delete ${style.name}?`} confirmLabel="Delete" onConfirm={() => submit({ intent: "delete" })} loading={busy}>
        <Text as="p">The style is removed; its {style.product_count} products stay in the catalogue.</Text>
      </ConfirmModal>
    </Page>
  );
}
