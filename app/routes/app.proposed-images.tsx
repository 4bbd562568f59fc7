/**
 * Proposed variant images: review per product. Tabs by status (pending first), search and a
 * source filter; a table grouped by product where each variant row shows its current image and the
 * proposed one side by side (a larger comparison opens in a modal); approve or reject one row, or
 * select rows (a product's header row selects all of its proposals) and approve or reject them in
 * bulk. Counts by status and source and reviews per day are charts. Same services and zod schemas
 * as /api/proposed-variant-images (approval writes the image to the variant through the commerce
 * port).
 */
import { Fragment, useState } from "react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData, useNavigation } from "@remix-run/react";
import { Badge, BlockStack, Button, Card, ChoiceList, Filters, InlineGrid, InlineStack, Layout, Page, Text, Thumbnail } from "@shopify/polaris";
import { ResponsiveCell, ResponsiveIndexTable, ResponsiveRow } from "~/components/admin/ResponsiveIndexTable";
import { ProposalBulkBody, ProposalSourceSchema, ProposalStatusSchema, type ProposedVariantImage } from "~/contract/proposed-variant-images";
import { getAppContext } from "~/context.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { listParam, parseListParams, rangeLabel } from "~/lib/admin-list";
import { ActionBannerSection, BeforeAfter, ListFooter, StatusTabs, useListParams, useQueryParam } from "~/components/admin";
import { ChartCard } from "~/components/admin/ChartCard";
import { CompareModal, QueueEmptyState, REVIEW_STATUS_LABEL as STATUS_LABEL, REVIEW_TABS as TABS, reviewStatusTone as statusTone, RowActions, useReviewQueue } from "~/components/admin/ReviewQueue";
import { reviewQueueAction, type ReviewActionResult } from "~/lib/review-queue-action.server";
import { approveProposal, bulkReview, listProposalGroups, proposalStats, rejectProposal, updateProposal } from "~/services/proposed-variant-images.server";
import { thumbnailUrl } from "~/client/images";

const PAGE_SIZE = 10;

export const loader = async ({ request }: LoaderFunctionArgs) => {
  await requireAdmin(request, "media.manage");
  const ctx = getAppContext();
  const { status: tab, source, q, page } = parseListParams(new URL(request.url).searchParams, {
    status: listParam.oneOf(TABS.map((t) => t.id), "pending"),
    source: listParam.optional(ProposalSourceSchema),
    q: listParam.text(200),
    page: listParam.page(),
  });
  const [list, stats] = await Promise.all([
    listProposalGroups(ctx.db, {
      status: tab === "all" ? undefined : ProposalStatusSchema.parse(tab),
      source,
      q: q || undefined,
      page,
      pageSize: PAGE_SIZE,
    }),
    proposalStats(ctx.db, 14),
  ]);
  return { tab, source: source ?? "", q, list, stats };
};

/** "Striped Breton Top – Navy / S" */
const rowName = (p: { product: { title: string }; variant: { title: string } }) => `${p.product.title} – ${p.variant.title}`;

export const action = ({ request }: ActionFunctionArgs): Promise<ReviewActionResult> =>
  reviewQueueAction(request, {
    permission: "media.manage",
    intents: (ctx, reviewerId) => ({
      bulk: { schema: ProposalBulkBody, run: (action, ids) => bulkReview(ctx, action, ids, reviewerId), nouns: ["proposal", "proposals"], noSelection: "Select proposals first" },
      missingId: "Which proposal?",
      row: {
        approve: async (id) => `Approved: ${rowName(await approveProposal(ctx, id, reviewerId))} now shows the new image.`,
        reject: async (id) => `Rejected the proposal for ${rowName(await rejectProposal(ctx, id, reviewerId))}.`,
        reopen: async (id) => `Reopened the proposal for ${rowName(await updateProposal(ctx, id, { status: "pending" }, reviewerId))}.`,
      },
    }),
    refusal: (err) => {
      if (err.status >= 500 && err.status !== 503) return null;
      const reason = (err.details as { reason?: string } | undefined)?.reason;
      return reason && reason !== err.message ? `${err.message}: ${reason}` : err.message;
    },
  });

const shortDate = (iso: string) => new Date(iso).toLocaleDateString("en", { month: "short", day: "numeric", timeZone: "UTC" });

/** The image a row shows on the left: what the variant shows now, or (approved) what it showed before. */
const beforeImage = (p: ProposedVariantImage) => (p.status === "approved" ? p.current_image_url : p.variant.image_url);

function SideBySide({ p, size }: { p: ProposedVariantImage; size?: number }) {
  return (
    <BeforeAfter before={beforeImage(p)} beforeLabel={p.status === "approved" ? "Before" : "Current"} after={p.proposed_image_url} afterLabel="Proposed" size={size} />
  );
}

export default function ProposedImages() {
  const { tab, source, q, list, stats } = useLoaderData<typeof loader>();
  const { setParam, reset } = useListParams();
  const navigation = useNavigation();
  const query = useQueryParam(q, setParam);
  const [comparing, setComparing] = useState<ProposedVariantImage | null>(null);

  const proposals = list.groups.flatMap((g) => g.proposals);
  // The banner shows whichever answered last: a row action or a bulk action.
  const { act, isBusy, bulk, selection, bulkActions, result } = useReviewQueue<typeof action>(proposals);
  const { selectedIds } = selection;
  const describeFailure = (id: string) => {
    const p = proposals.find((x) => x.id === id);
    return p ? rowName(p) : id;
  };

  let position = 0;
  const rows = list.groups.map((g) => {
    const first = proposals.findIndex((p) => p.id === g.proposals[0].id);
    const range: [number, number] = [first, first + g.proposals.length - 1];
    const someSelected = g.proposals.some((p) => selectedIds.includes(p.id));
    const allSelected = g.proposals.every((p) => selectedIds.includes(p.id));
    const headerPosition = position++;
    return (
      <Fragment key={g.product.id}>
        <ResponsiveRow
          rowType="subheader"
          id={`product-${g.product.id}`}
          position={headerPosition}
          selectionRange={range}
          selected={allSelected ? true : someSelected ? "indeterminate" : false}
          accessibilityLabel={`Select every proposal of ${g.product.title}`}
        >
          <ResponsiveCell colSpan={6} scope="colgroup" as="th">
            <InlineStack gap="300" blockAlign="center">
              <Thumbnail size="small" source={thumbnailUrl(g.product.featuredImage?.url)} alt={g.product.title} />
              <Link to={`/app/products/${encodeURIComponent(g.product.id)}`} data-testid="proposal-product">
                <Text as="span" fontWeight="semibold">
                  {g.product.title}
                </Text>
              </Link>
              <Text as="span" tone="subdued">
                {g.proposals.length} {g.proposals.length === 1 ? "proposal" : "proposals"}
              </Text>
            </InlineStack>
          </ResponsiveCell>
        </ResponsiveRow>
        {g.proposals.map((p) => (
          <ResponsiveRow rowType="child" key={p.id} id={p.id} position={position++} selected={selectedIds.includes(p.id)} accessibilityLabel={`Select ${g.product.title} – ${p.variant.title}`}>
            <ResponsiveCell>
              <BlockStack gap="050">
                <Text as="span" fontWeight="medium">
                  {p.variant.title}
                </Text>
                {p.variant.color_hex ? (
                  <InlineStack gap="100" blockAlign="center">
                    <span style={{ width: 12, height: 12, borderRadius: 6, background: p.variant.color_hex, border: "1px solid #ccc", display: "inline-block" }} />
                    <Text as="span" tone="subdued" variant="bodySm">
                      {p.variant.color_hex}
                    </Text>
                  </InlineStack>
                ) : null}
              </BlockStack>
            </ResponsiveCell>
            <ResponsiveCell>
              <div data-testid="side-by-side">
                <SideBySide p={p} size={72} />
              </div>
            </ResponsiveCell>
            <ResponsiveCell>
              <Badge>{p.source}</Badge>
            </ResponsiveCell>
            <ResponsiveCell>
              <Badge tone={statusTone(p.status)}>{STATUS_LABEL[p.status]}</Badge>
            </ResponsiveCell>
            <ResponsiveCell>{shortDate(p.created_at)}</ResponsiveCell>
            <ResponsiveCell>
              <RowActions>
                <Button variant="plain" onClick={() => setComparing(p)} accessibilityLabel={`Compare ${g.product.title} – ${p.variant.title}`}>
                  Compare
                </Button>
                {p.status !== "approved" ? (
                  <Button size="slim" variant="primary" onClick={() => act("approve", p.id)} loading={isBusy("approve", p.id)} accessibilityLabel={`Approve ${g.product.title} – ${p.variant.title}`}>
                    Approve
                  </Button>
                ) : null}
                {p.status === "pending" ? (
                  <Button size="slim" tone="critical" onClick={() => act("reject", p.id)} loading={isBusy("reject", p.id)} accessibilityLabel={`Reject ${g.product.title} – ${p.variant.title}`}>
                    Reject
                  </Button>
                ) : null}
                {p.status === "rejected" ? (
                  <Button size="slim" onClick={() => act("reopen", p.id)} loading={isBusy("reopen", p.id)} accessibilityLabel={`Reopen ${g.product.title} – ${p.variant.title}`}>
                    Reopen
                  </Button>
                ) : null}
              </RowActions>
            </ResponsiveCell>
          </ResponsiveRow>
        ))}
      </Fragment>
    );
  });

  const reviewDays = stats.daily.map((d) => ({ label: shortDate(`${d.date}T00:00:00Z`), value: d.approved + d.rejected }));

  return (
    <Page title="Proposed variant images" subtitle={`${stats.byStatus.pending.toLocaleString("en")} pending on ${stats.productsWithPending.toLocaleString("en")} ${stats.productsWithPending === 1 ? "product" : "products"}`}>
      <Layout>
        <ActionBannerSection result={result} describeFailure={describeFailure} />
        <Layout.Section>
          <Card padding="0">
            <StatusTabs
              tabs={TABS}
              selected={tab}
              count={(id) => (id === "pending" ? stats.byStatus.pending : undefined)}
              onSelect={(id) => setParam("status", id === "pending" ? "" : id)}
            />
            <Filters
              {...query.filterProps}
              queryPlaceholder="Search by product or variant"
              onClearAll={() => {
                query.setValue("");
                reset(tab === "pending" ? {} : { status: tab });
              }}
              filters={[
                {
                  key: "source",
                  label: "Source",
                  shortcut: true,
                  filter: (
                    <ChoiceList
                      title="Source"
                      titleHidden
                      choices={stats.bySource.map((s) => ({ label: `${s.source} (${s.total})`, value: s.source }))}
                      selected={source ? [source] : []}
                      onChange={(v) => setParam("source", v[0] ?? "")}
                    />
                  ),
                },
              ]}
              appliedFilters={source ? [{ key: "source", label: `Source: ${source}`, onRemove: () => setParam("source", "") }] : []}
              loading={navigation.state === "loading"}
            />
            <ResponsiveIndexTable
              resourceName={{ singular: "proposal", plural: "proposals" }}
              itemCount={proposals.length}
              selectedItemsCount={selection.selectedItemsCount}
              onSelectionChange={selection.handleSelectionChange}
              promotedBulkActions={bulkActions}
              loading={bulk.state !== "idle"}
              headings={[{ title: "Variant" }, { title: "Current → proposed" }, { title: "Source" }, { title: "Status" }, { title: "Proposed" }, { title: "" }]}
              emptyState={<QueueEmptyState text={tab === "pending" ? "Nothing to review: no pending proposals match." : "No proposals match."} />}
            >
              {rows}
            </ResponsiveIndexTable>
            <ListFooter
              summary={list.totalProducts ? `Products ${rangeLabel((list.page - 1) * list.pageSize, list.pageSize, list.totalProducts)}` : "0 products"}
              page={list.page}
              pageCount={list.pages}
              onPage={(p) => setParam("page", String(p))}
            />
          </Card>
        </Layout.Section>
        <Layout.Section>
          <InlineGrid columns={{ xs: 1, md: 3 }} gap="400">
            <ChartCard
              title="Proposals by status"
              testId="stats-status"
              data={(["pending", "approved", "rejected"] as const).map((s) => ({ label: STATUS_LABEL[s], value: stats.byStatus[s] }))}
              note={stats.approvalRate === null ? "No reviews yet." : `${Math.round(stats.approvalRate * 100)}% of reviewed proposals were approved.`}
            />
            <ChartCard title="Proposals by source" data={stats.bySource.map((s) => ({ label: s.source, value: s.total }))} empty="None yet." />
            <ChartCard title={`Reviews per day (last ${stats.days} days)`} data={reviewDays} />
          </InlineGrid>
        </Layout.Section>
      </Layout>
      {comparing ? (
        <CompareModal
          title={rowName(comparing)}
          images={<SideBySide p={comparing} size={260} />}
          onApprove={comparing.status !== "approved" ? () => act("approve", comparing.id) : undefined}
          onReject={comparing.status === "pending" ? () => act("reject", comparing.id) : undefined}
          rejectDestructive
          onClose={() => setComparing(null)}
        >
          <Text as="p" tone="subdued">
            Source: {comparing.source} · {STATUS_LABEL[comparing.status]}
            {comparing.reviewed_at ? ` on ${shortDate(comparing.reviewed_at)}` : ""}
          </Text>
        </CompareModal>
      ) : null}
    </Page>
  );
}
