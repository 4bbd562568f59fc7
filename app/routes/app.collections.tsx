/**
 * Collections: list with status tabs, search and pagination, a featured toggle per row, a
 * reorder dialog for the order shoppers see (drag, or Move up / Move down from the keyboard),
 * and creation of a draft that opens its detail page (app.collections.$id.tsx, which renders in
 * place of the list). Same services and zod schemas as /api/collections.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useFetcher, useLoaderData, useNavigation } from "@remix-run/react";
import { BlockStack, Button, Card, InlineStack, Layout, Modal, Page, Select, Text, TextField } from "@shopify/polaris";
import { ResponsiveCell, ResponsiveIndexTable, ResponsiveRow } from "~/components/admin/ResponsiveIndexTable";
import { useEffect, useState } from "react";
import { collectionsEndpoints } from "~/contract/collections";
import { getAppContext } from "~/context.server";
import { refusalOf } from "~/lib/admin-route.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { createCollection, listCollections, orderCollections, setFeatured } from "~/services/collections.server";
import { listParam, parseListParams, type ActionResult } from "~/lib/admin-list";
import {
  ActionBanner,
  ActionBannerSection,
  FormModal,
  GENDER_LABEL,
  GENDER_OPTIONS,
  LinkedTitle,
  StopRowClick,
  ListOrDetail,
  PagedFooter,
  PageChartSection,
  PublicationBadge,
  SortableList,
  StatusTabs,
  useListParams,
  revalidateOnDetailChange,
  useQueryParam,
} from "~/components/admin";
import { formOf } from "~/lib/body-limit.server";

const PAGE_SIZE = 20;
const TABS = [
  { id: "all", label: "All" },
  { id: "active", label: "Active" },
  { id: "draft", label: "Drafts" },
  { id: "archived", label: "Archived" },
] as const;

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  await requireAdmin(request, "catalog.edit");
  if (params.id) return { list: null, all: [], tab: "all", page: 0, q: "" };
  const ctx = getAppContext();
  const { status: tab, q, page } = parseListParams(new URL(request.url).searchParams, {
    status: listParam.oneOf(TABS.map((t) => t.id), "all"),
    q: listParam.text(),
    page: listParam.page(0),
  });
  const [list, all] = await Promise.all([
    listCollections(ctx.db, { skip: page * PAGE_SIZE, take: PAGE_SIZE, status: tab, q: q || undefined }, { editor: true }),
    // Every collection, for the reorder dialog.
    listCollections(ctx.db, { skip: 0, take: 1000, status: "all" }, { editor: true }),
  ]);
  return { list, all: all.collections.map((c) => ({ id: c.id, title: c.title, status: c.status })), tab, page, q };
};

/** The list skips its queries while a detail page shows: coming back from one loads it again. */
export const shouldRevalidate = revalidateOnDetailChange;

/** A JSON field of the form; null when it is not JSON (the schema then refuses it). */
const parseJson = (v: FormDataEntryValue) => {
  try {
    return JSON.parse(String(v)) as unknown;
  } catch {
    return null;
  }
};

export const action = async ({ request }: ActionFunctionArgs) => {
  await requireAdmin(request, "catalog.edit");
  const ctx = getAppContext();
  const form = await formOf(request);
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
      const parsed = collectionsEndpoints.collectionsAdminOrder.body.safeParse({ ids: parseJson(form.get("ids") ?? "[]") });
      if (!parsed.success) return { ok: false, error: parsed.error.issues.map((i) => i.message).join("; ") } satisfies ActionResult;
      await orderCollections(ctx.db, parsed.data.ids);
      return { ok: true, message: "Collection order saved." } satisfies ActionResult;
    }
    return { ok: false, error: "Unknown action" } satisfies ActionResult;
  } catch (e) {
    return { ok: false, error: refusalOf(e).message } satisfies ActionResult;
  }
};

type Data = ReturnType<typeof useLoaderData<typeof loader>>;
type Row = NonNullable<Data["list"]>["collections"][number];

export default function CollectionsRoute() {
  return <ListOrDetail list={<CollectionsList />} />;
}

function CollectionsList() {
  const data = useLoaderData<typeof loader>();
  const { list, page, tab } = data;
  const { setParam } = useListParams();
  const navigation = useNavigation();
  const [creating, setCreating] = useState(false);
  const [ordering, setOrdering] = useState(false);
  const query = useQueryParam(data.q, setParam);
  const [notice, setNotice] = useState<ActionResult | null>(null);

  if (!list) return null;

  return (
    <Page
      title="Collections"
      subtitle="Curated product lists shown to shoppers in their order."
      primaryAction={{ content: "Create collection", onAction: () => setCreating(true) }}
      secondaryActions={[{ content: "Reorder collections", onAction: () => setOrdering(true) }]}
    >
      <Layout>
        <ActionBannerSection result={notice} onDismiss={() => setNotice(null)} />
        <Layout.Section>
          <Card padding="0">
            <StatusTabs tabs={TABS} selected={tab} onSelect={(id) => setParam("status", id === "all" ? "" : id)} />
            <div style={{ padding: "12px 16px" }}>
              <TextField
                label="Search collections"
                labelHidden
                autoComplete="off"
                placeholder="Search by title or handle"
                value={query.value}
                onChange={query.onChange}
                clearButton
                onClearButtonClick={() => query.onChange("")}
                loading={navigation.state === "loading"}
              />
            </div>
            <ResponsiveIndexTable
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
                <ResponsiveRow id={c.id} key={c.id} position={i}>
                  <ResponsiveCell>
                    <LinkedTitle to={`/app/collections/${c.id}`} testId="collection-link" title={c.title} details={`${c.handle}${c.partner_id ? " · partner" : ""}`} primary />
                  </ResponsiveCell>
                  <ResponsiveCell>
                    <PublicationBadge status={c.status} />
                  </ResponsiveCell>
                  <ResponsiveCell>{GENDER_LABEL[c.target_gender]}</ResponsiveCell>
                  <ResponsiveCell>
                    <Text as="span" alignment="end" numeric>
                      {c.productCount}
                    </Text>
                  </ResponsiveCell>
                  <ResponsiveCell>
                    <Text as="span" alignment="end" numeric>
                      {c.view_count.toLocaleString("en")}
                    </Text>
                  </ResponsiveCell>
                  <ResponsiveCell>
                    <StopRowClick>
                      <FeaturedToggle row={c} />
                    </StopRowClick>
                  </ResponsiveCell>
                </ResponsiveRow>
              ))}
            </ResponsiveIndexTable>
            <PagedFooter page={page} pageSize={PAGE_SIZE} total={list.total} onPage={(p) => setParam("page", String(p))} />
          </Card>
        </Layout.Section>
        <PageChartSection title="Views per collection (this page)" data={list.collections.map((c) => ({ name: c.title, value: c.view_count }))} />
      </Layout>
      {creating ? <CreateModal onClose={() => setCreating(false)} /> : null}
      {ordering ? (
        <OrderModal
          items={data.all}
          onClose={() => setOrdering(false)}
          onDone={(r) => {
            setOrdering(false);
            setNotice(r);
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
  // A creation answers a redirect to the new collection; only a refusal comes back as data.
  const answered = { state: fetcher.state, data: fetcher.data as ActionResult | undefined };
  return (
    <FormModal title="Create collection" submitLabel="Create draft" fetcher={answered} onSubmit={() => fetcher.submit({ intent: "create", ...form }, { method: "post" })} onClose={onClose}>
      <TextField label="Title" autoComplete="off" value={form.title} onChange={(title) => setForm({ ...form, title })} />
      <TextField label="Description" autoComplete="off" multiline={3} value={form.description} onChange={(description) => setForm({ ...form, description })} />
      <Select label="Target gender" options={GENDER_OPTIONS} value={form.target_gender} onChange={(target_gender) => setForm({ ...form, target_gender })} />
      <Text as="p" tone="subdued">
        The collection starts as a draft: add products, then publish it.
      </Text>
    </FormModal>
  );
}


function OrderModal({ items: initial, onClose, onDone }: { items: Data["all"]; onClose: () => void; onDone: (r: ActionResult) => void }) {
  const fetcher = useFetcher<typeof action>();
  const [items, setItems] = useState(initial);
  const result = fetcher.data as ActionResult | undefined;
  useEffect(() => {
    if (result?.ok) onDone(result);
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
          <ActionBanner result={result} errorsOnly />
          <Text as="p" tone="subdued">
            Shoppers see active collections in this order. Drag a row, or use the move buttons.
          </Text>
          <SortableList
            items={items}
            onChange={setItems}
            label="Collections in order"
            itemTestId="order-item"
            compact
            nameOf={(c) => c.title}
            renderItem={(c) => (
              <InlineStack gap="200" blockAlign="center">
                <Text as="span">{c.title}</Text>
                <PublicationBadge status={c.status} />
              </InlineStack>
            )}
          />
        </BlockStack>
      </Modal.Section>
    </Modal>
  );
}
