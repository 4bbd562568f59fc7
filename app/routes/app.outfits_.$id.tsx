/**
 * One outfit: the look builder. Details (name, description, cover image, gender, order among
 * looks), its products in the look's order (add from the catalogue, move up or down, remove),
 * publish / unpublish / archive, delete with confirmation.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { BlockStack, Button, ButtonGroup, FormLayout, InlineStack, Layout, Page, Text, TextField, Thumbnail } from "@shopify/polaris";
import { useState } from "react";
import { OUTFIT_MIN_PRODUCTS_TO_PUBLISH, OUTFIT_STATUS_TRANSITIONS, OutfitStatusSchema, outfitsEndpoints, type OutfitStatus } from "~/contract/outfits";
import { getAppContext } from "~/context.server";
import type { ActionResult } from "~/lib/admin-list";
import { answerRefusals, invalidInput, orNotFound, productPickerResults } from "~/lib/admin-route.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { deleteOutfit, getAdminOutfit, setOutfitStatus, updateOutfit } from "~/services/outfits/curated.server";
import { CatalogueProductPicker } from "~/components/CatalogueProductPicker";
import { ActionBannerSection, ConfirmModal, CuratedProductRow, SectionCard, TargetGenderSelect, useIntentFetcher } from "~/components/admin";
import { formOf } from "~/lib/body-limit.server";
import { OutfitStatusBadge } from "~/components/admin/OutfitStatusBadge";

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  await requireAdmin(request, "catalog.edit");
  const ctx = getAppContext();
  return orNotFound("This outfit does not exist (it may have been deleted)", async () => {
    const outfit = await getAdminOutfit(ctx.db, params.id!);
    const { picker, pickerQuery } = await productPickerResults(ctx.db, new URL(request.url).searchParams);
    return { outfit, picker, pickerQuery };
  });
};

const STATUS_VERB: Record<OutfitStatus, string> = { published: "Publish", draft: "Unpublish", archived: "Archive" };
const STATUS_DONE: Record<OutfitStatus, string> = { published: "Outfit published.", draft: "Outfit moved back to draft.", archived: "Outfit archived." };

export const action = async ({ request, params }: ActionFunctionArgs): Promise<ActionResult> => {
  await requireAdmin(request, "catalog.edit");
  const ctx = getAppContext();
  const id = params.id!;
  const form = await formOf(request);
  const intent = form.get("intent");
  return answerRefusals<ActionResult>(async () => {
    switch (intent) {
      case "update": {
        const parsed = outfitsEndpoints.outfitsUpdate.body.safeParse({
          name: form.get("name"),
          description: String(form.get("description") ?? "") || null,
          image_url: String(form.get("image_url") ?? "") || null,
          target_gender: form.get("target_gender") || undefined,
          sort_order: Number(form.get("sort_order") || 0),
        });
        if (!parsed.success) return invalidInput(parsed.error);
        await updateOutfit(ctx.db, id, parsed.data);
        return { ok: true, message: "Outfit saved." };
      }
      // The whole ordered list: adding, moving and removing all send the list the admin sees.
      case "products": {
        const parsed = outfitsEndpoints.outfitsUpdate.body.safeParse({ product_ids: form.getAll("product_ids") });
        if (!parsed.success) return invalidInput(parsed.error);
        await updateOutfit(ctx.db, id, parsed.data);
        return { ok: true, message: "Products saved." };
      }
      case "status": {
        const parsed = OutfitStatusSchema.safeParse(form.get("status"));
        if (!parsed.success) return { ok: false, error: "Unknown status" };
        await setOutfitStatus(ctx.db, id, parsed.data);
        return { ok: true, message: STATUS_DONE[parsed.data] };
      }
      case "delete": {
        await deleteOutfit(ctx.db, id);
        throw redirect("/app/outfits");
      }
      default:
        return { ok: false, error: "Unknown action" };
    }
  });
};

const move = <T,>(list: T[], from: number, to: number) => {
  const next = [...list];
  const [x] = next.splice(from, 1);
  next.splice(to, 0, x);
  return next;
};

export default function OutfitBuilder() {
  const { outfit } = useLoaderData<typeof loader>();
  const { fetcher, submit, busy, busyWith } = useIntentFetcher<typeof action>();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [form, setForm] = useState(() => ({
    name: outfit.name,
    description: outfit.description ?? "",
    image_url: outfit.image_url ?? "",
    target_gender: outfit.target_gender as string,
    sort_order: String(outfit.sort_order),
  }));
  const ids = outfit.product_ids;
  const byId = new Map(outfit.products.map((p) => [p.id, p]));
  const saveProducts = (product_ids: string[]) => submit({ intent: "products", product_ids });
  const tooFew = ids.length < OUTFIT_MIN_PRODUCTS_TO_PUBLISH;
  const next = OUTFIT_STATUS_TRANSITIONS[outfit.status];
  const cover = outfit.image_url ?? outfit.products[0]?.featuredImage?.url ?? null;

  return (
    <Page
      title={outfit.name}
      titleMetadata={<OutfitStatusBadge status={outfit.status} />}
      backAction={{ content: "Outfits", url: "/app/outfits" }}
      primaryAction={
        next.includes("published")
          ? { content: "Publish", disabled: tooFew, helpText: tooFew ? `Add at least ${OUTFIT_MIN_PRODUCTS_TO_PUBLISH} products to publish` : undefined, onAction: () => submit({ intent: "status", status: "published" }), loading: busyWith("status") }
          : undefined
      }
      secondaryActions={[
        ...next.filter((s) => s !== "published").map((s) => ({ content: STATUS_VERB[s], onAction: () => submit({ intent: "status", status: s }) })),
        { content: "Delete outfit", destructive: true, onAction: () => setConfirmDelete(true) },
      ]}
    >
      <Layout>
        <ActionBannerSection result={fetcher.data} />
        <Layout.Section>
          <BlockStack gap="400">
            <SectionCard title={`Products in this look (${ids.length})`}>
              <CatalogueProductPicker searchPath={`/app/outfits/${outfit.id}`} selected={ids} busy={busy} onAdd={(added) => saveProducts([...ids, ...added.filter((a) => !ids.includes(a))])} />
              {ids.length === 0 ? (
                <Text as="p" tone="subdued">
                  No products yet: search the catalogue above to build the look.
                </Text>
              ) : (
                <BlockStack gap="200">
                  {ids.map((pid, i) => {
                    const p = byId.get(pid);
                    if (!p) return null;
                    return (
                      <InlineStack key={pid} gap="200" blockAlign="center" wrap={false}>
                        <ButtonGroup variant="segmented">
                          <Button size="slim" disabled={i === 0 || busy} accessibilityLabel={`Move ${p.title} up`} onClick={() => saveProducts(move(ids, i, i - 1))}>
                            ↑
                          </Button>
                          <Button size="slim" disabled={i === ids.length - 1 || busy} accessibilityLabel={`Move ${p.title} down`} onClick={() => saveProducts(move(ids, i, i + 1))}>
                            ↓
                          </Button>
                        </ButtonGroup>
                        <div style={{ flex: 1 }}>
                          <CuratedProductRow
                            product={p}
                            testId="outfit-product"
                            details={`${p.productType} · ${p.priceRange.minVariantPrice.amount} ${p.priceRange.minVariantPrice.currencyCode}`}
                            onRemove={() => saveProducts(ids.filter((x) => x !== pid))}
                          />
                        </div>
                      </InlineStack>
                    );
                  })}
                </BlockStack>
              )}
            </SectionCard>
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <SectionCard title="Details">
            <FormLayout>
              <TextField label="Name" autoComplete="off" value={form.name} onChange={(name) => setForm({ ...form, name })} />
              <TextField label="Description" autoComplete="off" multiline={3} value={form.description} onChange={(description) => setForm({ ...form, description })} />
              <TextField
                label="Cover image URL"
                autoComplete="off"
                helpText="Empty: the first product's image is the cover"
                value={form.image_url}
                onChange={(image_url) => setForm({ ...form, image_url })}
              />
              {cover ? <Thumbnail source={cover} alt={`Cover of ${outfit.name}`} size="large" /> : null}
              <TargetGenderSelect value={form.target_gender} onChange={(target_gender) => setForm({ ...form, target_gender })} />
              <TextField label="Order among outfits" type="number" autoComplete="off" helpText="Lower first" value={form.sort_order} onChange={(sort_order) => setForm({ ...form, sort_order })} />
              <InlineStack align="end">
                <Button variant="primary" onClick={() => submit({ intent: "update", ...form })} loading={busyWith("update")}>
                  Save
                </Button>
              </InlineStack>
            </FormLayout>
          </SectionCard>
        </Layout.Section>
      </Layout>
      <ConfirmModal open={confirmDelete} onClose={() => setConfirmDelete(false)} title={`Delete ${outfit.name}?`} confirmLabel="Delete" onConfirm={() => submit({ intent: "delete" })} loading={busy}>
        <Text as="p">The outfit is removed; its products stay in the catalogue.</Text>
      </ConfirmModal>
    </Page>
  );
}
