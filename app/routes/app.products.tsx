/**
 * Products: every product of the catalogue (all statuses) with search, filters (status,
 * companion status, gender, vendor, store), sort and pagination; inventory updates from the
 * store as jobs with progress. The detail page (app.products.$id.tsx) renders in place of the list.
 * Same services as /api/products and /api/shopify/companion.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useFetcher, useLoaderData, useNavigation, useOutlet } from "@remix-run/react";
import { Badge, Banner, BlockStack, Card, ChoiceList, Filters, InlineStack, Layout, Page, ProgressBar, Select, Text, Thumbnail } from "@shopify/polaris";
import { ResponsiveCell, ResponsiveIndexTable, ResponsiveRow } from "~/components/admin/ResponsiveIndexTable";
import { useEffect, useState } from "react";
import { z } from "zod";
import { TargetGender } from "~/contract/common";
import { CompanionStatusSchema } from "~/contract/companion";
import { getAppContext } from "~/context.server";
import { toApiError } from "~/api/router.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { adminListProducts, adminProductFilterOptions, enqueueInventorySync, getInventoryJob, type AdminProductSort } from "~/services/catalog.server";
import { companionStatusCounts } from "~/services/companion.server";
import { listParam, parseListParams, rangeLabel } from "~/lib/admin-list";
import { ActionBannerSection, GENDER_LABEL, ListFooter, RowLink, useListParams, useQueryParam } from "~/components/admin";
import { ChartCard } from "~/components/admin/ChartCard";
import { formOf } from "~/lib/body-limit.server";
import { thumbnailUrl } from "~/client/images";

const PAGE_SIZE = 25;
// Kept here (not imported from the .server service) because the page renders them too.
const ADMIN_PRODUCT_SORTS = ["newest", "oldest", "title", "price-asc", "price-desc", "inventory-asc", "updated"] as const satisfies readonly AdminProductSort[];
const STATUSES = ["active", "draft", "archived"] as const;
const COMPANION_LABEL: Record<string, string> = { draft: "Draft", pending_review: "Pending review", active: "Active", archived: "Archived", none: "No companion" };
const SORT_LABEL: Record<AdminProductSort, string> = {
  newest: "Newest first",
  oldest: "Oldest first",
  title: "Title A–Z",
  "price-asc": "Price, low to high",
  "price-desc": "Price, high to low",
  "inventory-asc": "Inventory, lowest first",
  updated: "Recently updated",
};

const productStatusTone = (s: string) => (s === "active" ? "success" : s === "draft" ? "info" : undefined);
const companionTone = (s: string) => (s === "active" ? "success" : s === "pending_review" ? "attention" : s === "draft" ? "info" : undefined);

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  await requireAdmin(request, "catalog.edit");
  const ctx = getAppContext();
  const url = new URL(request.url);
  // Progress of an inventory job (polled by the page).
  const jobId = url.searchParams.get("inventoryJob");
  if (jobId) return { list: null, job: await getInventoryJob(ctx.db, jobId).catch(() => null) };
  // The detail page renders instead of the list: no list to load.
  if (params.id) return { list: null, job: null };
  const filters = parseListParams(url.searchParams, {
    q: listParam.text(),
    status: listParam.optional(z.enum(STATUSES)),
    companion: listParam.optional(z.enum([...CompanionStatusSchema.options, "none"])),
    gender: listParam.optional(TargetGender),
    vendor: listParam.text(),
    store: listParam.text(),
    sort: listParam.oneOf(ADMIN_PRODUCT_SORTS, "newest"),
    page: listParam.page(),
  });
  const [list, options, counts] = await Promise.all([
    adminListProducts(ctx.db, {
      query: filters.q || undefined,
      status: filters.status,
      companionStatus: filters.companion,
      gender: filters.gender,
      vendor: filters.vendor || undefined,
      storeId: filters.store || undefined,
      sort: filters.sort,
      page: filters.page,
      pageSize: PAGE_SIZE,
    }),
    adminProductFilterOptions(ctx.db),
    companionStatusCounts(ctx.db),
  ]);
  return { list, options, counts, filters, job: null };
};

type ActionResult = { ok: true; message: string; jobId?: string } | { ok: false; error: string };

export const action = async ({ request }: ActionFunctionArgs): Promise<ActionResult> => {
  await requireAdmin(request, "catalog.edit");
  const ctx = getAppContext();
  const form = await formOf(request);
  const intent = String(form.get("intent"));
  try {
    if (intent === "inventory-all" || intent === "inventory-out-of-stock") {
      const { jobId } = await enqueueInventorySync(ctx, intent === "inventory-out-of-stock");
      return { ok: true, jobId, message: intent === "inventory-all" ? "Updating the inventory of every product from the store…" : "Updating the inventory of out-of-stock products from the store…" };
    }
    return { ok: false, error: "Unknown action" };
  } catch (e) {
    const err = toApiError(e);
    if (err.status >= 500) throw e;
    return { ok: false, error: err.message };
  }
};

export default function ProductsRoute() {
  const outlet = useOutlet();
  if (outlet) return outlet;
  return <ProductsList />;
}

function InventoryJob({ jobId, message, onDone }: { jobId: string; message: string; onDone: () => void }) {
  const poll = useFetcher<typeof loader>();
  const job = poll.data?.job;
  const finished = job?.status === "completed" || job?.status === "failed";
  useEffect(() => {
    if (finished) return;
    const t = setTimeout(() => poll.load(`/app/products?inventoryJob=${encodeURIComponent(jobId)}`), job ? 1000 : 100);
    return () => clearTimeout(t);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [jobId, job?.progress, job?.status, finished]);
  if (job?.status === "failed") {
    return (
      <Banner tone="critical" title="The inventory update failed" onDismiss={onDone}>
        {job.error}
      </Banner>
    );
  }
  if (job?.status === "completed") {
    return (
      <Banner tone="success" title="Inventory updated" onDismiss={onDone}>
        {job.result ? `${job.result.products} products and ${job.result.variants} variants read from the store; ${job.result.changed} variants changed.` : "Done."}
      </Banner>
    );
  }
  return (
    <Banner tone="info" title={message}>
      <BlockStack gap="200">
        <ProgressBar progress={job?.progress ?? 0} size="small" />
        <Text as="span" tone="subdued">
          {job ? `${job.status === "queued" ? "Waiting for the worker" : "Running"}: ${job.progress}%` : "Starting…"}
        </Text>
      </BlockStack>
    </Banner>
  );
}

function ProductsList() {
  const data = useLoaderData<typeof loader>();
  const { setParam, reset } = useListParams();
  const navigation = useNavigation();
  const inventory = useFetcher<typeof action>();
  const query = useQueryParam("filters" in data && data.filters ? data.filters.q : "", setParam);
  const [job, setJob] = useState<{ id: string; message: string } | null>(null);

  useEffect(() => {
    if (inventory.data?.ok && inventory.data.jobId) setJob({ id: inventory.data.jobId, message: inventory.data.message });
  }, [inventory.data]);

  if (!("filters" in data) || !data.list || !data.filters) return null;
  const { list, options, counts, filters } = data;
  const startInventory = (intent: string) => inventory.submit({ intent }, { method: "post" });

  const choice = (key: string, title: string, choices: { label: string; value: string }[], selected: string | undefined) => ({
    key,
    label: title,
    filter: <ChoiceList title={title} titleHidden choices={choices} selected={selected ? [selected] : []} onChange={(v) => setParam(key, v[0] ?? "")} />,
    shortcut: true,
  });
  const applied = [
    filters.status ? { key: "status", label: `Status: ${filters.status}`, onRemove: () => setParam("status", "") } : null,
    filters.companion ? { key: "companion", label: `Companion: ${COMPANION_LABEL[filters.companion]}`, onRemove: () => setParam("companion", "") } : null,
    filters.gender ? { key: "gender", label: `Gender: ${GENDER_LABEL[filters.gender]}`, onRemove: () => setParam("gender", "") } : null,
    filters.vendor ? { key: "vendor", label: `Vendor: ${filters.vendor}`, onRemove: () => setParam("vendor", "") } : null,
    filters.store ? { key: "store", label: `Store: ${options.stores.find((s) => s.id === filters.store)?.name ?? filters.store}`, onRemove: () => setParam("store", "") } : null,
  ].filter((f): f is NonNullable<typeof f> => !!f);

  return (
    <Page
      title="Products"
      subtitle={`${list.total.toLocaleString("en")} ${list.total === 1 ? "product" : "products"}`}
      primaryAction={{ content: "Update all inventories", onAction: () => startInventory("inventory-all"), loading: inventory.state !== "idle" }}
      secondaryActions={[{ content: "Update out-of-stock inventories", onAction: () => startInventory("inventory-out-of-stock") }]}
    >
      <Layout>
        <ActionBannerSection result={inventory.data} errorsOnly />
        {job ? (
          <Layout.Section>
            <InventoryJob key={job.id} jobId={job.id} message={job.message} onDone={() => setJob(null)} />
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <Card padding="0">
            <Filters
              {...query.filterProps}
              queryPlaceholder="Search by title, handle, type, vendor, tag, product id or Taobao id"
              onClearAll={() => {
                query.setValue("");
                reset();
              }}
              filters={[
                choice("status", "Product status", STATUSES.map((s) => ({ label: s[0].toUpperCase() + s.slice(1), value: s })), filters.status),
                choice("companion", "Companion status", [...CompanionStatusSchema.options, "none"].map((s) => ({ label: COMPANION_LABEL[s], value: s })), filters.companion),
                choice("gender", "Target gender", TargetGender.options.map((g) => ({ label: GENDER_LABEL[g], value: g })), filters.gender),
                choice("vendor", "Vendor", options.vendors.map((v) => ({ label: `${v.name} (${v.productCount})`, value: v.name })), filters.vendor || undefined),
                choice("store", "Store", options.stores.map((s) => ({ label: s.name, value: s.id })), filters.store || undefined),
              ]}
              appliedFilters={applied}
              loading={navigation.state === "loading"}
            >
              <div style={{ minWidth: 200 }}>
                <Select label="Sort" labelInline options={ADMIN_PRODUCT_SORTS.map((s) => ({ label: SORT_LABEL[s], value: s }))} value={filters.sort} onChange={(v) => setParam("sort", v === "newest" ? "" : v)} />
              </div>
            </Filters>
            <ResponsiveIndexTable
              resourceName={{ singular: "product", plural: "products" }}
              itemCount={list.products.length}
              selectable={false}
              headings={[
                { title: "" },
                { title: "Product" },
                { title: "Status" },
                { title: "Companion" },
                { title: "Vendor / store" },
                { title: "Gender" },
                { title: "Price", alignment: "end" },
                { title: "Inventory", alignment: "end" },
              ]}
              emptyState={
                <BlockStack gap="200" inlineAlign="center">
                  <Text as="p">No products match.</Text>
                </BlockStack>
              }
            >
              {list.products.map((p, i) => (
                <ResponsiveRow id={p.id} key={p.id} position={i} titleCells={2}>
                  <ResponsiveCell>
                    <Thumbnail size="small" source={thumbnailUrl(p.image?.url)} alt={p.image?.altText ?? p.title} />
                  </ResponsiveCell>
                  <ResponsiveCell>
                    <BlockStack gap="050">
                      <RowLink to={`/app/products/${encodeURIComponent(p.id)}`} testId="product-link" primary>
                        {p.title}
                      </RowLink>
                      <Text as="span" tone="subdued" variant="bodySm">
                        {p.productType || "—"} · {p.variantCount} variants
                      </Text>
                    </BlockStack>
                  </ResponsiveCell>
                  <ResponsiveCell>
                    <InlineStack gap="100">
                      <Badge tone={productStatusTone(p.status)}>{p.status[0].toUpperCase() + p.status.slice(1)}</Badge>
                      {p.publishedAt && Date.parse(p.publishedAt) > Date.now() ? <Badge tone="attention">Scheduled</Badge> : null}
                    </InlineStack>
                  </ResponsiveCell>
                  <ResponsiveCell label="Companion">
                    {p.companion ? (
                      <InlineStack gap="100">
                        <Badge tone={companionTone(p.companion.status)}>{COMPANION_LABEL[p.companion.status]}</Badge>
                        {p.companion.verified ? <Badge tone="success">Verified</Badge> : null}
                      </InlineStack>
                    ) : (
                      <Text as="span" tone="subdued">
                        None
                      </Text>
                    )}
                  </ResponsiveCell>
                  <ResponsiveCell>
                    <BlockStack gap="050">
                      <Text as="span">{p.vendor || "—"}</Text>
                      {p.store && p.store.name !== p.vendor ? (
                        <Text as="span" tone="subdued" variant="bodySm">
                          {p.store.name}
                        </Text>
                      ) : null}
                    </BlockStack>
                  </ResponsiveCell>
                  <ResponsiveCell>{GENDER_LABEL[p.target_gender]}</ResponsiveCell>
                  <ResponsiveCell>
                    <Text as="span" alignment="end" numeric>
                      {p.price.min === p.price.max ? `${p.price.min} ${p.price.currencyCode}` : `${p.price.min}–${p.price.max} ${p.price.currencyCode}`}
                    </Text>
                  </ResponsiveCell>
                  <ResponsiveCell>
                    <Text as="span" alignment="end" numeric tone={p.totalInventory <= 0 ? "critical" : undefined}>
                      {p.totalInventory.toLocaleString("en")}
                    </Text>
                  </ResponsiveCell>
                </ResponsiveRow>
              ))}
            </ResponsiveIndexTable>
            <ListFooter
              summary={rangeLabel((list.page - 1) * list.pageSize, list.pageSize, list.total, "0 products")}
              page={list.page}
              pageCount={list.pages}
              onPage={(p) => setParam("page", String(p))}
            />
          </Card>
        </Layout.Section>
        <Layout.Section>
          <ChartCard title="Companions by status" data={(["active", "pending_review", "draft", "archived", "none"] as const).map((s) => ({ label: COMPANION_LABEL[s], value: counts[s] }))} />
        </Layout.Section>
      </Layout>
    </Page>
  );
}
