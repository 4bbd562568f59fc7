/**
 * A store: rename (keeping or changing the handle), size recommendation, and its featured
 * products with their order (drag a row, or use the Move up / Move down buttons from the
 * keyboard), picked from the store's own products.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useFetcher, useLoaderData, useNavigate } from "@remix-run/react";
import { BlockStack, Button, Card, Checkbox, InlineStack, Layout, Page, Text, TextField } from "@shopify/polaris";
import { useEffect, useState } from "react";
import { storesEndpoints } from "~/contract/stores";
import { getAppContext } from "~/context.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { orNotFound, refusalOf } from "~/lib/admin-route.server";
import {
  featuredProducts,
  getStore,
  renameStore,
  searchStoreProductsForAdmin,
  setFeaturedProducts,
  setSizeRecommendation,
  vendorOptions,
} from "~/services/stores.server";
import { ActionBanner, OrderHeader, ProductCandidates, SectionCard, SortableProducts, useOrderDraft, usePickerSearch } from "~/components/admin";
import { formOf } from "~/lib/body-limit.server";

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  await requireAdmin(request, "catalog.edit");
  const ctx = getAppContext();
  const id = params.id!;
  const pq = new URL(request.url).searchParams.get("pq");
  const candidates = await searchStoreProductsForAdmin(ctx.db, id, { q: pq?.trim() || undefined, take: 20 });
  if (pq !== null) return { picker: candidates, store: null, featured: [], vendorName: "" };
  const [store, featured, vendors] = await orNotFound("This store does not exist (any more).", () =>
    Promise.all([getStore(ctx.db, id), featuredProducts(ctx.db, id, { includeInactive: true }), vendorOptions(ctx.db)]),
  );
  return { picker: candidates, store, featured: featured.products, vendorName: vendors.find((v) => v.id === store.vendor_id)?.name ?? "" };
};

type ActionResult = { ok: true; message: string; intent: string } | { ok: false; error: string; intent: string };

const messages = (e: { issues: { message: string }[] }) => e.issues.map((i) => i.message).join("; ");

export const action = async ({ request, params }: ActionFunctionArgs): Promise<ActionResult> => {
  await requireAdmin(request, "catalog.edit");
  const ctx = getAppContext();
  const id = params.id!;
  const form = await formOf(request);
  const intent = String(form.get("intent"));
  const fail = (error: string): ActionResult => ({ ok: false, intent, error });
  try {
    if (intent === "rename") {
      const parsed = storesEndpoints.storesRename.body.safeParse({ name: form.get("name"), updateHandle: form.get("updateHandle") === "true" });
      if (!parsed.success) return fail(messages(parsed.error));
      const s = await renameStore(ctx.db, id, parsed.data);
      return { ok: true, intent, message: `Renamed to “${s.name}” (handle ${s.handle}).` };
    }
    if (intent === "size") {
      const parsed = storesEndpoints.storesSetSizeRecommendation.body.safeParse({ size_recommendation: String(form.get("size_recommendation") ?? "") });
      if (!parsed.success) return fail(messages(parsed.error));
      await setSizeRecommendation(ctx.db, id, parsed.data.size_recommendation);
      return { ok: true, intent, message: "Size recommendation saved." };
    }
    if (intent === "featured") {
      let ids: unknown;
      try {
        ids = JSON.parse(String(form.get("product_ids") ?? "[]"));
      } catch {
        return fail("The featured list is not valid");
      }
      const parsed = storesEndpoints.storesSetFeaturedProducts.body.safeParse({ product_ids: ids });
      if (!parsed.success) return fail(messages(parsed.error));
      const r = await setFeaturedProducts(ctx.db, id, parsed.data.product_ids);
      return { ok: true, intent, message: `Featured products saved (${r.products.length}).` };
    }
    return fail("Unknown action");
  } catch (e) {
    return fail(refusalOf(e).message);
  }
};

type Data = ReturnType<typeof useLoaderData<typeof loader>>;
type Item = Data["featured"][number];
type Candidate = Data["picker"][number];

export default function StoreDetail() {
  const data = useLoaderData<typeof loader>();
  const navigate = useNavigate();
  const store = data.store!;
  return (
    <Page
      title={store.name}
      subtitle={`${store.handle} · ${data.vendorName} · ${store.productCount} active products · ${store.followerCount} followers`}
      backAction={{ content: "Stores", onAction: () => navigate("/app/stores") }}
    >
      <Layout>
        <Layout.Section variant="oneHalf">
          <RenameCard key={store.id} name={store.name} handle={store.handle} />
        </Layout.Section>
        <Layout.Section variant="oneHalf">
          <SizeCard key={store.id} value={store.size_recommendation ?? ""} />
        </Layout.Section>
        <Layout.Section>
          <FeaturedCard key={store.id} storeId={store.id} initial={data.featured} initialCandidates={data.picker} />
        </Layout.Section>
      </Layout>
    </Page>
  );
}

function RenameCard({ name, handle }: { name: string; handle: string }) {
  const fetcher = useFetcher<typeof action>();
  const [value, setValue] = useState(name);
  const [updateHandle, setUpdateHandle] = useState(false);
  useEffect(() => {
    setValue(name);
    setUpdateHandle(false);
  }, [name, handle]);
  return (
    <SectionCard title="Name">
      <ActionBanner result={fetcher.data} />
      <TextField label="Store name" autoComplete="off" value={value} onChange={setValue} />
      <Checkbox
        label="Also change the handle"
        helpText={`The handle is “${handle}”; changing it changes the store's URL.`}
        checked={updateHandle}
        onChange={setUpdateHandle}
      />
      <InlineStack align="end">
        <Button
          variant="primary"
          loading={fetcher.state !== "idle"}
          disabled={value.trim() === "" || (value === name && !updateHandle)}
          onClick={() => fetcher.submit({ intent: "rename", name: value, updateHandle: String(updateHandle) }, { method: "post" })}
        >
          Rename
        </Button>
      </InlineStack>
    </SectionCard>
  );
}

function SizeCard({ value: initial }: { value: string }) {
  const fetcher = useFetcher<typeof action>();
  const [value, setValue] = useState(initial);
  return (
    <SectionCard title="Size recommendation">
      <ActionBanner result={fetcher.data} />
      <TextField
        label="Shown to shoppers on this store's products"
        autoComplete="off"
        multiline={3}
        value={value}
        onChange={setValue}
        placeholder="e.g. Runs small: order one size up"
      />
      <InlineStack align="end">
        <Button variant="primary" loading={fetcher.state !== "idle"} onClick={() => fetcher.submit({ intent: "size", size_recommendation: value }, { method: "post" })}>
          Save
        </Button>
      </InlineStack>
    </SectionCard>
  );
}

function FeaturedCard({ storeId, initial, initialCandidates }: { storeId: string; initial: Item[]; initialCandidates: Candidate[] }) {
  const save = useFetcher<typeof action>();
  // After a save the loader answers the stored list: the draft starts again from it.
  const { items, setItems, dirty, discard } = useOrderDraft<Item | Candidate>(initial);
  const search = usePickerSearch(`/app/stores/${encodeURIComponent(storeId)}`, initialCandidates);
  const candidates = search.candidates.filter((c) => !items.some((i) => i.id === c.id));

  return (
    <Card>
      <BlockStack gap="400">
        <OrderHeader
          title="Featured products"
          dirty={dirty}
          saving={save.state !== "idle"}
          onDiscard={discard}
          onSave={() => save.submit({ intent: "featured", product_ids: JSON.stringify(items.map((i) => i.id)) }, { method: "post" })}
          discardLabel="Discard"
          saveLabel="Save featured products"
        />
        <ActionBanner result={save.data} />
        <Text as="p" tone="subdued">
          Shown first on the store page and in feed insertions, in this order. Drag a row, or use the move buttons.
        </Text>
        <SortableProducts
          items={items}
          onChange={setItems}
          label="Featured products in order"
          emptyText="No featured products yet: add some from the store's products below."
          testId="featured-list"
          itemTestId="featured-item"
          details={(p) => `${p.priceRange.minVariantPrice.amount} ${p.priceRange.minVariantPrice.currencyCode}`}
          onRemove={(p) => setItems((l) => l.filter((x) => x.id !== p.id))}
        />
        <ProductCandidates
          label="Add from this store's products"
          placeholder="Search by title or type"
          query={search.query}
          candidates={candidates}
          emptyText="No other products match."
          onAdd={(c) => setItems((l) => [...l, c])}
          addLabel={(c) => `Feature ${c.title}`}
        />
      </BlockStack>
    </Card>
  );
}
