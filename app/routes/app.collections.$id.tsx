/**
 * A collection: edit its details (with the optimistic version check), publish, change status,
 * feature, delete; add products with a search picker, remove them, and set their order (drag a
 * row, or use Move up / Move down from the keyboard).
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useFetcher, useLoaderData, useNavigate } from "@remix-run/react";
import { Badge, BlockStack, Button, Card, FormLayout, InlineStack, Layout, Page, Select, Text, TextField } from "@shopify/polaris";
import { useEffect, useState } from "react";
import { collectionsEndpoints } from "~/contract/collections";
import { toProductGid } from "~/lib/gid";
import { getAppContext } from "~/context.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { orNotFound, refusalOf } from "~/lib/admin-route.server";
import { listProducts } from "~/services/catalog.server";
import { vendorOptions } from "~/services/stores.server";
import {
  addProducts,
  adminCollectionDetail,
  deleteCollection,
  publishCollection,
  removeProducts,
  reorderProducts,
  setFeatured,
  setStatus,
  updateCollection,
} from "~/services/collections.server";
import {
  ActionBanner,
  ConfirmModal,
  GENDER_LABEL,
  GENDER_OPTIONS,
  OrderHeader,
  ProductCandidates,
  PublicationBadge,
  SectionCard,
  SortableProducts,
  useOrderDraft,
  usePickerSearch,
} from "~/components/admin";
import { formOf } from "~/lib/body-limit.server";

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  await requireAdmin(request, "catalog.edit");
  const ctx = getAppContext();
  const pq = new URL(request.url).searchParams.get("pq");
  const picker = await listProducts(ctx.db, { query: pq?.trim() || undefined, limit: 20, sortKey: "CREATED_AT", reverse: false });
  if (pq !== null) return { picker: picker.products, detail: null, vendors: [] };
  const [detail, vendors] = await orNotFound("This collection does not exist (any more).", () => Promise.all([adminCollectionDetail(ctx.db, params.id!), vendorOptions(ctx.db)]));
  return { picker: picker.products, detail, vendors };
};

type ActionResult = { ok: true; message: string; intent: string } | { ok: false; error: string; intent: string };

const issues = (e: { issues: { path: PropertyKey[]; message: string }[] }) =>
  e.issues.map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message)).join("; ");

export const action = async ({ request, params }: ActionFunctionArgs) => {
  await requireAdmin(request, "catalog.edit");
  const ctx = getAppContext();
  const id = params.id!;
  const form = await formOf(request);
  const intent = String(form.get("intent"));
  const ok = (message: string): ActionResult => ({ ok: true, intent, message });
  const fail = (error: string): ActionResult => ({ ok: false, intent, error });
  const productIds = () => {
    try {
      return JSON.parse(String(form.get("products") ?? "[]")) as unknown;
    } catch {
      return null;
    }
  };
  try {
    switch (intent) {
      case "update": {
        const parsed = collectionsEndpoints.collectionsAdminUpdate.body.safeParse({
          title: form.get("title") ?? undefined,
          handle: form.get("handle") || undefined,
          description: form.get("description") ?? undefined,
          image_url: form.get("image_url") ?? undefined,
          target_gender: form.get("target_gender") || undefined,
          partner_id: form.get("partner_id") ? String(form.get("partner_id")) : null,
          version: form.get("version") ? Number(form.get("version")) : undefined,
        });
        if (!parsed.success) return fail(issues(parsed.error));
        await updateCollection(ctx.db, id, parsed.data);
        return ok("Details saved.");
      }
      case "publish":
        await publishCollection(ctx.db, id);
        return ok("Published: shoppers can see this collection.");
      case "status": {
        const parsed = collectionsEndpoints.collectionsAdminSetStatus.body.safeParse({ status: form.get("status") });
        if (!parsed.success) return fail(issues(parsed.error));
        const c = await setStatus(ctx.db, id, parsed.data.status);
        return ok(`Status: ${c.status}.`);
      }
      case "featured": {
        const c = await setFeatured(ctx.db, id, form.get("featured") === "true");
        return ok(c.featured ? "Featured." : "No longer featured.");
      }
      case "add":
      case "remove":
      case "order": {
        const parsed = collectionsEndpoints.collectionsAdminAddProducts.body.safeParse({ products: productIds() });
        if (!parsed.success) return fail(issues(parsed.error));
        if (intent === "add") {
          const r = await addProducts(ctx.db, id, parsed.data.products);
          return ok(r.changed ? `Added ${r.changed} product${r.changed === 1 ? "" : "s"}.` : "Already in the collection.");
        }
        if (intent === "remove") {
          const r = await removeProducts(ctx.db, id, parsed.data.products);
          return ok(`Removed ${r.changed} product${r.changed === 1 ? "" : "s"}.`);
        }
        await reorderProducts(ctx.db, id, parsed.data.products);
        return ok("Product order saved.");
      }
      case "delete":
        await deleteCollection(ctx.db, id);
        return redirect("/app/collections");
      default:
        return fail("Unknown action");
    }
  } catch (e) {
    return fail(refusalOf(e).message);
  }
};

type Data = ReturnType<typeof useLoaderData<typeof loader>>;
type Detail = NonNullable<Data["detail"]>;
type Item = Detail["products"][number];
type Candidate = Data["picker"][number];

export default function CollectionDetail() {
  const data = useLoaderData<typeof loader>();
  const navigate = useNavigate();
  const actions = useFetcher<typeof action>();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const { collection, products } = data.detail!;
  const busy = actions.state !== "idle";
  const submit = (payload: Record<string, string>) => actions.submit(payload, { method: "post" });

  return (
    <Page
      title={collection.title}
      titleMetadata={
        <InlineStack gap="100">
          <PublicationBadge status={collection.status} />
          {collection.featured ? <Badge tone="info">featured</Badge> : null}
        </InlineStack>
      }
      subtitle={`${collection.handle} · version ${collection.version} · ${collection.view_count.toLocaleString("en")} views${
        collection.published_at ? ` · published ${new Date(collection.published_at).toLocaleDateString("en")}` : ""
      }`}
      backAction={{ content: "Collections", onAction: () => navigate("/app/collections") }}
      primaryAction={collection.status !== "active" ? { content: "Publish", onAction: () => submit({ intent: "publish" }), loading: busy } : undefined}
      secondaryActions={[
        collection.status === "active" ? { content: "Unpublish (draft)", onAction: () => submit({ intent: "status", status: "draft" }) } : null,
        collection.status !== "archived" ? { content: "Archive", onAction: () => submit({ intent: "status", status: "archived" }) } : null,
        { content: collection.featured ? "Unfeature" : "Feature", onAction: () => submit({ intent: "featured", featured: String(!collection.featured) }) },
        { content: "Delete", destructive: true, onAction: () => setConfirmDelete(true) },
      ].filter((a): a is NonNullable<typeof a> => a !== null)}
    >
      <Layout>
        {actions.data ? (
          <Layout.Section>
            <ActionBanner result={actions.data} />
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <ProductsCard key={collection.id} products={products} initialCandidates={data.picker} collectionId={collection.id} />
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <DetailsCard key={collection.id} collection={collection} vendors={data.vendors} />
        </Layout.Section>
      </Layout>
      {confirmDelete ? (
        <ConfirmModal title={`Delete “${collection.title}”?`} confirmLabel="Delete collection" loading={busy} onConfirm={() => submit({ intent: "delete" })} onClose={() => setConfirmDelete(false)}>
          <Text as="p">The collection is removed for good; its {products.length} products stay in the catalogue.</Text>
        </ConfirmModal>
      ) : null}
    </Page>
  );
}

function DetailsCard({ collection, vendors }: { collection: Detail["collection"]; vendors: Data["vendors"] }) {
  const fetcher = useFetcher<typeof action>();
  const initial = () => ({
    title: collection.title,
    handle: collection.handle,
    description: collection.description ?? "",
    image_url: collection.image_url ?? "",
    target_gender: collection.target_gender as string,
    partner_id: collection.partner_id ?? "",
  });
  const [form, setForm] = useState(initial);
  // A newer version (someone's save, or ours) resets the form to what is stored.
  useEffect(() => setForm(initial()), [collection.version]); // eslint-disable-line react-hooks/exhaustive-deps
  const set = (k: keyof ReturnType<typeof initial>) => (v: string) => setForm((f) => ({ ...f, [k]: v }));
  return (
    <SectionCard title="Details">
      <ActionBanner result={fetcher.data} />
      <FormLayout>
        <TextField label="Title" autoComplete="off" value={form.title} onChange={set("title")} />
        <TextField label="Handle" autoComplete="off" value={form.handle} onChange={set("handle")} helpText="Changing it changes the collection's URL." />
        <TextField label="Description" autoComplete="off" multiline={3} value={form.description} onChange={set("description")} />
        <TextField label="Image URL" autoComplete="off" value={form.image_url} onChange={set("image_url")} />
        <Select label="Target gender" options={GENDER_OPTIONS} value={form.target_gender} onChange={set("target_gender")} />
        <Select
          label="Partner (vendor)"
          options={[{ label: "None", value: "" }, ...vendors.map((v) => ({ label: v.name, value: v.id }))]}
          value={form.partner_id}
          onChange={set("partner_id")}
        />
      </FormLayout>
      <InlineStack align="end">
        <Button
          variant="primary"
          loading={fetcher.state !== "idle"}
          onClick={() => fetcher.submit({ intent: "update", ...form, version: String(collection.version) }, { method: "post" })}
        >
          Save details
        </Button>
      </InlineStack>
    </SectionCard>
  );
}

function ProductsCard({ collectionId, products, initialCandidates }: { collectionId: string; products: Item[]; initialCandidates: Candidate[] }) {
  const order = useFetcher<typeof action>();
  const change = useFetcher<typeof action>();
  const { items, setItems, dirty, discard } = useOrderDraft(products);
  const search = usePickerSearch(`/app/collections/${encodeURIComponent(collectionId)}`, initialCandidates);
  const members = new Set(products.map((p) => p.id));
  const candidates = search.candidates.filter((c) => !members.has(c.id));

  const send = (intent: "add" | "remove", ids: string[]) => change.submit({ intent, products: JSON.stringify(ids.map(toProductGid)) }, { method: "post" });

  return (
    <Card>
      <BlockStack gap="400">
        <OrderHeader
          title={`Products (${products.length})`}
          dirty={dirty}
          saving={order.state !== "idle"}
          onDiscard={discard}
          onSave={() => order.submit({ intent: "order", products: JSON.stringify(items.map((p) => p.id)) }, { method: "post" })}
          discardLabel="Discard order"
          saveLabel="Save order"
        />
        <ActionBanner result={order.data} />
        <ActionBanner result={change.data} />
        <SortableProducts
          items={items}
          onChange={setItems}
          label="Products in collection order"
          emptyText="No products yet: search the catalogue below and add some. A collection needs products before it can be published."
          testId="collection-products"
          itemTestId="collection-product"
          details={(p) => `${p.vendor} · ${p.priceRange.minVariantPrice.amount} ${p.priceRange.minVariantPrice.currencyCode} · ${GENDER_LABEL[p.target_gender]}`}
          onRemove={(p) => send("remove", [p.id])}
          removeDisabled={dirty}
        />
        <ProductCandidates
          label="Add products"
          placeholder="Search the catalogue by title, type, vendor or tag"
          helpText={dirty ? "Save or discard the new order before adding products." : undefined}
          query={search.query}
          candidates={candidates}
          emptyText="No products to add match."
          details={(c) => `${c.vendor} · ${GENDER_LABEL[c.target_gender]}`}
          onAdd={(c) => send("add", [c.id])}
          addLabel={(c) => `Add ${c.title}`}
          addDisabled={dirty}
          isAdding={(c) => change.state !== "idle" && change.formData?.get("products") === JSON.stringify([c.id])}
          maxHeight={360}
          testId="product-picker"
        />
      </BlockStack>
    </Card>
  );
}
