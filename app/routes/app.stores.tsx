/**
 * Stores: list with search, gender filter and pagination; create and edit in a modal; delete
 * with a confirmation (and a forced delete when the store still has products). The detail page
 * (app.stores.$id.tsx) renders in place of the list. Same services and zod schemas as /api/stores.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useFetcher, useLoaderData, useNavigation } from "@remix-run/react";
import { Badge, Banner, BlockStack, Button, Card, ChoiceList, Filters, FormLayout, InlineStack, Layout, Page, Select, Text, TextField } from "@shopify/polaris";
import { ResponsiveCell, ResponsiveIndexTable, ResponsiveRow } from "~/components/admin/ResponsiveIndexTable";
import { useState } from "react";
import type { z } from "zod";
import { TargetGender } from "~/contract/common";
import { storesEndpoints } from "~/contract/stores";
import { getAppContext } from "~/context.server";
import { refusalOf } from "~/lib/admin-route.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { createStore, deleteStore, listStores, updateStore, vendorOptions } from "~/services/stores.server";
import { listParam, parseListParams } from "~/lib/admin-list";
import {
  ActionBannerSection,
  ConfirmModal,
  FormModal,
  GENDER_LABEL,
  GENDER_OPTIONS,
  LinkedTitle,
  StopRowClick,
  ListOrDetail,
  PagedFooter,
  PageChartSection,
  useFetcherResult,
  useListParams,
  revalidateOnDetailChange,
  useQueryParam,
  type ActionOutcome,
} from "~/components/admin";
import { formOf } from "~/lib/body-limit.server";

const PAGE_SIZE = 20;

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  await requireAdmin(request, "catalog.edit");
  // The detail page renders instead of the list: no list to load.
  if (params.id) return { list: null, vendors: [], page: 0, q: "", gender: "" };
  const ctx = getAppContext();
  const { q, gender, page } = parseListParams(new URL(request.url).searchParams, {
    q: listParam.text(),
    gender: listParam.optional(TargetGender),
    page: listParam.page(0),
  });
  const [list, vendors] = await Promise.all([
    listStores(ctx.db, { skip: page * PAGE_SIZE, take: PAGE_SIZE, q: q || undefined, target_gender: gender, exactGender: true }),
    vendorOptions(ctx.db),
  ]);
  return { list, vendors, page, q, gender: gender ?? "" };
};

/** The list skips its queries while a detail page shows: coming back from one loads it again. */
export const shouldRevalidate = revalidateOnDetailChange;

type ActionResult = { ok: true; message: string; intent: string } | { ok: false; error: string; intent: string; canForce?: boolean };

const nullable = (v: FormDataEntryValue | null) => (v === null ? undefined : String(v));
const issues = (e: z.ZodError) => e.issues.map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message)).join("; ");

export const action = async ({ request }: ActionFunctionArgs): Promise<ActionResult> => {
  await requireAdmin(request, "catalog.edit");
  const ctx = getAppContext();
  const form = await formOf(request);
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
    const err = refusalOf(e);
    return { ok: false, intent, error: err.message, canForce: intent === "delete" && err.status === 409 };
  }
};

type Data = ReturnType<typeof useLoaderData<typeof loader>>;
type Row = NonNullable<Data["list"]>["stores"][number];

export default function StoresRoute() {
  return <ListOrDetail list={<StoresList />} />;
}

function StoresList() {
  const data = useLoaderData<typeof loader>();
  const { list, vendors, page } = data;
  const { setParam, reset } = useListParams();
  const navigation = useNavigation();
  const query = useQueryParam(data.q, setParam);
  const [editing, setEditing] = useState<Row | "new" | null>(null);
  const [deleting, setDeleting] = useState<Row | null>(null);
  const [notice, setNotice] = useState<ActionOutcome | null>(null);

  if (!list) return null;
  const vendorName = (id: string) => vendors.find((v) => v.id === id)?.name ?? "—";
  const done = (message: string) => {
    setEditing(null);
    setDeleting(null);
    setNotice({ ok: true, message });
  };

  return (
    <Page
      title="Stores"
      subtitle="Stores group products by vendor; shoppers follow them."
      primaryAction={{ content: "Add store", onAction: () => setEditing("new") }}
    >
      <Layout>
        <ActionBannerSection result={notice} onDismiss={() => setNotice(null)} />
        <Layout.Section>
          <Card padding="0">
            <Filters
              {...query.filterProps}
              queryPlaceholder="Search stores by name or handle"
              onClearAll={() => {
                query.setValue("");
                reset();
              }}
              filters={[
                {
                  key: "gender",
                  label: "Target gender",
                  filter: (
                    <ChoiceList
                      title="Target gender"
                      titleHidden
                      choices={GENDER_OPTIONS}
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
            <ResponsiveIndexTable
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
                <ResponsiveRow id={s.id} key={s.id} position={i}>
                  <ResponsiveCell>
                    <LinkedTitle to={`/app/stores/${s.id}`} testId="store-link" title={s.name} primary />
                  </ResponsiveCell>
                  <ResponsiveCell>{s.handle}</ResponsiveCell>
                  <ResponsiveCell>
                    <Badge tone={s.target_gender === "both" ? undefined : "info"}>{GENDER_LABEL[s.target_gender]}</Badge>
                  </ResponsiveCell>
                  <ResponsiveCell>{vendorName(s.vendor_id)}</ResponsiveCell>
                  <ResponsiveCell>
                    <Text as="span" alignment="end" numeric>
                      {s.productCount}
                    </Text>
                  </ResponsiveCell>
                  <ResponsiveCell>
                    <Text as="span" alignment="end" numeric>
                      {s.followerCount}
                    </Text>
                  </ResponsiveCell>
                  <ResponsiveCell>
                    <StopRowClick>
                      <InlineStack gap="200" wrap={false}>
                        <Button size="slim" onClick={() => setEditing(s)} accessibilityLabel={`Edit ${s.name}`}>
                          Edit
                        </Button>
                        <Button size="slim" tone="critical" variant="plain" onClick={() => setDeleting(s)} accessibilityLabel={`Delete ${s.name}`}>
                          Delete
                        </Button>
                      </InlineStack>
                    </StopRowClick>
                  </ResponsiveCell>
                </ResponsiveRow>
              ))}
            </ResponsiveIndexTable>
            <PagedFooter page={page} pageSize={PAGE_SIZE} total={list.total} onPage={(p) => setParam("page", String(p))} />
          </Card>
        </Layout.Section>
        <PageChartSection title="Active products per store (this page)" data={list.stores.map((s) => ({ name: s.name, value: s.productCount }))} />
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
  // Closed by the page (with its notice) on success rather than by the modal itself.
  const answered = { state: fetcher.state, data: fetcher.data?.ok ? undefined : fetcher.data };
  useFetcherResult(fetcher, (r) => r.ok && onDone(r.message), { whenIdle: false });
  const submit = () => fetcher.submit({ intent: store ? "update" : "create", ...(store ? { id: store.id } : {}), ...form }, { method: "post" });
  return (
    <FormModal title={store ? `Edit ${store.name}` : "Add store"} submitLabel={store ? "Save" : "Create store"} fetcher={answered} onSubmit={submit} onClose={onClose}>
      <TextField label="Name" autoComplete="off" value={form.name} onChange={set("name")} />
      <TextField
        label="Handle"
        autoComplete="off"
        value={form.handle}
        onChange={set("handle")}
        helpText={store ? "Changing the handle changes the store's URL." : "Leave empty to make one from the name."}
      />
      <FormLayout.Group>
        <Select label="Target gender" options={GENDER_OPTIONS} value={form.target_gender} onChange={set("target_gender")} />
        <Select label="Vendor" options={vendors.map((v) => ({ label: v.name, value: v.id }))} value={form.vendor_id} onChange={set("vendor_id")} />
      </FormLayout.Group>
      <TextField label="Description" autoComplete="off" multiline={3} value={form.description} onChange={set("description")} />
      <FormLayout.Group>
        <TextField label="Logo URL" autoComplete="off" value={form.logo_url} onChange={set("logo_url")} />
        <TextField label="Banner URL" autoComplete="off" value={form.banner_url} onChange={set("banner_url")} />
      </FormLayout.Group>
      <TextField label="Size recommendation" autoComplete="off" multiline={2} value={form.size_recommendation} onChange={set("size_recommendation")} />
    </FormModal>
  );
}

function DeleteModal({ store, onClose, onDone }: { store: Row; onClose: () => void; onDone: (m: string) => void }) {
  const fetcher = useFetcher<typeof action>();
  const [force, setForce] = useState(false);
  useFetcherResult(
    fetcher,
    (r) => {
      if (r.ok) onDone(r.message);
      else if (r.canForce) setForce(true);
    },
    { whenIdle: false },
  );
  const refusal = fetcher.data && !fetcher.data.ok ? fetcher.data : null;
  return (
    <ConfirmModal
      title={`Delete ${store.name}?`}
      confirmLabel={force ? "Delete store and detach its products" : "Delete store"}
      loading={fetcher.state !== "idle"}
      onConfirm={() => fetcher.submit({ intent: "delete", id: store.id, force: String(force) }, { method: "post" })}
      onClose={onClose}
    >
      {/* A refusal that force can overcome is a warning, not an error. */}
      {refusal ? <Banner tone={refusal.canForce ? "warning" : "critical"}>{refusal.error}</Banner> : null}
      <Text as="p">
        {force
          ? `Its ${store.productCount} active products (and any drafts) stay in the catalogue without a store. Followers lose the store.`
          : "This cannot be undone. Followers lose the store and its featured products are cleared."}
      </Text>
    </ConfirmModal>
  );
}
