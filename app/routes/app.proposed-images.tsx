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
import { Link, useFetcher, useLoaderData, useNavigation } from "@remix-run/react";
import { Badge, BlockStack, Box, Button, Card, ChoiceList, Filters, IndexTable, InlineGrid, InlineStack, Layout, Modal, Page, Text, Thumbnail } from "@shopify/polaris";
import { IdParams } from "~/contract/common";
import { ProposalBulkBody, ProposalSourceSchema, ProposalStatusSchema, type ProposedVariantImage } from "~/contract/proposed-variant-images";
import { getAppContext } from "~/context.server";
import { toApiError } from "~/api/router.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { BarChart } from "~/components/BarChart";
import { bulkOutcome, listParam, parseListParams, rangeLabel, type BulkFailure } from "~/lib/admin-list";
import { ActionBannerSection, BeforeAfter, ListFooter, StatusTabs, useBulkSelection, useFetcherResult, useListParams, useQueryParam, useRowAction } from "~/components/admin";
import { approveProposal, bulkReview, listProposalGroups, proposalStats, rejectProposal, updateProposal } from "~/services/proposed-variant-images.server";

const PAGE_SIZE = 10;
const TABS = [
  { id: "pending", label: "Pending" },
  { id: "approved", label: "Approved" },
  { id: "rejected", label: "Rejected" },
  { id: "all", label: "All" },
] as const;
const STATUS_LABEL = { pending: "Pending", approved: "Approved", rejected: "Rejected" } as const;
const statusTone = (s: string) => (s === "approved" ? "success" : s === "rejected" ? "critical" : "attention");

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

type ActionResult = { ok: true; message: string; failures?: BulkFailure[] } | { ok: false; error: string };

export const action = async ({ request }: ActionFunctionArgs): Promise<ActionResult> => {
  const { user } = await requireAdmin(request, "media.manage");
  const ctx = getAppContext();
  const form = await request.formData();
  const intent = String(form.get("intent"));
  try {
    if (intent === "bulk-approve" || intent === "bulk-reject") {
      const parsed = ProposalBulkBody.safeParse({ action: intent === "bulk-approve" ? "approve" : "reject", ids: form.getAll("ids") });
      if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? "Select proposals first" };
      const r = await bulkReview(ctx, parsed.data.action, parsed.data.ids, user.id);
      return bulkOutcome(r, parsed.data.action === "approve" ? "approved" : "rejected", ["proposal", "proposals"]);
    }
    const id = IdParams.safeParse({ id: form.get("id") });
    if (!id.success) return { ok: false, error: "Which proposal?" };
    if (intent === "approve") {
      const p = await approveProposal(ctx, id.data.id, user.id);
      return { ok: true, message: `Approved: ${p.product.title} – ${p.variant.title} now shows the new image.` };
    }
    if (intent === "reject") {
      const p = await rejectProposal(ctx, id.data.id, user.id);
      return { ok: true, message: `Rejected the proposal for ${p.product.title} – ${p.variant.title}.` };
    }
    if (intent === "reopen") {
      const p = await updateProposal(ctx, id.data.id, { status: "pending" }, user.id);
      return { ok: true, message: `Reopened the proposal for ${p.product.title} – ${p.variant.title}.` };
    }
    return { ok: false, error: "Unknown action" };
  } catch (e) {
    const err = toApiError(e);
    if (err.status >= 500 && err.status !== 503) throw e;
    const reason = (err.details as { reason?: string } | undefined)?.reason;
    return { ok: false, error: reason && reason !== err.message ? `${err.message}: ${reason}` : err.message };
  }
};

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
  const { fetcher: rowAction, act, isBusy } = useRowAction<typeof action>();
  const bulk = useFetcher<typeof action>();
  const query = useQueryParam(q, setParam);
  const [comparing, setComparing] = useState<ProposedVariantImage | null>(null);

  const proposals = list.groups.flatMap((g) => g.proposals);
  const selection = useBulkSelection(proposals, bulk);
  const { selectedIds } = selection;
  // The banner shows whichever answered last: a row action or a bulk action.
  const [result, setResult] = useState<ActionResult | undefined>(undefined);
  useFetcherResult(bulk, setResult);
  useFetcherResult(rowAction, setResult);
  const describeFailure = (id: string) => {
    const p = proposals.find((x) => x.id === id);
    return p ? `${p.product.title} – ${p.variant.title}` : id;
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
        <IndexTable.Row
          rowType="subheader"
          id={`product-${g.product.id}`}
          position={headerPosition}
          selectionRange={range}
          selected={allSelected ? true : someSelected ? "indeterminate" : false}
          accessibilityLabel={`Select every proposal of ${g.product.title}`}
        >
          <IndexTable.Cell colSpan={6} scope="colgroup" as="th">
            <InlineStack gap="300" blockAlign="center">
              <Thumbnail size="small" source={g.product.featuredImage?.url ?? ""} alt={g.product.title} />
              <Link to={`/app/products/${encodeURIComponent(g.product.id)}`} data-testid="proposal-product">
                <Text as="span" fontWeight="semibold">
                  {g.product.title}
                </Text>
              </Link>
              <Text as="span" tone="subdued">
                {g.proposals.length} {g.proposals.length === 1 ? "proposal" : "proposals"}
              </Text>
            </InlineStack>
          </IndexTable.Cell>
        </IndexTable.Row>
        {g.proposals.map((p) => (
          <IndexTable.Row rowType="child" key={p.id} id={p.id} position={position++} selected={selectedIds.includes(p.id)} accessibilityLabel={`Select ${g.product.title} – ${p.variant.title}`}>
            <IndexTable.Cell>
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
            </IndexTable.Cell>
            <IndexTable.Cell>
              <div data-testid="side-by-side">
                <SideBySide p={p} size={72} />
              </div>
            </IndexTable.Cell>
            <IndexTable.Cell>
              <Badge>{p.source}</Badge>
            </IndexTable.Cell>
            <IndexTable.Cell>
              <Badge tone={statusTone(p.status)}>{STATUS_LABEL[p.status]}</Badge>
            </IndexTable.Cell>
            <IndexTable.Cell>{shortDate(p.created_at)}</IndexTable.Cell>
            <IndexTable.Cell>
              {/* Buttons inside a selectable row: stop the click from toggling the row's selection. */}
              <div onClick={(e) => e.stopPropagation()} role="presentation">
                <InlineStack gap="200" wrap={false}>
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
                </InlineStack>
              </div>
            </IndexTable.Cell>
          </IndexTable.Row>
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
            <IndexTable
              resourceName={{ singular: "proposal", plural: "proposals" }}
              itemCount={proposals.length}
              selectedItemsCount={selection.selectedItemsCount}
              onSelectionChange={selection.handleSelectionChange}
              promotedBulkActions={[
                { content: "Approve selected", onAction: () => selection.submit("bulk-approve") },
                { content: "Reject selected", onAction: () => selection.submit("bulk-reject") },
              ]}
              loading={bulk.state !== "idle"}
              headings={[{ title: "Variant" }, { title: "Current → proposed" }, { title: "Source" }, { title: "Status" }, { title: "Proposed" }, { title: "" }]}
              emptyState={
                <Box padding="600">
                  <BlockStack gap="200" inlineAlign="center">
                    <Text as="p">{tab === "pending" ? "Nothing to review: no pending proposals match." : "No proposals match."}</Text>
                  </BlockStack>
                </Box>
              }
            >
              {rows}
            </IndexTable>
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
            <Card>
              <BlockStack gap="200">
                <Text as="h2" variant="headingSm">
                  Proposals by status
                </Text>
                <div data-testid="stats-status">
                  <BarChart data={(["pending", "approved", "rejected"] as const).map((s) => ({ label: STATUS_LABEL[s], value: stats.byStatus[s] }))} />
                </div>
                <Text as="p" tone="subdued">
                  {stats.approvalRate === null ? "No reviews yet." : `${Math.round(stats.approvalRate * 100)}% of reviewed proposals were approved.`}
                </Text>
              </BlockStack>
            </Card>
            <Card>
              <BlockStack gap="200">
                <Text as="h2" variant="headingSm">
                  Proposals by source
                </Text>
                {stats.bySource.length ? <BarChart data={stats.bySource.map((s) => ({ label: s.source, value: s.total }))} /> : <Text as="p" tone="subdued">None yet.</Text>}
              </BlockStack>
            </Card>
            <Card>
              <BlockStack gap="200">
                <Text as="h2" variant="headingSm">
                  {`Reviews per day (last ${stats.days} days)`}
                </Text>
                <BarChart data={reviewDays} />
              </BlockStack>
            </Card>
          </InlineGrid>
        </Layout.Section>
      </Layout>
      {comparing ? (
        <Modal
          open
          onClose={() => setComparing(null)}
          title={`${comparing.product.title} – ${comparing.variant.title}`}
          primaryAction={
            comparing.status !== "approved"
              ? {
                  content: "Approve",
                  onAction: () => {
                    act("approve", comparing.id);
                    setComparing(null);
                  },
                }
              : undefined
          }
          secondaryActions={[
            ...(comparing.status === "pending"
              ? [
                  {
                    content: "Reject",
                    destructive: true,
                    onAction: () => {
                      act("reject", comparing.id);
                      setComparing(null);
                    },
                  },
                ]
              : []),
            { content: "Done", onAction: () => setComparing(null) },
          ]}
        >
          <Modal.Section>
            <BlockStack gap="300">
              <div data-testid="compare-images">
                <SideBySide p={comparing} size={260} />
              </div>
              <Text as="p" tone="subdued">
                Source: {comparing.source} · {STATUS_LABEL[comparing.status]}
                {comparing.reviewed_at ? ` on ${shortDate(comparing.reviewed_at)}` : ""}
              </Text>
            </BlockStack>
          </Modal.Section>
        </Modal>
      ) : null}
    </Page>
  );
}
