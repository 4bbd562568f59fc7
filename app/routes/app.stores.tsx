/**
 * Stores: list with search, gender filter and pagination; create and edit in a modal; delete
 * with a confirmation (and a forced delete when the store still has products). The detail page
 * (app.stores.$id.tsx) renders in place of the list. Same services and zod schemas as /api/stores.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Link, useFetcher, useLoaderData, useNavigation, useOutlet, useSearchParams, type ShouldRevalidateFunction } from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Button,
  Card,
  ChoiceList,
  Filters,
  FormLayout,
  IndexTable,
  InlineStack,
  Layout,
  Modal,
  Page,
  Pagination,
  Select,
  Text,
  TextField,
} from "@shopify/polaris";
import { useCallback, useEffect, useRef, useState } from "react";
import type { z } from "zod";
import { TargetGender } from "~/contract/common";
import { storesEndpoints } from "~/contract/stores";
import { getAppContext } from "~/context.server";
import { toApiError } from "~/api/router.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { createStore, deleteStore, listStores, updateStore, vendorOptions } from "~/services/stores.server";
import { BarChart } from "~/components/BarChart";

const PAGE_SIZE = 20;
const GENDER_LABEL: Record<string, string> = { both: "Unisex", menswear: "Menswear", womenswear: "Womenswear" };

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  await requireAdmin(request, "catalog.edit");
  // The detail page renders instead of the list: no list to load.
  if (params.id) return { list: null, vendors: [], page: 0, q: "", gender: "" };
  const ctx = getAppContext();
  const url = new URL(request.url);
  const q = url.searchParams.get("q")?.trim() ?? "";
  const g = TargetGender.safeParse(url.searchParams.get("gender"));
  const page = Math.max(0, Number.parseInt(url.searchParams.get("page") ?? "0", 10) || 0);
  const [list, vendors] = await Promise.all([
    listStores(ctx.db, { skip: page * PAGE_SIZE, take: PAGE_SIZE, q: q || undefined, target_gender: g.success ? g.data : undefined, exactGender: true }),
    vendorOptions(ctx.db),
  ]);
  return { list, vendors, page, q, gender: g.success ? g.data : "" };
};

/**
 * The list skips its queries while a detail page shows; coming back from a detail page (same
 * pathname for this route's match) must load the list again.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentParams, nextParams, defaultShouldRevalidate }) =>
  currentParams.id !== nextParams.id || defaultShouldRevalidate;

type ActionResult = { ok: true; message: string; intent: string } | { ok: false; error: string; intent: string; canForce?: boolean };

const nullable = (v: FormDataEntryValue | null) => (v === null ? undefined : String(v));
const issues = (e: z.ZodError) => e.issues.map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message)).join("; ");

export const action = async ({ request }: ActionFunctionArgs): Promise<ActionResult> => {
  await requireAdmin(request, "catalog.edit");
  const ctx = getAppContext();
  const form = await request.formData();
  const intent = String(form.get("intent"));
  const fields = () => ({
    name: nullable(form.get("name")),
    handle: form.get("handle") ? String(form.get("handle")) : undefined,
    description: nullable(form.get("description")),
    logo_url: nullable(form.get("logo_url")),
    banner_url: nullable(form.get("banner_url")),
    size_recommendation: nullable(form.get("size_recommendation")),
    target_gender: nullable(form.get("target_gender")),
    vendor_id: nullable(form.get("vendor_id")),
  });
  try {
    if (intent === "create") {
      const parsed = storesEndpoints.storesCreate.body.safeParse(fields());
      if (!parsed.success) return { ok: false, intent, error: issues(parsed.error) };
      const s = await createStore(ctx.db, parsed.data);
      return { ok: true, intent, message: `Store “${s.name}” created.` };
    }
    if (intent === "update") {
      const parsed = storesEndpoints.storesUpdate.body.safeParse(fields());
      if (!parsed.success) return { ok: false, intent, error: issues(parsed.error) };
      const s = await updateStore(ctx.db, String(form.get("id")), parsed.data);
      return { ok: true, intent, message: `Store “${s.name}” saved.` };
    }
    if (intent === "delete") {
      const r = await deleteStore(ctx.db, String(form.get("id")), { force: form.get("force") === "true" });
      return { ok: true, intent, message: r.detachedProducts ? `Store deleted; ${r.detachedProducts} products no longer have a store.` : "Store deleted." };
    }
    return { ok: false, intent, error: "Unknown action" };
  } catch (e) {
    const err = toApiError(e);
    if (err.status >= 500) throw e;
    return { ok: false, intent, error: err.message, canForce: intent === "delete" && err.status === 409 };
  }
};

type Data = ReturnType<typeof useLoaderData<typeof loader>>;
type Row = NonNullable<Data["list"]>["stores"][number];

export default function StoresRoute() {
  const outlet = useOutlet();
  if (outlet) return outlet;
  return <StoresList />;
}

function StoresList() {
  const data = useLoaderData<typeof loader>();
  const { list, vendors, page } = data;
  const [searchParams, setSearchParams] = useSearchParams();
  const navigation = useNavigation();
  const [query, setQuery] = useState(data.q);
  const [editing, setEditing] = useState<Row | "new" | null>(null);
  const [deleting, setDeleting] = useState<Row | null>(null);
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
  const vendorName = (id: string) => vendors.find((v) => v.id === id)?.name ?? "—";
  const from = list.total === 0 ? 0 : page * PAGE_SIZE + 1;
  const to = Math.min(list.total, (page + 1) * PAGE_SIZE);
  const done = (message: string) => {
    setEditing(null);
    setDeleting(null);
    setNotice(message);
  };

  return (
    <Page
      title="Stores"
      subtitle="Stores group products by vendor; shoppers follow them."
      primaryAction={{ content: "Add store", onAction: () => setEditing("new") }}
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
            <Filters
              queryValue={query}
              queryPlaceholder="Search stores by name or handle"
              onQueryChange={onQuery}
              onQueryClear={() => onQuery("")}
              onClearAll={() => {
                setQuery("");
                setSearchParams({}, { replace: true });
              }}
              filters={[
                {
                  key: "gender",
                  label: "Target gender",
                  filter: (
                    <ChoiceList
                      title="Target gender"
                      titleHidden
                      choices={TargetGender.options.map((g) => ({ label: GENDER_LABEL[g], value: g }))}
                      selected={data.gender ? [data.gender] : []}
                      onChange={(v) => setParam("gender", v[0] ?? "")}
                    />
                  ),
                  shortcut: true,
                },
              ]}
              appliedFilters={data.gender ? [{ key: "gender", label: `Gender: ${GENDER_LABEL[data.gender]}`, onRemove: () => setParam("gender", "") }] : []}
              loading={navigation.state === "loading"}
            />
            <IndexTable
              resourceName={{ singular: "store", plural: "stores" }}
              itemCount={list.stores.length}
              selectable={false}
              headings={[
                { title: "Store" },
                { title: "Handle" },
                { title: "Gender" },
                { title: "Vendor" },
                { title: "Products", alignment: "end" },
                { title: "Followers", alignment: "end" },
                { title: "" },
              ]}
              emptyState={
                <BlockStack gap="200" inlineAlign="center">
                  <Text as="p">No stores match.</Text>
                </BlockStack>
              }
            >
              {list.stores.map((s, i) => (
                <IndexTable.Row id={s.id} key={s.id} position={i}>
                  <IndexTable.Cell>
                    <Link to={`/app/stores/${s.id}`} data-testid="store-link">
                      <Text as="span" fontWeight="semibold">
                        {s.name}
                      </Text>
                    </Link>
                  </IndexTable.Cell>
                  <IndexTable.Cell>{s.handle}</IndexTable.Cell>
                  <IndexTable.Cell>
                    <Badge tone={s.target_gender === "both" ? undefined : "info"}>{GENDER_LABEL[s.target_gender]}</Badge>
                  </IndexTable.Cell>
                  <IndexTable.Cell>{vendorName(s.vendor_id)}</IndexTable.Cell>
                  <IndexTable.Cell>
                    <Text as="span" alignment="end" numeric>
                      {s.productCount}
                    </Text>
                  </IndexTable.Cell>
                  <IndexTable.Cell>
                    <Text as="span" alignment="end" numeric>
                      {s.followerCount}
                    </Text>
                  </IndexTable.Cell>
                  <IndexTable.Cell>
                    <InlineStack gap="200" wrap={false}>
                      <Button size="slim" onClick={() => setEditing(s)} accessibilityLabel={`Edit ${s.name}`}>
                        Edit
                      </Button>
                      <Button size="slim" tone="critical" variant="plain" onClick={() => setDeleting(s)} accessibilityLabel={`Delete ${s.name}`}>
                        Delete
                      </Button>
                    </InlineStack>
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
        {list.stores.length > 0 ? (
          <Layout.Section>
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  Active products per store (this page)
                </Text>
                <BarChart data={list.stores.map((s) => ({ label: s.name.length > 15 ? `${s.name.slice(0, 14)}…` : s.name, value: s.productCount }))} />
              </BlockStack>
            </Card>
          </Layout.Section>
        ) : null}
      </Layout>
      {editing ? <StoreModal store={editing === "new" ? null : editing} vendors={vendors} onClose={() => setEditing(null)} onDone={done} /> : null}
      {deleting ? <DeleteModal store={deleting} onClose={() => setDeleting(null)} onDone={done} /> : null}
    </Page>
  );
}

function StoreModal({
  store,
  vendors,
  onClose,
  onDone,
}: {
  store: Row | null;
  vendors: { id: string; name: string }[];
  onClose: () => void;
  onDone: (m: string) => void;
}) {
  const fetcher = useFetcher<typeof action>();
  const [form, setForm] = useState({
    name: store?.name ?? "",
    handle: store?.handle ?? "",
    description: store?.description ?? "",
    logo_url: store?.logo_url ?? "",
    banner_url: store?.banner_url ?? "",
    size_recommendation: store?.size_recommendation ?? "",
    target_gender: store?.target_gender ?? "both",
    vendor_id: store?.vendor_id ?? vendors[0]?.id ?? "",
  });
  const set = (k: keyof typeof form) => (v: string) => setForm((f) => ({ ...f, [k]: v }));
  useEffect(() => {
    if (fetcher.data?.ok) onDone(fetcher.data.message);
  }, [fetcher.data, onDone]);
  const submit = () => fetcher.submit({ intent: store ? "update" : "create", ...(store ? { id: store.id } : {}), ...form }, { method: "post" });
  return (
    <Modal
      open
      onClose={onClose}
      title={store ? `Edit ${store.name}` : "Add store"}
      primaryAction={{ content: store ? "Save" : "Create store", onAction: submit, loading: fetcher.state !== "idle" }}
      secondaryActions={[{ content: "Cancel", onAction: onClose }]}
    >
      <Modal.Section>
        <BlockStack gap="300">
          {fetcher.data && !fetcher.data.ok ? <Banner tone="critical">{fetcher.data.error}</Banner> : null}
          <FormLayout>
            <TextField label="Name" autoComplete="off" value={form.name} onChange={set("name")} />
            <TextField
              label="Handle"
              autoComplete="off"
              value={form.handle}
              onChange={set("handle")}
              helpText={store ? "Changing the handle changes the store's URL." : "Leave empty to make one from the name."}
            />
            <FormLayout.Group>
              <Select
                label="Target gender"
                options={TargetGender.options.map((g) => ({ label: GENDER_LABEL[g], value: g }))}
                value={form.target_gender}
                onChange={set("target_gender")}
              />
              <Select label="Vendor" options={vendors.map((v) => ({ label: v.name, value: v.id }))} value={form.vendor_id} onChange={set("vendor_id")} />
            </FormLayout.Group>
            <TextField label="Description" autoComplete="off" multiline={3} value={form.description} onChange={set("description")} />
            <FormLayout.Group>
              <TextField label="Logo URL" autoComplete="off" value={form.logo_url} onChange={set("logo_url")} />
              <TextField label="Banner URL" autoComplete="off" value={form.banner_url} onChange={set("banner_url")} />
            </FormLayout.Group>
            <TextField label="Size recommendation" autoComplete="off" multiline={2} value={form.size_recommendation} onChange={set("size_recommendation")} />
          </FormLayout>
        </BlockStack>
      </Modal.Section>
    </Modal>
  );
}

function DeleteModal({ store, onClose, onDone }: { store: Row; onClose: () => void; onDone: (m: string) => void }) {
  const fetcher = useFetcher<typeof action>();
  const [force, setForce] = useState(false);
  useEffect(() => {
    if (fetcher.data?.ok) onDone(fetcher.data.message);
    else if (fetcher.data && !fetcher.data.ok && fetcher.data.canForce) setForce(true);
  }, [fetcher.data, onDone]);
  return (
    <Modal
      open
      onClose={onClose}
      title={`Delete ${store.name}?`}
      primaryAction={{
        content: force ? "Delete store and detach its products" : "Delete store",
        destructive: true,
        loading: fetcher.state !== "idle",
        onAction: () => fetcher.submit({ intent: "delete", id: store.id, force: String(force) }, { method: "post" }),
      }}
      secondaryActions={[{ content: "Cancel", onAction: onClose }]}
    >
      <Modal.Section>
        <BlockStack gap="300">
          {fetcher.data && !fetcher.data.ok ? <Banner tone={fetcher.data.canForce ? "warning" : "critical"}>{fetcher.data.error}</Banner> : null}
          <Text as="p">
            {force
              ? `Its ${store.productCount} active products (and any drafts) stay in the catalogue without a store. Followers lose the store.`
              : "This cannot be undone. Followers lose the store and its featured products are cleared."}
          </Text>
        </BlockStack>
      </Modal.Section>
    </Modal>
  );
}
