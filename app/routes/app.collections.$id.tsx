/**
 * A collection: edit its details (with the optimistic version check), publish, change status,
 * feature, delete; add products with a search picker, remove them, and set their order (drag a
 * row, or use Move up / Move down from the keyboard).
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useFetcher, useLoaderData, useNavigate } from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Box,
  Button,
  Card,
  FormLayout,
  InlineStack,
  Layout,
  Modal,
  Page,
  Select,
  Text,
  TextField,
  Thumbnail,
} from "@shopify/polaris";
import { useEffect, useRef, useState } from "react";
import { TargetGender } from "~/contract/common";
import { collectionsEndpoints } from "~/contract/collections";
import { toProductGid } from "~/lib/gid";
import { getAppContext } from "~/context.server";
import { toApiError } from "~/api/router.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { staffError } from "~/lib/staff-errors";
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
import { moveItem as move } from "~/lib/reorder";
import { NoImage } from "~/components/NoImage";

const GENDER_LABEL: Record<string, string> = { both: "Unisex", menswear: "Menswear", womenswear: "Womenswear" };
const STATUS_TONE: Record<string, "success" | "attention" | undefined> = { active: "success", draft: "attention", archived: undefined };

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  await requireAdmin(request, "catalog.edit");
  const ctx = getAppContext();
  const pq = new URL(request.url).searchParams.get("pq");
  const picker = await listProducts(ctx.db, { query: pq?.trim() || undefined, limit: 20, sortKey: "CREATED_AT", reverse: false });
  if (pq !== null) return { picker: picker.products, detail: null, vendors: [] };
  try {
    const [detail, vendors] = await Promise.all([adminCollectionDetail(ctx.db, params.id!), vendorOptions(ctx.db)]);
    return { picker: picker.products, detail, vendors };
  } catch (e) {
    if (toApiError(e).status === 404) throw staffError(404, "This collection does not exist (any more).");
    throw e;
  }
};

type ActionResult = { ok: true; message: string; intent: string } | { ok: false; error: string; intent: string };

const issues = (e: { issues: { path: PropertyKey[]; message: string }[] }) =>
  e.issues.map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message)).join("; ");

export const action = async ({ request, params }: ActionFunctionArgs) => {
  await requireAdmin(request, "catalog.edit");
  const ctx = getAppContext();
  const id = params.id!;
  const form = await request.formData();
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
    const err = toApiError(e);
    if (err.status >= 500) throw e;
    return fail(err.message);
  }
};

type Data = ReturnType<typeof useLoaderData<typeof loader>>;
type Detail = NonNullable<Data["detail"]>;
type Item = Detail["products"][number];
type Candidate = Data["picker"][number];

function Result({ data }: { data: unknown }) {
  const r = data as ActionResult | undefined;
  if (!r) return null;
  return r.ok ? <Banner tone="success">{r.message}</Banner> : <Banner tone="critical">{r.error}</Banner>;
}

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
          <Badge tone={STATUS_TONE[collection.status]}>{collection.status}</Badge>
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
            <Result data={actions.data} />
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
        <Modal
          open
          onClose={() => setConfirmDelete(false)}
          title={`Delete “${collection.title}”?`}
          primaryAction={{ content: "Delete collection", destructive: true, loading: busy, onAction: () => submit({ intent: "delete" }) }}
          secondaryActions={[{ content: "Cancel", onAction: () => setConfirmDelete(false) }]}
        >
          <Modal.Section>
            <Text as="p">The collection is removed for good; its {products.length} products stay in the catalogue.</Text>
          </Modal.Section>
        </Modal>
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
    <Card>
      <BlockStack gap="300">
        <Text as="h2" variant="headingMd">
          Details
        </Text>
        <Result data={fetcher.data} />
        <FormLayout>
          <TextField label="Title" autoComplete="off" value={form.title} onChange={set("title")} />
          <TextField label="Handle" autoComplete="off" value={form.handle} onChange={set("handle")} helpText="Changing it changes the collection's URL." />
          <TextField label="Description" autoComplete="off" multiline={3} value={form.description} onChange={set("description")} />
          <TextField label="Image URL" autoComplete="off" value={form.image_url} onChange={set("image_url")} />
          <Select
            label="Target gender"
            options={TargetGender.options.map((g) => ({ label: GENDER_LABEL[g], value: g }))}
            value={form.target_gender}
            onChange={set("target_gender")}
          />
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
      </BlockStack>
    </Card>
  );
}



function ProductsCard({ collectionId, products, initialCandidates }: { collectionId: string; products: Item[]; initialCandidates: Candidate[] }) {
  const order = useFetcher<typeof action>();
  const change = useFetcher<typeof action>();
  const search = useFetcher<typeof loader>();
  const [items, setItems] = useState(products);
  const [dragging, setDragging] = useState<number | null>(null);
  const [query, setQuery] = useState("");
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const storedKey = products.map((p) => p.id).join(",");
  useEffect(() => setItems(products), [storedKey]); // eslint-disable-line react-hooks/exhaustive-deps
  const dirty = items.map((p) => p.id).join(",") !== storedKey;
  const members = new Set(products.map((p) => p.id));
  const candidates = (search.data?.picker ?? initialCandidates).filter((c) => !members.has(c.id));

  const onQuery = (v: string) => {
    setQuery(v);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => search.load(`/app/collections/${encodeURIComponent(collectionId)}?pq=${encodeURIComponent(v)}`), 300);
  };
  useEffect(() => () => clearTimeout(timer.current), []);
  const send = (intent: "add" | "remove", ids: string[]) => change.submit({ intent, products: JSON.stringify(ids.map(toProductGid)) }, { method: "post" });

  return (
    <Card>
      <BlockStack gap="400">
        <InlineStack align="space-between" blockAlign="center">
          <Text as="h2" variant="headingMd">
            Products ({products.length})
          </Text>
          <InlineStack gap="200">
            {dirty ? (
              <Button onClick={() => setItems(products)} disabled={order.state !== "idle"}>
                Discard order
              </Button>
            ) : null}
            <Button
              variant="primary"
              disabled={!dirty}
              loading={order.state !== "idle"}
              onClick={() => order.submit({ intent: "order", products: JSON.stringify(items.map((p) => p.id)) }, { method: "post" })}
            >
              Save order
            </Button>
          </InlineStack>
        </InlineStack>
        <Result data={order.data} />
        <Result data={change.data} />
        {items.length === 0 ? (
          <Text as="p">No products yet: search the catalogue below and add some. A collection needs products before it can be published.</Text>
        ) : (
          <ol style={{ listStyle: "none", margin: 0, padding: 0 }} aria-label="Products in collection order" data-testid="collection-products">
            {items.map((p, i) => (
              <li
                key={p.id}
                draggable
                onDragStart={() => setDragging(i)}
                onDragOver={(e) => e.preventDefault()}
                onDrop={(e) => {
                  e.preventDefault();
                  if (dragging !== null) setItems((l) => move(l, dragging, i));
                  setDragging(null);
                }}
                onDragEnd={() => setDragging(null)}
                style={{ borderTop: i ? "1px solid #e3e3e3" : undefined, padding: "8px 0", cursor: "grab", opacity: dragging === i ? 0.5 : 1 }}
                data-testid="collection-product"
              >
                <InlineStack gap="300" blockAlign="center" wrap={false}>
                  <Text as="span" tone="subdued">
                    ⠿ {i + 1}.
                  </Text>
                  <Thumbnail size="small" source={p.featuredImage?.url || NoImage} alt={p.featuredImage?.altText ?? p.title} />
                  <Box minWidth="0" width="100%">
                    <BlockStack gap="050">
                      <Text as="span" fontWeight="semibold" truncate>
                        {p.title}
                      </Text>
                      <InlineStack gap="100">
                        <Text as="span" tone="subdued">
                          {p.vendor} · {p.priceRange.minVariantPrice.amount} {p.priceRange.minVariantPrice.currencyCode} · {GENDER_LABEL[p.target_gender]}
                        </Text>
                        {p.status !== "active" ? <Badge tone="attention">{p.status}</Badge> : null}
                      </InlineStack>
                    </BlockStack>
                  </Box>
                  <InlineStack gap="100" wrap={false}>
                    <Button size="slim" disabled={i === 0} onClick={() => setItems((l) => move(l, i, i - 1))} accessibilityLabel={`Move ${p.title} up`}>
                      ↑
                    </Button>
                    <Button
                      size="slim"
                      disabled={i === items.length - 1}
                      onClick={() => setItems((l) => move(l, i, i + 1))}
                      accessibilityLabel={`Move ${p.title} down`}
                    >
                      ↓
                    </Button>
                    <Button
                      size="slim"
                      tone="critical"
                      variant="plain"
                      disabled={dirty}
                      onClick={() => send("remove", [p.id])}
                      accessibilityLabel={`Remove ${p.title}`}
                    >
                      Remove
                    </Button>
                  </InlineStack>
                </InlineStack>
              </li>
            ))}
          </ol>
        )}
        <BlockStack gap="200">
          <TextField
            label="Add products"
            autoComplete="off"
            value={query}
            onChange={onQuery}
            placeholder="Search the catalogue by title, type, vendor or tag"
            clearButton
            onClearButtonClick={() => onQuery("")}
            helpText={dirty ? "Save or discard the new order before adding products." : undefined}
          />
          {candidates.length === 0 ? (
            <Text as="p" tone="subdued">
              No products to add match.
            </Text>
          ) : (
            <ul style={{ listStyle: "none", margin: 0, padding: 0, maxHeight: 360, overflowY: "auto" }} data-testid="product-picker">
              {candidates.slice(0, 12).map((c) => (
                <li key={c.id} style={{ padding: "6px 0" }}>
                  <InlineStack gap="300" blockAlign="center" wrap={false}>
                    <Thumbnail size="extraSmall" source={c.featuredImage?.url || NoImage} alt={c.featuredImage?.altText ?? c.title} />
                    <Box width="100%">
                      <Text as="span">{c.title}</Text>
                      <Text as="span" tone="subdued" variant="bodySm">
                        {" "}
                        · {c.vendor} · {GENDER_LABEL[c.target_gender]}
                      </Text>
                    </Box>
                    <Button
                      size="slim"
                      disabled={dirty}
                      loading={change.state !== "idle" && change.formData?.get("products") === JSON.stringify([c.id])}
                      onClick={() => send("add", [c.id])}
                      accessibilityLabel={`Add ${c.title}`}
                    >
                      Add
                    </Button>
                  </InlineStack>
                </li>
              ))}
            </ul>
          )}
        </BlockStack>
      </BlockStack>
    </Card>
  );
}
