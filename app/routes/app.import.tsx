/**
 * Taobao import: the form (one id, many ids or a shop page, and the target store), the jobs table
 * with live progress bars while jobs run (the page polls its loader every second until none is
 * queued or running), status tabs, text search and a store filter, error messages grouped with
 * counts and a Retry per group, Retry page / Retry all failed, and a link per job to its detail
 * (source payload, created product). Same services and zod schemas as the
 * /api/shopify/admin/products endpoints.
 *
 * The target store has no default: the admin chooses it (a submission without one is refused with
 * the error under the field). After an import, the banner follows its batch: "queued" while its jobs
 * wait or run, then what became of them once none is left (the poll asks for the batch's counts).
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useFetcher, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { Badge, Banner, BlockStack, Box, Button, Card, ChoiceList, Filters, FormLayout, InlineStack, Layout, Page, Select, Text, TextField } from "@shopify/polaris";
import { ResponsiveCell, ResponsiveIndexTable, ResponsiveRow } from "~/components/admin/ResponsiveIndexTable";
import { useCallback, useEffect, useRef, useState } from "react";
import { taobaoImportEndpoints, ImportJobStatusSchema, type ImportJobStatus } from "~/contract/taobao-import";
import { getAppContext } from "~/context.server";
import { toApiError } from "~/api/router.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { importErrorGroups, importStoreOptions, retryAllImports, retryImportJob, retryImportPage, retryImportsByMessage, searchImportJobs, submitImport, type JobViewRow } from "~/services/taobao-import/jobs.server";
import { BarChart } from "~/components/BarChart";
import { ImportJobProgress as JobProgress, IMPORT_STEP_LABEL as STEP_LABEL } from "~/components/ImportJobProgress";
import { listParam, parseListParams, rangeLabel, type ActionResult } from "~/lib/admin-list";
import { ActionBannerSection, ConfirmModal, ListFooter, RowLink, StatusTabs, useFetcherResult, useListParams, useQueryParam } from "~/components/admin";
import { formOf } from "~/lib/body-limit.server";

const POLL_MS = 1000;
const PAGE_SIZE = 20;
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

function filtersOf(url: URL) {
  const f = parseListParams(url.searchParams, {
    status: listParam.optional(ImportJobStatusSchema),
    q: listParam.text(),
    store: listParam.text(),
    page: listParam.page(),
  });
  return { status: f.status, text: f.q || undefined, store_id: f.store || undefined, page: f.page, limit: PAGE_SIZE };
}

export const loader = async ({ request }: LoaderFunctionArgs) => {
  await requireAdmin(request, "catalog.import");
  const ctx = getAppContext();
  const url = new URL(request.url);
  const polling = url.searchParams.has("poll");
  const f = filtersOf(url);
  try {
    // One query after another: the embedded database serves one statement stream at a time.
    const list = await searchImportJobs(ctx, f);
    const errors = await importErrorGroups(ctx.db, { store_id: f.store_id });
    const stores = polling ? [] : await importStoreOptions(ctx.db);
    // The batch the banner follows (polls after an import): its jobs' counts by status.
    const batchId = url.searchParams.get("batch");
    const batch = batchId ? { id: batchId, counts: (await searchImportJobs(ctx, { batch_id: batchId, page: 1, limit: 1 })).counts } : null;
    return {
      now: new Date().toISOString(),
      filters: { status: f.status ?? null, q: f.text ?? "", store: f.store_id ?? "" },
      list: { ...list, jobs: list.jobs.map(toRow) },
      errors: { ...errors, groups: errors.groups.map((g) => ({ ...g, last_at: iso(g.last_at)! })) },
      stores,
      source: ctx.taobao.kind,
      batch,
    };
  } catch (e) {
    // A failed poll keeps the page as it is and the next poll tries again.
    if (!polling) throw e;
    ctx.log.warn({ err: e }, "import page poll failed");
    return null;
  }
};

function toRow(j: JobViewRow) {
  return {
    id: j.id,
    taobaoId: j.taobao_product_id,
    store: j.store_name,
    status: j.status as ImportJobStatus,
    progress: j.progress,
    step: j.step,
    attempts: j.attempts,
    maxAttempts: j.max_attempts,
    error: j.error_message,
    retryAt: iso(j.retry_at),
    title: j.product?.title ?? j.result?.title ?? null,
    action: j.result?.action ?? null,
    productId: j.product_id,
    createdAt: iso(j.created_at)!,
  };
}


/** An import's answer names its batch (the banner follows it); a missing store is the store field's error. */
type ImportResult = { ok: true; message: string; batch: { id: string; queued: number } } | { ok: false; error: string; field: "store_id" };
const NO_STORE_CHOSEN = "Choose the store to import into";

export const action = async ({ request }: ActionFunctionArgs): Promise<ActionResult | ImportResult> => {
  await requireAdmin(request, "catalog.import");
  const ctx = getAppContext();
  const form = await formOf(request);
  const intent = form.get("intent");
  const s = (k: string) => {
    const v = form.get(k);
    return typeof v === "string" && v.trim() ? v.trim() : undefined;
  };
  try {
    if (intent === "import") {
      if (!s("store_id")) return { ok: false, error: NO_STORE_CHOSEN, field: "store_id" };
      const parsed = taobaoImportEndpoints.taobaoImportSubmit.body.safeParse({ taobao_product_id: s("ids") ?? "", store_id: s("store_id"), page: s("page") });
      if (!parsed.success) return { ok: false, error: parsed.error.issues.map((i) => i.message).join("; ") };
      const r = await submitImport(ctx, parsed.data);
      const queued = r.jobs.filter((j) => j.status === "queued").length;
      const failed = r.jobs.length - queued;
      // Nothing queued is a failure to the admin, whatever the refused jobs left in the table.
      if (!queued) return { ok: false, error: `No item was queued: ${[...new Set(r.jobs.map((j) => j.error_message ?? "refused"))].join("; ")}.` };
      const parts = [`${queued} ${queued === 1 ? "item" : "items"} queued for import`];
      if (r.shop) parts.push(`from page ${r.shop.page} of ${r.shop.page_count} of ${r.shop.shop_name}`);
      if (failed) parts.push(`${failed} refused (see the table)`);
      if (r.duplicates.length) parts.push(`${r.duplicates.length} given twice`);
      return { ok: true, message: `${parts.join("; ")}.`, batch: { id: r.batch_id, queued } };
    }
    if (intent === "retry") {
      const parsed = taobaoImportEndpoints.taobaoImportRetry.params.safeParse({ id: s("jobId") ?? "" });
      if (!parsed.success) return { ok: false, error: "Choose a job to retry" };
      await retryImportJob(ctx, parsed.data.id);
      return { ok: true, message: "The job is queued again." };
    }
    if (intent === "retry-page") {
      const f = filtersOf(new URL(request.url));
      const r = await retryImportPage(ctx, f);
      return { ok: true, message: r.retried ? `${r.retried} failed ${r.retried === 1 ? "job" : "jobs"} of this page queued again.` : "No failed job on this page." };
    }
    if (intent === "retry-all") {
      const r = await retryAllImports(ctx, { store_id: s("store_id") });
      return { ok: true, message: `${r.retried} failed ${r.retried === 1 ? "job" : "jobs"} queued again${r.remaining ? `; ${r.remaining} left: retry all again` : ""}.` };
    }
    if (intent === "retry-message") {
      const parsed = taobaoImportEndpoints.taobaoImportRetryByMessage.body.safeParse({ message: s("message") ?? "" });
      if (!parsed.success) return { ok: false, error: "Choose an error message" };
      // The group's count is of the filtered store: its Retry must not reach other stores' jobs.
      const r = await retryImportsByMessage(ctx, parsed.data.message, { store_id: s("store_id") });
      return { ok: true, message: `${r.retried} ${r.retried === 1 ? "job" : "jobs"} with this error queued again.` };
    }
    return { ok: false, error: "Unknown action" };
  } catch (e) {
    const err = toApiError(e);
    if (err.status >= 500 && err.status !== 503) throw e;
    return { ok: false, error: err.message };
  }
};

type Data = NonNullable<ReturnType<typeof useLoaderData<typeof loader>>>;
type Row = Data["list"]["jobs"][number];

const STATUS_TABS: { id: ImportJobStatus | "all"; label: string }[] = [
  { id: "all", label: "All" },
  { id: "queued", label: "Queued" },
  { id: "running", label: "Running" },
  { id: "completed", label: "Completed" },
  { id: "failed", label: "Failed" },
];
const STATUS_TONE: Record<ImportJobStatus, "info" | "attention" | "success" | "critical"> = { queued: "info", running: "attention", completed: "success", failed: "critical" };
const isActive = (r: Row) => r.status === "queued" || r.status === "running";

export default function ImportPage() {
  const page = useLoaderData<typeof loader>()!;
  const poll = useFetcher<typeof loader>({ key: "import-poll" });
  const navigation = useNavigation();
  const { searchParams, setParam, reset } = useListParams();
  // The newest answer wins: the page's own (after an action or a filter change) or the poll's.
  const polled = poll.data && poll.data.now > page.now && poll.data.filters.q === page.filters.q && poll.data.filters.status === page.filters.status && poll.data.filters.store === page.filters.store ? poll.data : null;
  const data: Data = polled ? { ...polled, stores: page.stores } : page;
  const [notice, setNotice] = useState<ActionResult | null>(null);
  // The last import's batch while the banner tells about it: followed until none of its jobs is left to run.
  const [batch, setBatch] = useState<FollowedBatch | null>(null);
  const batchRunning = batch !== null && batch.done === null;
  const active = data.list.jobs.some(isActive) || data.list.counts.queued + data.list.counts.running > 0 || batchRunning;
  const [confirmAll, setConfirmAll] = useState(false);
  const query = useQueryParam(page.filters.q, setParam);
  const bulk = useFetcher<typeof action>({ key: "import-bulk" });

  const pollRef = useRef(poll);
  pollRef.current = poll;
  const followed = batchRunning ? batch.id : null;
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => {
      if (pollRef.current.state === "idle") {
        const params = new URLSearchParams(searchParams);
        params.set("poll", "1");
        if (followed) params.set("batch", followed);
        pollRef.current.load(`/app/import?${params}`);
      }
    }, POLL_MS);
    return () => clearInterval(t);
  }, [active, searchParams, followed]);
  // The followed batch's jobs have all finished: the banner says what became of them.
  const polledBatch = poll.data?.batch;
  useEffect(() => {
    if (!polledBatch || !batch || batch.done || polledBatch.id !== batch.id) return;
    const c = polledBatch.counts;
    if (c.queued + c.running === 0) setBatch({ ...batch, done: { completed: c.completed, failed: c.failed } });
  }, [polledBatch, batch]);
  const onResult = useCallback((r: ActionResult | ImportResult) => {
    setNotice(r);
    setBatch(r.ok && "batch" in r ? { id: r.batch.id, message: r.message, done: null } : null);
  }, []);
  useFetcherResult(bulk, onResult, { whenIdle: false });

  const { list, errors } = data;
  const countOf = (id: ImportJobStatus | "all") => (id === "all" ? list.counts.queued + list.counts.running + list.counts.completed + list.counts.failed : list.counts[id]);
  const failedOnPage = list.jobs.filter((j) => j.status === "failed").length;
  const storeName = (id: string) => page.stores.find((s) => s.id === id)?.name ?? id;

  return (
    <Page
      title="Taobao import"
      subtitle={`Source: ${data.source === "local" ? "the local demo catalogue" : "the Taobao item API"}. Each item becomes a job: fetch, map, images, translate, create, propose variant images.`}
      primaryAction={{ content: "Retry all failed", destructive: false, disabled: list.counts.failed === 0 && errors.total === 0, onAction: () => setConfirmAll(true) }}
      secondaryActions={[{ content: "Retry failed on this page", disabled: failedOnPage === 0, onAction: () => bulk.submit({ intent: "retry-page" }, { method: "post", action: `/app/import?${searchParams}` }) }]}
    >
      <Layout>
        {batch ? (
          <Layout.Section>
            <BatchBanner
              batch={batch}
              onDismiss={() => {
                setBatch(null);
                setNotice(null);
              }}
            />
          </Layout.Section>
        ) : (
          <ActionBannerSection result={notice} testId="import-notice" onDismiss={() => setNotice(null)} />
        )}
        <Layout.Section>
          <ImportForm stores={page.stores} onResult={onResult} />
        </Layout.Section>
        {errors.groups.length > 0 ? (
          <Layout.Section>
            <Card>
              <BlockStack gap="300">
                <InlineStack align="space-between">
                  <Text as="h2" variant="headingMd">
                    Errors
                  </Text>
                  <Text as="span" tone="subdued">
                    {errors.total} failed {errors.total === 1 ? "job" : "jobs"}
                    {data.filters.store ? ` in ${storeName(data.filters.store)}` : ""}
                  </Text>
                </InlineStack>
                <BlockStack gap="200">
                  {errors.groups.map((g) => (
                    <ErrorGroup key={g.message} group={g} storeId={data.filters.store} onResult={onResult} />
                  ))}
                </BlockStack>
                {errors.groups.length > 1 ? (
                  <div style={{ maxWidth: 640 }}>
                    <BarChart data={errors.groups.slice(0, 8).map((g) => ({ label: g.message.length > 15 ? `${g.message.slice(0, 14)}…` : g.message, value: g.count }))} />
                  </div>
                ) : null}
              </BlockStack>
            </Card>
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <Card padding="0">
            <StatusTabs
              tabs={STATUS_TABS}
              selected={data.filters.status ?? "all"}
              count={countOf}
              idPrefix="import-tab-"
              accessibilityLabel={(t) => t.label}
              onSelect={(id) => setParam("status", id === "all" ? "" : id)}
            />
            <Filters
              {...query.filterProps}
              queryPlaceholder="Search by Taobao id, store, product title or error"
              onClearAll={() => {
                query.setValue("");
                reset();
              }}
              filters={[
                {
                  key: "store",
                  label: "Store",
                  filter: <ChoiceList title="Store" titleHidden choices={page.stores.map((s) => ({ label: s.name, value: s.id }))} selected={data.filters.store ? [data.filters.store] : []} onChange={(v) => setParam("store", v[0] ?? "")} />,
                  shortcut: true,
                },
              ]}
              appliedFilters={data.filters.store ? [{ key: "store", label: `Store: ${storeName(data.filters.store)}`, onRemove: () => setParam("store", "") }] : []}
              loading={navigation.state === "loading"}
            />
            <ResponsiveIndexTable
              resourceName={{ singular: "import job", plural: "import jobs" }}
              itemCount={list.jobs.length}
              selectable={false}
              headings={[{ title: "Taobao item" }, { title: "Store" }, { title: "Status" }, { title: "Progress" }, { title: "Result" }, { title: "Attempts", alignment: "end" }, { title: "" }]}
              emptyState={
                <Box padding="400">
                  <Text as="p" tone="subdued">
                    {list.total === 0 && !data.filters.q && !data.filters.status ? "No imports yet: give a Taobao item id above." : "No import job matches."}
                  </Text>
                </Box>
              }
            >
              {list.jobs.map((j, i) => (
                <ResponsiveRow id={j.id} key={j.id} position={i}>
                  <ResponsiveCell>
                    <BlockStack gap="050">
                      <RowLink to={`/app/import/${j.id}`} testId="import-job-link">
                        {j.taobaoId}
                      </RowLink>
                      <Text as="span" tone="subdued" variant="bodySm">
                        {new Date(j.createdAt).toLocaleString("en", { dateStyle: "medium", timeStyle: "short" })}
                      </Text>
                    </BlockStack>
                  </ResponsiveCell>
                  <ResponsiveCell>{j.store}</ResponsiveCell>
                  <ResponsiveCell>
                    <span data-testid={`import-status-${j.taobaoId}`}>
                      <Badge tone={STATUS_TONE[j.status]}>{j.status[0].toUpperCase() + j.status.slice(1)}</Badge>
                    </span>
                  </ResponsiveCell>
                  <ResponsiveCell>
                    <div style={{ minWidth: 180 }}>
                      <JobProgress job={j} />
                    </div>
                  </ResponsiveCell>
                  <ResponsiveCell>
                    <div style={{ maxWidth: 360, whiteSpace: "normal" }}>
                      {j.status === "completed" && j.productId ? (
                        <BlockStack gap="050">
                          <RowLink to={`/app/products/${encodeURIComponent(j.productId)}`} fontWeight="medium">
                            {j.title ?? "Product"}
                          </RowLink>
                          <Text as="span" tone="subdued" variant="bodySm">
                            {j.action === "updated" ? "Updated (imported before)" : "Created"}
                          </Text>
                        </BlockStack>
                      ) : j.error ? (
                        <Text as="span" tone={j.status === "failed" ? "critical" : "subdued"}>
                          <span data-testid={`import-error-${j.taobaoId}`}>{j.error}</span>
                        </Text>
                      ) : (
                        <Text as="span" tone="subdued">
                          —
                        </Text>
                      )}
                    </div>
                  </ResponsiveCell>
                  <ResponsiveCell>
                    <Text as="span" alignment="end" numeric>
                      {j.attempts} / {j.maxAttempts}
                    </Text>
                  </ResponsiveCell>
                  <ResponsiveCell>{j.status === "failed" ? <RetryButton job={j} onResult={onResult} /> : null}</ResponsiveCell>
                </ResponsiveRow>
              ))}
            </ResponsiveIndexTable>
            <ListFooter
              summary={`${rangeLabel((list.page - 1) * list.limit, list.limit, list.total, "0 jobs")}${active ? " · updating every second" : ""}`}
              page={list.page}
              pageCount={list.pageCount}
              onPage={(p) => setParam("page", String(p))}
            />
          </Card>
        </Layout.Section>
        <Layout.Section>
          <Card>
            <BlockStack gap="200">
              <Text as="h2" variant="headingSm">
                Jobs by status
              </Text>
              <div style={{ maxWidth: 640 }}>
                <BarChart data={STATUS_TABS.slice(1).map((t) => ({ label: t.label, value: countOf(t.id) }))} />
              </div>
            </BlockStack>
          </Card>
        </Layout.Section>
      </Layout>
      <ConfirmModal
        open={confirmAll}
        title="Retry every failed import?"
        confirmLabel="Retry all failed"
        destructive={false}
        loading={bulk.state !== "idle"}
        onConfirm={() => {
          bulk.submit({ intent: "retry-all", ...(data.filters.store ? { store_id: data.filters.store } : {}) }, { method: "post" });
          setConfirmAll(false);
        }}
        onClose={() => setConfirmAll(false)}
      >
        <Text as="p">
          {/* Retry all honours the store filter only (as the error groups do), not the search text the list counts follow. */}
          {errors.total} failed {errors.total === 1 ? "job" : "jobs"}
          {data.filters.store ? ` of ${storeName(data.filters.store)}` : ""} will run again from the start. Jobs that failed on bad input (an unknown item, no SKUs, broken images) fail again
          with the same error.
        </Text>
      </ConfirmModal>
    </Page>
  );
}

function ImportForm({ stores, onResult }: { stores: { id: string; name: string }[]; onResult: (r: ActionResult | ImportResult) => void }) {
  const fetcher = useFetcher<typeof action>({ key: "import-submit" });
  // `?ids=` prefills the form (a product request's "Start a Taobao import" opens the screen with its link).
  const [prefill] = useSearchParams();
  const [ids, setIds] = useState(() => prefill.get("ids") ?? "");
  // No default store: importing into the wrong store by accident is worse than one more choice.
  const [store, setStore] = useState("");
  const [storeError, setStoreError] = useState<string | null>(null);
  const [pageNo, setPageNo] = useState("");
  useFetcherResult(
    fetcher,
    (r) => {
      if (!r.ok && "field" in r) {
        setStoreError(r.error);
        return;
      }
      onResult(r);
      if (r.ok) setIds("");
    },
    { whenIdle: false },
  );
  const isShop = /shop/i.test(ids);
  return (
    <Card>
      <fetcher.Form
        method="post"
        onSubmit={(e) => {
          if (store) return;
          e.preventDefault();
          setStoreError(NO_STORE_CHOSEN);
        }}
      >
        <input type="hidden" name="intent" value="import" />
        <FormLayout>
          <Text as="h2" variant="headingMd">
            Import from Taobao
          </Text>
          <TextField
            label="Taobao item ids, item URLs or a shop"
            name="ids"
            value={ids}
            onChange={setIds}
            multiline={3}
            autoComplete="off"
            placeholder="720394001000, https://item.taobao.com/item.htm?id=720394008919 or shop:106512345"
            helpText="One id, several (separated by commas, spaces or new lines, up to 100), or one shop (shop:<id> or its URL) to import a page of its items. An item imported before is updated."
          />
          <FormLayout.Group>
            <Select
              label="Target store"
              name="store_id"
              placeholder="Choose a store"
              options={stores.map((s) => ({ label: s.name, value: s.id }))}
              value={store}
              onChange={(v) => {
                setStore(v);
                setStoreError(null);
              }}
              error={storeError ?? undefined}
              helpText={storeError ? undefined : "The store the imported products are added to."}
            />
            <TextField label="Shop page" name="page" type="number" min={1} value={pageNo} onChange={setPageNo} autoComplete="off" disabled={!isShop} helpText="For a shop: which page of its items (from 1)." />
          </FormLayout.Group>
          <InlineStack align="end">
            <Button submit variant="primary" loading={fetcher.state !== "idle"} disabled={!ids.trim()}>
              Import
            </Button>
          </InlineStack>
        </FormLayout>
      </fetcher.Form>
    </Card>
  );
}

function RetryButton({ job, onResult }: { job: Row; onResult: (r: ActionResult | ImportResult) => void }) {
  const fetcher = useFetcher<typeof action>({ key: `import-retry:${job.id}` });
  useFetcherResult(fetcher, onResult, { whenIdle: false });
  return (
    <Button size="slim" loading={fetcher.state !== "idle"} accessibilityLabel={`Retry ${job.taobaoId}`} onClick={() => fetcher.submit({ intent: "retry", jobId: job.id }, { method: "post", action: "/app/import" })}>
      Retry
    </Button>
  );
}

function ErrorGroup({ group, storeId, onResult }: { group: Data["errors"]["groups"][number]; storeId: string; onResult: (r: ActionResult | ImportResult) => void }) {
  const fetcher = useFetcher<typeof action>({ key: `import-retry-message:${group.message}` });
  useFetcherResult(fetcher, onResult, { whenIdle: false });
  return (
    <div data-testid="import-error-group">
      <InlineStack align="space-between" blockAlign="center" gap="300" wrap={false}>
        <InlineStack gap="200" blockAlign="center" wrap={false}>
          <Badge tone="critical">{String(group.count)}</Badge>
          <BlockStack gap="050">
            <Text as="span">{group.message}</Text>
            <Text as="span" variant="bodySm" tone="subdued">
              {group.step ? `at ${STEP_LABEL[group.step]?.toLowerCase() ?? group.step}` : ""}
            </Text>
          </BlockStack>
        </InlineStack>
        <Button size="slim" loading={fetcher.state !== "idle"} accessibilityLabel={`Retry ${group.count} with “${group.message}”`} onClick={() => fetcher.submit({ intent: "retry-message", message: group.message, ...(storeId ? { store_id: storeId } : {}) }, { method: "post", action: "/app/import" })}>
          {`Retry ${group.count}`}
        </Button>
      </InlineStack>
    </div>
  );
}

interface FollowedBatch {
  id: string;
  /** The import's answer ("3 items queued for import."). */
  message: string;
  /** Once none of its jobs is queued or running: how many completed and failed. */
  done: { completed: number; failed: number } | null;
}

const jobsText = (n: number) => `${n} ${n === 1 ? "job" : "jobs"}`;

/** The import's banner: queued (the table shows the progress), then finished with its outcome. */
function BatchBanner({ batch, onDismiss }: { batch: FollowedBatch; onDismiss: () => void }) {
  if (!batch.done) {
    return (
      <Banner tone="info" onDismiss={onDismiss}>
        <span data-testid="import-notice" data-batch-state="running">
          {batch.message} The table shows each job's progress.
        </span>
      </Banner>
    );
  }
  const { completed, failed } = batch.done;
  const text = failed
    ? `Import finished: ${completed} imported, ${jobsText(failed)} failed (see the errors below).`
    : `Import finished: ${completed} ${completed === 1 ? "item" : "items"} imported.`;
  return (
    <Banner tone={failed ? "warning" : "success"} onDismiss={onDismiss}>
      <span data-testid="import-notice" data-batch-state="finished">
        {text}
      </span>
    </Banner>
  );
}
