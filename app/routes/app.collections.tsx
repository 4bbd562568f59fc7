/**
 * Collections: list with status tabs, search and pagination, a featured toggle per row, a
 * reorder dialog for the order shoppers see (drag, or Move up / Move down from the keyboard),
 * and creation of a draft that opens its detail page (app.collections.$id.tsx, which renders in
 * place of the list). Same services and zod schemas as /api/collections.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link, useFetcher, useLoaderData, useNavigation, useOutlet, useSearchParams, type ShouldRevalidateFunction } from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Button,
  Card,
  FormLayout,
  IndexTable,
  InlineStack,
  Layout,
  Modal,
  Page,
  Pagination,
  Select,
  Tabs,
  Text,
  TextField,
} from "@shopify/polaris";
import { useCallback, useEffect, useRef, useState } from "react";
import { TargetGender } from "~/contract/common";
import { collectionsEndpoints } from "~/contract/collections";
import { getAppContext } from "~/context.server";
import { toApiError } from "~/api/router.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { createCollection, listCollections, orderCollections, setFeatured } from "~/services/collections.server";
import { BarChart } from "~/components/BarChart";
import { moveItem as move } from "~/lib/reorder";

const PAGE_SIZE = 20;
const TABS = [
  { id: "all", content: "All" },
  { id: "active", content: "Active" },
  { id: "draft", content: "Drafts" },
  { id: "archived", content: "Archived" },
] as const;
const STATUS_TONE: Record<string, "success" | "attention" | undefined> = { active: "success", draft: "attention", archived: undefined };
const GENDER_LABEL: Record<string, string> = { both: "Unisex", menswear: "Menswear", womenswear: "Womenswear" };

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  await requireAdmin(request, "catalog.edit");
  if (params.id) return { list: null, all: [], tab: "all", page: 0, q: "" };
  const ctx = getAppContext();
  const url = new URL(request.url);
  const tab = TABS.find((t) => t.id === url.searchParams.get("status"))?.id ?? "all";
  const q = url.searchParams.get("q")?.trim() ?? "";
  const page = Math.max(0, Number.parseInt(url.searchParams.get("page") ?? "0", 10) || 0);
  const [list, all] = await Promise.all([
    listCollections(ctx.db, { skip: page * PAGE_SIZE, take: PAGE_SIZE, status: tab, q: q || undefined }, { editor: true }),
    // Every collection, for the reorder dialog.
    listCollections(ctx.db, { skip: 0, take: 1000, status: "all" }, { editor: true }),
  ]);
  return { list, all: all.collections.map((c) => ({ id: c.id, title: c.title, status: c.status })), tab, page, q };
};

/**
 * The list skips its queries while a detail page shows; coming back from a detail page (same
 * pathname for this route's match) must load the list again.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentParams, nextParams, defaultShouldRevalidate }) =>
  currentParams.id !== nextParams.id || defaultShouldRevalidate;

type ActionResult = { ok: true; message: string } | { ok: false; error: string };

export const action = async ({ request }: ActionFunctionArgs) => {
  await requireAdmin(request, "catalog.edit");
  const ctx = getAppContext();
  const form = await request.formData();
  const intent = String(form.get("intent"));
  try {
    if (intent === "create") {
      const parsed = collectionsEndpoints.collectionsCreate.body.safeParse({
        title: form.get("title"),
        description: form.get("description") || undefined,
        target_gender: form.get("target_gender") || undefined,
      });
      if (!parsed.success) return { ok: false, error: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ") } satisfies ActionResult;
      const c = await createCollection(ctx.db, parsed.data);
      return redirect(`/app/collections/${c.id}`);
    }
    if (intent === "featured") {
      const parsed = collectionsEndpoints.collectionsAdminSetFeatured.body.safeParse({ featured: form.get("featured") === "true" });
      if (!parsed.success) return { ok: false, error: "featured must be true or false" } satisfies ActionResult;
      const c = await setFeatured(ctx.db, String(form.get("id")), parsed.data.featured);
      return { ok: true, message: `“${c.title}” is ${c.featured ? "now featured" : "no longer featured"}.` } satisfies ActionResult;
    }
    if (intent === "order") {
      const parsed = collectionsEndpoints.collectionsAdminOrder.body.safeParse({ ids: JSON.parse(String(form.get("ids") ?? "[]")) });
      if (!parsed.success) return { ok: false, error: parsed.error.issues.map((i) => i.message).join("; ") } satisfies ActionResult;
      await orderCollections(ctx.db, parsed.data.ids);
      return { ok: true, message: "Collection order saved." } satisfies ActionResult;
    }
    return { ok: false, error: "Unknown action" } satisfies ActionResult;
  } catch (e) {
    const err = toApiError(e);
    if (err.status >= 500) throw e;
    return { ok: false, error: err.message } satisfies ActionResult;
  }
};

type Data = ReturnType<typeof useLoaderData<typeof loader>>;
type Row = NonNullable<Data["list"]>["collections"][number];

export default function CollectionsRoute() {
  const outlet = useOutlet();
  if (outlet) return outlet;
  return <CollectionsList />;
}

function CollectionsList() {
  const data = useLoaderData<typeof loader>();
  const { list, page, tab } = data;
  const [searchParams, setSearchParams] = useSearchParams();
  const navigation = useNavigation();
  const [creating, setCreating] = useState(false);
  const [ordering, setOrdering] = useState(false);
  const [query, setQuery] = useState(data.q);
  const [notice, setNotice] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();

  const setParam = useCallback(
    (key: string, value: string) => {
      const next = new URLSearchParams(searchParams);
      if (value) next.set(key, value);
      else next.delete(key);
      if (key !== "page") next.delete("page");
      setSearchParams(next, { replace: true });
    },
    [searchParams, setSearchParams]
  );
  const onQuery = (v: string) => {
    setQuery(v);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setParam("q", v.trim()), 300);
  };
  useEffect(() => () => clearTimeout(timer.current), []);

  if (!list) return null;
  const from = list.total === 0 ? 0 : page * PAGE_SIZE + 1;
  const to = Math.min(list.total, (page + 1) * PAGE_SIZE);

  return (
    <Page
      title="Collections"
      subtitle="Curated product lists shown to shoppers in their order."
      primaryAction={{ content: "Create collection", onAction: () => setCreating(true) }}
      secondaryActions={[{ content: "Reorder collections", onAction: () => setOrdering(true) }]}
    >
      <Layout>
        {notice ? (
          <Layout.Section>
            <Banner tone="success" onDismiss={() => setNotice(null)}>
              {notice}
            </Banner>
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <Card padding="0">
            <Tabs
              tabs={TABS.map(({ id, content }) => ({ id, content }))}
              selected={TABS.findIndex((t) => t.id === tab)}
              onSelect={(i) => setParam("status", i === 0 ? "" : TABS[i].id)}
            />
            <div style={{ padding: "12px 16px" }}>
              <TextField
                label="Search collections"
                labelHidden
                autoComplete="off"
                placeholder="Search by title or handle"
                value={query}
                onChange={onQuery}
                clearButton
                onClearButtonClick={() => onQuery("")}
                loading={navigation.state === "loading"}
              />
            </div>
            <IndexTable
              resourceName={{ singular: "collection", plural: "collections" }}
              itemCount={list.collections.length}
              selectable={false}
              headings={[
                { title: "Collection" },
                { title: "Status" },
                { title: "Gender" },
                { title: "Products", alignment: "end" },
                { title: "Views", alignment: "end" },
                { title: "Featured" },
              ]}
            >
              {list.collections.map((c, i) => (
                <IndexTable.Row id={c.id} key={c.id} position={i}>
                  <IndexTable.Cell>
                    <BlockStack gap="050">
                      <Link to={`/app/collections/${c.id}`} data-testid="collection-link">
                        <Text as="span" fontWeight="semibold">
                          {c.title}
                        </Text>
                      </Link>
                      <Text as="span" tone="subdued" variant="bodySm">
                        {c.handle}
                        {c.partner_id ? " · partner" : ""}
                      </Text>
                    </BlockStack>
                  </IndexTable.Cell>
                  <IndexTable.Cell>
                    <Badge tone={STATUS_TONE[c.status]}>{c.status}</Badge>
                  </IndexTable.Cell>
                  <IndexTable.Cell>{GENDER_LABEL[c.target_gender]}</IndexTable.Cell>
                  <IndexTable.Cell>
                    <Text as="span" alignment="end" numeric>
                      {c.productCount}
                    </Text>
                  </IndexTable.Cell>
                  <IndexTable.Cell>
                    <Text as="span" alignment="end" numeric>
                      {c.view_count.toLocaleString("en")}
                    </Text>
                  </IndexTable.Cell>
                  <IndexTable.Cell>
                    <FeaturedToggle row={c} />
                  </IndexTable.Cell>
                </IndexTable.Row>
              ))}
            </IndexTable>
            <div style={{ padding: "12px 16px", display: "flex", justifyContent: "space-between", alignItems: "center" }}>
              <Text as="span" tone="subdued">
                {from}–{to} of {list.total}
              </Text>
              <Pagination
                hasPrevious={page > 0}
                onPrevious={() => setParam("page", String(page - 1))}
                hasNext={to < list.total}
                onNext={() => setParam("page", String(page + 1))}
              />
            </div>
          </Card>
        </Layout.Section>
        {list.collections.length > 0 ? (
          <Layout.Section>
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  Views per collection (this page)
                </Text>
                <BarChart data={list.collections.map((c) => ({ label: c.title.length > 15 ? `${c.title.slice(0, 14)}…` : c.title, value: c.view_count }))} />
              </BlockStack>
            </Card>
          </Layout.Section>
        ) : null}
      </Layout>
      {creating ? <CreateModal onClose={() => setCreating(false)} /> : null}
      {ordering ? (
        <OrderModal
          items={data.all}
          onClose={() => setOrdering(false)}
          onDone={(m) => {
            setOrdering(false);
            setNotice(m);
          }}
        />
      ) : null}
    </Page>
  );
}

function FeaturedToggle({ row }: { row: Row }) {
  const fetcher = useFetcher<typeof action>();
  // Optimistic: show the requested value while it is saved.
  const pending = fetcher.formData?.get("featured");
  const featured = pending != null ? pending === "true" : row.featured;
  const result = fetcher.data as ActionResult | undefined;
  return (
    <InlineStack gap="200" blockAlign="center" wrap={false}>
      <Button
        size="slim"
        pressed={featured}
        onClick={() => fetcher.submit({ intent: "featured", id: row.id, featured: String(!featured) }, { method: "post" })}
        accessibilityLabel={`${featured ? "Unfeature" : "Feature"} ${row.title}`}
      >
        {featured ? "★ Featured" : "☆ Feature"}
      </Button>
      {result && !result.ok ? (
        <Text as="span" tone="critical">
          {result.error}
        </Text>
      ) : null}
    </InlineStack>
  );
}

function CreateModal({ onClose }: { onClose: () => void }) {
  const fetcher = useFetcher<typeof action>();
  const [form, setForm] = useState({ title: "", description: "", target_gender: "both" });
  const result = fetcher.data as ActionResult | undefined;
  return (
    <Modal
      open
      onClose={onClose}
      title="Create collection"
      primaryAction={{
        content: "Create draft",
        loading: fetcher.state !== "idle",
        onAction: () => fetcher.submit({ intent: "create", ...form }, { method: "post" }),
      }}
      secondaryActions={[{ content: "Cancel", onAction: onClose }]}
    >
      <Modal.Section>
        <BlockStack gap="300">
          {result && !result.ok ? <Banner tone="critical">{result.error}</Banner> : null}
          <FormLayout>
            <TextField label="Title" autoComplete="off" value={form.title} onChange={(title) => setForm({ ...form, title })} />
            <TextField
              label="Description"
              autoComplete="off"
              multiline={3}
              value={form.description}
              onChange={(description) => setForm({ ...form, description })}
            />
            <Select
              label="Target gender"
              options={TargetGender.options.map((g) => ({ label: GENDER_LABEL[g], value: g }))}
              value={form.target_gender}
              onChange={(target_gender) => setForm({ ...form, target_gender })}
            />
          </FormLayout>
          <Text as="p" tone="subdued">
            The collection starts as a draft: add products, then publish it.
          </Text>
        </BlockStack>
      </Modal.Section>
    </Modal>
  );
}


function OrderModal({ items: initial, onClose, onDone }: { items: Data["all"]; onClose: () => void; onDone: (m: string) => void }) {
  const fetcher = useFetcher<typeof action>();
  const [items, setItems] = useState(initial);
  const [dragging, setDragging] = useState<number | null>(null);
  const result = fetcher.data as ActionResult | undefined;
  useEffect(() => {
    if (result?.ok) onDone(result.message);
  }, [result, onDone]);
  return (
    <Modal
      open
      onClose={onClose}
      title="Reorder collections"
      primaryAction={{
        content: "Save order",
        loading: fetcher.state !== "idle",
        onAction: () => fetcher.submit({ intent: "order", ids: JSON.stringify(items.map((i) => i.id)) }, { method: "post" }),
      }}
      secondaryActions={[{ content: "Cancel", onAction: onClose }]}
    >
      <Modal.Section>
        <BlockStack gap="200">
          {result && !result.ok ? <Banner tone="critical">{result.error}</Banner> : null}
          <Text as="p" tone="subdued">
            Shoppers see active collections in this order. Drag a row, or use the move buttons.
          </Text>
          <ol style={{ listStyle: "none", margin: 0, padding: 0 }} aria-label="Collections in order">
            {items.map((c, i) => (
              <li
                key={c.id}
                draggable
                onDragStart={() => setDragging(i)}
                onDragOver={(e) => e.preventDefault()}
                onDrop={(e) => {
                  e.preventDefault();
                  if (dragging !== null) setItems((l) => move(l, dragging, i));
                  setDragging(null);
                }}
                onDragEnd={() => setDragging(null)}
                style={{ borderTop: i ? "1px solid #e3e3e3" : undefined, padding: "6px 0", cursor: "grab", opacity: dragging === i ? 0.5 : 1 }}
                data-testid="order-item"
              >
                <InlineStack gap="200" blockAlign="center" align="space-between" wrap={false}>
                  <InlineStack gap="200" blockAlign="center">
                    <Text as="span" tone="subdued">
                      ⠿ {i + 1}.
                    </Text>
                    <Text as="span">{c.title}</Text>
                    <Badge tone={STATUS_TONE[c.status]}>{c.status}</Badge>
                  </InlineStack>
                  <InlineStack gap="100" wrap={false}>
                    <Button size="slim" disabled={i === 0} onClick={() => setItems((l) => move(l, i, i - 1))} accessibilityLabel={`Move ${c.title} up`}>
                      ↑
                    </Button>
                    <Button
                      size="slim"
                      disabled={i === items.length - 1}
                      onClick={() => setItems((l) => move(l, i, i + 1))}
                      accessibilityLabel={`Move ${c.title} down`}
                    >
                      ↓
                    </Button>
                  </InlineStack>
                </InlineStack>
              </li>
            ))}
          </ol>
        </BlockStack>
      </Modal.Section>
    </Modal>
  );
}
