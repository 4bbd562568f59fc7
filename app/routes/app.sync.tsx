/**
 * Catalogue sync: every store with its products, when it was last synced and its latest sync's
 * outcome; "Sync" per store and "Sync all stores" start `catalog.sync` jobs through the same
 * service as POST /api/catalog-sync/stores/{id}/sync. While any job is queued or running the page
 * polls its loader every second and shows a live progress bar per store; a finished job shows its
 * counts, a failed one its error with a Retry.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useFetcher, useLoaderData } from "@remix-run/react";
import { Badge, Banner, BlockStack, Box, Button, Card, InlineStack, Layout, Page, ProgressBar, Text } from "@shopify/polaris";
import { ResponsiveCell, ResponsiveIndexTable, ResponsiveRow } from "~/components/admin/ResponsiveIndexTable";
import { useCallback, useEffect, useRef, useState } from "react";
import { catalogSyncEndpoints } from "~/contract/catalog-sync";
import { getAppContext } from "~/context.server";
import { toApiError } from "~/api/router.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { listCatalogSyncStores, startCatalogSync, type CatalogSyncJobView } from "~/services/catalog-sync.server";
import { BarChart } from "~/components/BarChart";
import { formOf } from "~/lib/body-limit.server";

const POLL_MS = 1000;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const loader = async ({ request }: LoaderFunctionArgs) => {
  await requireAdmin(request, "catalog.sync");
  const ctx = getAppContext();
  const polling = new URL(request.url).searchParams.has("poll");
  try {
    const stores = await listCatalogSyncStores(ctx.db);
    return {
      /** Server time of this answer: the reference for relative times and for "finished since". */
      now: new Date().toISOString(),
      stores: stores.map((s) => ({ ...s, lastSyncedAt: iso(s.lastSyncedAt), latestJob: s.latestJob ? toJob(s.latestJob) : null })),
    };
  } catch (e) {
    // A failed poll keeps the page as it is and the next poll tries again (the page's own load still fails loudly).
    if (!polling) throw e;
    ctx.log.warn({ err: e }, "catalogue sync poll failed");
    return { now: new Date().toISOString(), stores: null };
  }
};

function toJob(j: CatalogSyncJobView) {
  return {
    id: j.id,
    status: j.status,
    progress: j.progress,
    attempts: j.attempts,
    maxAttempts: j.maxAttempts,
    error: j.error,
    result: j.result ? { created: j.result.created, updated: j.result.updated, unchanged: j.result.unchanged, removed: j.result.removed, total: j.result.total } : null,
    createdAt: iso(j.createdAt)!,
    completedAt: iso(j.completedAt),
  };
}

type ActionResult = { ok: true; message: string; jobIds: string[] } | { ok: false; error: string };

export const action = async ({ request }: ActionFunctionArgs): Promise<ActionResult> => {
  await requireAdmin(request, "catalog.sync");
  const ctx = getAppContext();
  const form = await formOf(request);
  const intent = form.get("intent");
  try {
    if (intent === "sync") {
      const parsed = catalogSyncEndpoints.catalogSyncStore.params.safeParse({ id: form.get("storeId") ?? "" });
      if (!parsed.success) return { ok: false, error: "Choose a store to sync" };
      const { jobId } = await startCatalogSync(ctx, parsed.data.id);
      return { ok: true, message: "Sync started.", jobIds: [jobId] };
    }
    if (intent === "sync-all") {
      const stores = await listCatalogSyncStores(ctx.db);
      const jobIds: string[] = [];
      for (const s of stores) jobIds.push((await startCatalogSync(ctx, s.id)).jobId);
      return { ok: true, message: `Syncing ${jobIds.length} stores.`, jobIds };
    }
    return { ok: false, error: "Unknown action" };
  } catch (e) {
    const err = toApiError(e);
    if (err.status >= 500) throw e;
    return { ok: false, error: err.message };
  }
};

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;
type Data = LoaderData & { stores: NonNullable<LoaderData["stores"]> };
type Row = Data["stores"][number];
type Job = NonNullable<Row["latestJob"]>;

const isActive = (job: Job | null) => job?.status === "queued" || job?.status === "running";

const rtf = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
export function relativeTime(date: string | null, now: string): string {
  if (!date) return "Never";
  const seconds = Math.round((new Date(date).getTime() - new Date(now).getTime()) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 45) return "just now";
  if (abs < 3600) return rtf.format(Math.round(seconds / 60), "minute");
  if (abs < 86_400) return rtf.format(Math.round(seconds / 3600), "hour");
  if (abs < 30 * 86_400) return rtf.format(Math.round(seconds / 86_400), "day");
  return new Date(date).toLocaleDateString("en", { year: "numeric", month: "short", day: "numeric" });
}

const countsText = (r: NonNullable<Job["result"]>) => `${r.created} created, ${r.updated} updated, ${r.unchanged} unchanged, ${r.removed} removed`;

export default function CatalogSyncPage() {
  const page = useLoaderData<typeof loader>();
  const loaderData: Data = { ...page, stores: page.stores ?? [] };
  const poll = useFetcher<typeof loader>({ key: "catalog-sync-poll" });
  const polled = poll.data?.stores ? (poll.data as Data) : null;
  // The newest answer wins: the page's own (after an action) or the poll's.
  const data: Data = polled && polled.now > loaderData.now ? polled : loaderData;
  const pollFailed = poll.data !== undefined && poll.data.stores === null;
  const active = data.stores.some((s) => isActive(s.latestJob));
  const [since, setSince] = useState(loaderData.now);
  const [notice, setNotice] = useState<ActionResult | null>(null);
  const all = useFetcher<typeof action>({ key: "catalog-sync-all" });

  const pollRef = useRef(poll);
  pollRef.current = poll;
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      if (pollRef.current.state === "idle") pollRef.current.load("/app/sync?poll=1");
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [active]);

  useEffect(() => {
    if (all.data) setNotice(all.data);
  }, [all.data]);
  const onResult = useCallback((r: ActionResult) => setNotice(r), []);

  const finished = data.stores.filter((s) => s.latestJob?.status === "completed" && s.latestJob.completedAt && s.latestJob.completedAt >= since);
  const failed = data.stores.filter((s) => s.latestJob?.status === "failed");
  const running = data.stores.filter((s) => isActive(s.latestJob)).length;

  return (
    <Page
      title="Catalogue sync"
      subtitle="Reads every product of a store from the commerce backend into the app's catalogue."
      primaryAction={{
        content: "Sync all stores",
        loading: all.state !== "idle",
        disabled: data.stores.length === 0,
        onAction: () => all.submit({ intent: "sync-all" }, { method: "post" }),
      }}
    >
      <Layout>
        {notice && !notice.ok ? (
          <Layout.Section>
            <Banner tone="critical" onDismiss={() => setNotice(null)}>
              {notice.error}
            </Banner>
          </Layout.Section>
        ) : null}
        {failed.map((s) => (
          <Layout.Section key={`failed-${s.id}`}>
            <FailedBanner store={s} onResult={onResult} />
          </Layout.Section>
        ))}
        {finished.length > 0 ? (
          <Layout.Section>
            <Banner tone="success" title={finished.length === 1 ? `${finished[0].name} is in sync` : `${finished.length} stores are in sync`} onDismiss={() => setSince(data.now)}>
              <div data-testid="sync-success">
                {finished.map((s) => (
                  <Text as="p" key={s.id}>
                    {s.name}: {countsText(s.latestJob!.result!)}.
                  </Text>
                ))}
              </div>
            </Banner>
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <Card padding="0">
            <ResponsiveIndexTable
              resourceName={{ singular: "store", plural: "stores" }}
              itemCount={data.stores.length}
              selectable={false}
              headings={[{ title: "Store" }, { title: "Vendor" }, { title: "Products", alignment: "end" }, { title: "Last synced" }, { title: "Last result" }, { title: "" }]}
              emptyState={
                <Box padding="400">
                  <Text as="p" tone="subdued">
                    No stores yet: add one on the Stores page.
                  </Text>
                </Box>
              }
            >
              {data.stores.map((s, i) => (
                <ResponsiveRow id={s.id} key={s.id} position={i}>
                  <ResponsiveCell>
                    <Text as="span" fontWeight="semibold">
                      {s.name}
                    </Text>
                  </ResponsiveCell>
                  <ResponsiveCell>{s.vendorName}</ResponsiveCell>
                  <ResponsiveCell>
                    <Text as="span" alignment="end" numeric>
                      <span data-testid="product-count">{s.productCount.toLocaleString("en")}</span>
                    </Text>
                  </ResponsiveCell>
                  <ResponsiveCell>
                    <span data-testid={`last-synced-${s.id}`} title={s.lastSyncedAt ?? undefined}>
                      {relativeTime(s.lastSyncedAt, data.now)}
                    </span>
                  </ResponsiveCell>
                  <ResponsiveCell>
                    <div data-testid={`sync-status-${s.id}`} style={{ minWidth: 260 }}>
                      <JobStatus job={s.latestJob} />
                    </div>
                  </ResponsiveCell>
                  <ResponsiveCell>
                    <SyncButton store={s} label="Sync" onResult={onResult} />
                  </ResponsiveCell>
                </ResponsiveRow>
              ))}
            </ResponsiveIndexTable>
            {running > 0 ? (
              <Box padding="300">
                <Text as="p" tone="subdued">
                  {running === 1 ? "1 store is syncing" : `${running} stores are syncing`}; this page updates every second.
                  {pollFailed ? " The last update failed; trying again." : ""}
                </Text>
              </Box>
            ) : null}
          </Card>
        </Layout.Section>
        {data.stores.length > 0 ? (
          <Layout.Section>
            <Card>
              <BlockStack gap="300">
                <Text as="h2" variant="headingMd">
                  Products per store
                </Text>
                <div style={{ maxWidth: 640 }}>
                  <BarChart data={data.stores.map((s) => ({ label: s.name.length > 15 ? `${s.name.slice(0, 14)}…` : s.name, value: s.productCount }))} />
                </div>
              </BlockStack>
            </Card>
          </Layout.Section>
        ) : null}
      </Layout>
    </Page>
  );
}

/** Progress while a job is queued or running, its counts when done, its failure otherwise. */
export function JobStatus({ job }: { job: Job | null }) {
  if (!job) {
    return (
      <Text as="span" tone="subdued">
        Not synced yet
      </Text>
    );
  }
  if (isActive(job)) {
    const retrying = job.status === "queued" && job.error;
    return (
      <BlockStack gap="100">
        <div data-testid="sync-progress">
          <ProgressBar progress={job.progress} size="small" tone="highlight" />
        </div>
        <Text as="span" variant="bodySm" tone="subdued">
          {retrying
            ? `Retrying after an error (attempt ${job.attempts + 1} of ${job.maxAttempts}): ${job.error}`
            : job.status === "queued"
              ? "Queued…"
              : `Syncing… ${job.progress}%${job.attempts > 1 ? ` (attempt ${job.attempts} of ${job.maxAttempts})` : ""}`}
        </Text>
      </BlockStack>
    );
  }
  if (job.status === "completed" && job.result) {
    const r = job.result;
    return (
      <InlineStack gap="100" wrap>
        <Badge tone={r.created ? "success" : undefined}>{`${r.created} created`}</Badge>
        <Badge tone={r.updated ? "info" : undefined}>{`${r.updated} updated`}</Badge>
        <Badge>{`${r.unchanged} unchanged`}</Badge>
        <Badge tone={r.removed ? "warning" : undefined}>{`${r.removed} removed`}</Badge>
      </InlineStack>
    );
  }
  if (job.status === "failed") return <Badge tone="critical">Failed</Badge>;
  return <Badge>{job.status === "cancelled" ? "Cancelled" : "Done"}</Badge>;
}

function SyncButton({ store, label, onResult }: { store: Row; label: string; onResult: (r: ActionResult) => void }) {
  // One fetcher per store (shared with the store's Retry), so syncs of several stores can start together.
  const fetcher = useFetcher<typeof action>({ key: `catalog-sync:${store.id}` });
  useEffect(() => {
    if (fetcher.data) onResult(fetcher.data);
  }, [fetcher.data, onResult]);
  const busy = fetcher.state !== "idle" || isActive(store.latestJob);
  return (
    <Button
      size="slim"
      loading={fetcher.state !== "idle"}
      disabled={busy}
      accessibilityLabel={`${label} ${store.name}`}
      onClick={() => fetcher.submit({ intent: "sync", storeId: store.id }, { method: "post" })}
    >
      {label}
    </Button>
  );
}

export function FailedBanner({ store, onResult }: { store: Row; onResult: (r: ActionResult) => void }) {
  const job = store.latestJob!;
  return (
    <Banner tone="critical" title={`The sync of ${store.name} failed`}>
      <BlockStack gap="200">
        <Text as="p">
          <span data-testid="sync-error">{job.error ?? "The job failed without a message."}</span>
          {` (after ${job.attempts} of ${job.maxAttempts} attempts)`}
        </Text>
        <InlineStack>
          <SyncButton store={store} label="Retry" onResult={onResult} />
        </InlineStack>
      </BlockStack>
    </Banner>
  );
}
