/**
 * The ad board (issue 18; docs/product-ads.md "Product ads and their moves"): every vendor's ads,
 * newest first, in tabs per status counted by the service (Pending, Feedback, Completed, Approved,
 * Live, Inactive), a search (headline, primary text, product, vendor), a vendor filter and cursor
 * paging. "Sync metrics" starts the ads.sync-metrics job (as POST
 * /api/product-ads/sync-meta-performance) and the page follows its progress until it is done.
 * Same services and zod queries as GET /api/product-ads and its count; ads.manage only.
 */
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/node";
import { useFetcher, useLoaderData, useRevalidator } from "@remix-run/react";
import { Card, Layout, Page } from "@shopify/polaris";
import { useEffect, useRef, useState } from "react";
import { ProductAdsQuery } from "~/contract/product-ads";
import { getAppContext } from "~/context.server";
import { answerRefusals, issuesMessage, refusalOf } from "~/lib/admin-route.server";
import { formOf } from "~/lib/body-limit.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { staffError } from "~/lib/staff-errors";
import { jobProgress, startMetricsSync, teamCaller, toAdRow, vendorOptions } from "~/lib/ads-admin.server";
import { AD_TABS, adTabOf, jobActive, type JobProgressView } from "~/lib/ads-admin-view";
import { countProductAds, listProductAds } from "~/services/product-ads/ads.server";
import { ADS_SYNC_METRICS_QUEUE } from "~/services/product-ads/metrics.server";
import { ActionBannerSection } from "~/components/admin";
import { TabbedVendorFilters } from "~/components/admin/ads/TabbedVendorFilters";
import { cursorParams, CursorFooter } from "~/components/admin/CursorFooter";
import { AdsTable, JobProgress } from "~/components/admin/ads/AdParts";
import { vizLinks } from "~/components/admin/VizChart";

export const links: LinksFunction = () => vizLinks;

const POLL_MS = 1000;

export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { user } = await requireAdmin(request, "ads.manage");
  const ctx = getAppContext();
  const sp = new URL(request.url).searchParams;
  // The poll of a running sync reads the job alone.
  const polled = sp.get("syncJob");
  if (polled) return { poll: await jobProgress(ctx.db, polled, [ADS_SYNC_METRICS_QUEUE]) };
  const view = adTabOf(sp.get("status"));
  const { cursor, trail } = cursorParams(sp);
  const parsed = ProductAdsQuery.safeParse({ status: view === "all" ? undefined : view, vendorId: sp.get("vendorId") || undefined, q: sp.get("q") || undefined, cursor: cursor ?? undefined });
  if (!parsed.success) throw staffError(400, issuesMessage(parsed.error));
  const caller = teamCaller(user);
  try {
    // One query after another: the embedded database serves one statement stream at a time.
    const list = await listProductAds(ctx, caller, parsed.data);
    const counts = await countProductAds(ctx, caller, { vendorId: parsed.data.vendorId, q: parsed.data.q });
    const vendors = await vendorOptions(ctx.db);
    return {
      poll: null,
      board: { filters: { status: view, vendorId: parsed.data.vendorId ?? "", q: parsed.data.q ?? "" }, cursor, trail, ads: list.items.map(toAdRow), nextCursor: list.nextCursor, counts, vendors },
    };
  } catch (e) {
    if (e instanceof Response) throw e;
    const refusal = refusalOf(e);
    throw staffError(refusal.status, refusal.message);
  }
};

type SyncResult = { ok: true; message: string; jobId: string } | { ok: false; error: string };

export const action = async ({ request }: ActionFunctionArgs): Promise<SyncResult> => {
  await requireAdmin(request, "ads.manage");
  const ctx = getAppContext();
  const form = await formOf(request);
  return answerRefusals<SyncResult>(async () => {
    if (form.get("intent") !== "sync") return { ok: false, error: "Unknown action" };
    const { jobId } = await startMetricsSync(ctx);
    return { ok: true, message: "Syncing the ads' metrics from the ads platform.", jobId };
  });
};

export default function AdBoardPage() {
  const loaded = useLoaderData<typeof loader>();
  const data = loaded.board!;
  const revalidator = useRevalidator();

  const sync = useFetcher<typeof action>({ key: "ads-sync" });
  const poll = useFetcher<typeof loader>({ key: "ads-sync-poll" });
  const [dismissed, setDismissed] = useState<unknown>(null);
  const syncResult = sync.data && sync.data !== dismissed ? sync.data : null;
  const jobId = sync.data?.ok ? sync.data.jobId : null;
  const job: JobProgressView | null = poll.data?.poll && poll.data.poll.id === jobId ? poll.data.poll : jobId ? { id: jobId, status: "queued", progress: 0, error: null } : null;
  const running = jobActive(job);
  const pollRef = useRef(poll);
  pollRef.current = poll;
  useEffect(() => {
    if (!jobId || !running) return;
    const timer = setInterval(() => {
      if (pollRef.current.state === "idle") pollRef.current.load(`/app/ads?syncJob=${encodeURIComponent(jobId)}`);
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [jobId, running]);
  // Once the sync is done the board's totals are read again.
  const finished = job?.status === "completed" ? job.id : null;
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  useEffect(() => {
    if (finished) revalidate.current();
  }, [finished]);

  return (
    <Page
      title="Ads"
      subtitle="Every vendor's product ads through the workflow: made by the team, reviewed by the vendor, published to the ads platform."
      primaryAction={{ content: "Sync metrics", loading: sync.state !== "idle" || running, onAction: () => sync.submit({ intent: "sync" }, { method: "post" }) }}
      secondaryActions={[
        { content: "Ad requests", url: "/app/ads/requests" },
        { content: "Ad features", url: "/app/ads/features" },
      ]}
    >
      <Layout>
        <ActionBannerSection result={syncResult} testId="ads-notice" onDismiss={() => setDismissed(sync.data)} />
        {job ? (
          <Layout.Section>
            <Card>
              <JobProgress job={job} label="Syncing metrics" testId="ads-sync-progress" />
            </Card>
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <Card padding="0">
            <TabbedVendorFilters
              tabs={AD_TABS}
              defaultTab="all"
              idPrefix="ads-tab-"
              filters={data.filters}
              counts={data.counts}
              vendors={data.vendors}
              queryPlaceholder="Search headline, text, product or vendor"
            />
            <AdsTable
              ads={data.ads}
              empty={data.filters.q || data.filters.vendorId || data.filters.status !== "all" ? "No ad matches these filters." : "No ad yet: open an ad request to make one."}
            />
            <CursorFooter summary={`${data.ads.length} ad${data.ads.length === 1 ? "" : "s"} on this page`} cursor={data.cursor} trail={data.trail} nextCursor={data.nextCursor} />
          </Card>
        </Layout.Section>
      </Layout>
    </Page>
  );
}
