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
import { toApiError } from "~/api/router.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { staffError } from "~/lib/staff-errors";
import {
  featuredProducts,
  getStore,
  renameStore,
  searchStoreProductsForAdmin,
  setFeaturedProducts,
  setSizeRecommendation,
  vendorOptions,
} from "~/services/stores.server";
import { ActionBanner, ProductCandidates, ProductSummary, SortableList, useDebouncedInput } from "~/components/admin";

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  await requireAdmin(request, "catalog.edit");
  const ctx = getAppContext();
  const id = params.id!;
  const pq = new URL(request.url).searchParams.get("pq");
  const candidates = await searchStoreProductsForAdmin(ctx.db, id, { q: pq?.trim() || undefined, take: 20 });
  if (pq !== null) return { picker: candidates, store: null, featured: [], vendorName: "" };
  try {
    const [store, featured, vendors] = await Promise.all([
      getStore(ctx.db, id),
      featuredProducts(ctx.db, id, { includeInactive: true }),
      vendorOptions(ctx.db),
    ]);
    return { picker: candidates, store, featured: featured.products, vendorName: vendors.find((v) => v.id === store.vendor_id)?.name ?? "" };
  } catch (e) {
    const err = toApiError(e);
    if (err.status === 404) throw staffError(404, "This store does not exist (any more).");
    throw e;
  }
};

type ActionResult = { ok: true; message: string; intent: string } | { ok: false; error: string; intent: string };

export const action = async ({ request, params }: ActionFunctionArgs): Promise<ActionResult> => {
  await requireAdmin(request, "catalog.edit");
  const ctx = getAppContext();
  const id = params.id!;
  const form = await request.formData();
  const intent = String(form.get("intent"));
  const fail = (error: string): ActionResult => ({ ok: false, intent, error });
  try {
    if (intent === "rename") {
      const parsed = storesEndpoints.storesRename.body.safeParse({ name: form.get("name"), updateHandle: form.get("updateHandle") === "true" });
      if (!parsed.success) return fail(parsed.error.issues.map((i) => i.message).join("; "));
      const s = await renameStore(ctx.db, id, parsed.data);
      return { ok: true, intent, message: `Renamed to “${s.name}” (handle ${s.handle}).` };
    }
    if (intent === "size") {
      const parsed = storesEndpoints.storesSetSizeRecommendation.body.safeParse({ size_recommendation: String(form.get("size_recommendation") ?? "") });
      if (!parsed.success) return fail(parsed.error.issues.map((i) => i.message).join("; "));
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
      if (!parsed.success) return fail(parsed.error.issues.map((i) => i.message).join("; "));
      const r = await setFeaturedProducts(ctx.db, id, parsed.data.product_ids);
      return { ok: true, intent, message: `Featured products saved (${r.products.length}).` };
    }
    return fail("Unknown action");
  } catch (e) {
    const err = toApiError(e);
    if (err.status >= 500) throw e;
    return fail(err.message);
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
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          Name
        </Text>
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
      </BlockStack>
    </Card>
  );
}

function SizeCard({ value: initial }: { value: string }) {
  const fetcher = useFetcher<typeof action>();
  const [value, setValue] = useState(initial);
  return (
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          Size recommendation
        </Text>
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
          <Button
            variant="primary"
            loading={fetcher.state !== "idle"}
            onClick={() => fetcher.submit({ intent: "size", size_recommendation: value }, { method: "post" })}
          >
            Save
          </Button>
        </InlineStack>
      </BlockStack>
    </Card>
  );
}



function FeaturedCard({ storeId, initial, initialCandidates }: { storeId: string; initial: Item[]; initialCandidates: Candidate[] }) {
  const save = useFetcher<typeof action>();
  const search = useFetcher<typeof loader>();
  const [items, setItems] = useState<(Item | Candidate)[]>(initial);
  const query = useDebouncedInput("", (v) => search.load(`/app/stores/${encodeURIComponent(storeId)}?pq=${encodeURIComponent(v)}`));
  const initialKey = initial.map((i) => i.id).join(",");
  const dirty = items.map((i) => i.id).join(",") !== initialKey;
  // After a save the loader answers the stored list: start again from it.
  useEffect(() => setItems(initial), [initialKey]); // eslint-disable-line react-hooks/exhaustive-deps
  const candidates = (search.data?.picker ?? initialCandidates).filter((c) => !items.some((i) => i.id === c.id));


  return (
    <Card>
      <BlockStack gap="400">
        <InlineStack align="space-between" blockAlign="center">
          <Text as="h2" variant="headingMd">
            Featured products
          </Text>
          <InlineStack gap="200">
            {dirty ? (
              <Button onClick={() => setItems(initial)} disabled={save.state !== "idle"}>
                Discard
              </Button>
            ) : null}
            <Button
              variant="primary"
              disabled={!dirty}
              loading={save.state !== "idle"}
              onClick={() => save.submit({ intent: "featured", product_ids: JSON.stringify(items.map((i) => i.id)) }, { method: "post" })}
            >
              Save featured products
            </Button>
          </InlineStack>
        </InlineStack>
        <ActionBanner result={save.data} />
        <Text as="p" tone="subdued">
          Shown first on the store page and in feed insertions, in this order. Drag a row, or use the move buttons.
        </Text>
        {items.length === 0 ? (
          <Text as="p">No featured products yet: add some from the store's products below.</Text>
        ) : (
          <SortableList
            items={items}
            onChange={setItems}
            label="Featured products in order"
            testId="featured-list"
            itemTestId="featured-item"
            nameOf={(p) => p.title}
            renderItem={(p) => (
              <ProductSummary product={p} details={`${p.priceRange.minVariantPrice.amount} ${p.priceRange.minVariantPrice.currencyCode}`} />
            )}
            renderActions={(p) => (
              <Button size="slim" tone="critical" variant="plain" onClick={() => setItems((l) => l.filter((x) => x.id !== p.id))} accessibilityLabel={`Remove ${p.title}`}>
                Remove
              </Button>
            )}
          />
        )}
        <ProductCandidates
          label="Add from this store's products"
          placeholder="Search by title or type"
          query={query}
          candidates={candidates}
          emptyText="No other products match."
          onAdd={(c) => setItems((l) => [...l, c])}
          addLabel={(c) => `Feature ${c.title}`}
        />
      </BlockStack>
    </Card>
  );
}
