/**
 * Proposed image edits: review edited product images (AI tools' outputs and other proposals).
 * Tabs by status (pending first); each row shows the product image and the proposed edit side by
 * side (a larger comparison opens in a modal); approve or reject one row, or select rows and
 * approve or reject them together; delete asks for confirmation. Same services and zod schemas as
 * /api/proposed-image-edits (approval writes the image to the product through the commerce port).
 */
import { useState } from "react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData, useNavigation } from "@remix-run/react";
import { Badge, Banner, BlockStack, Button, Card, Layout, Page, Text } from "@shopify/polaris";
import { ResponsiveCell, ResponsiveIndexTable, ResponsiveRow } from "~/components/admin/ResponsiveIndexTable";
import { z } from "zod";
import { ImageEditStatusSchema, type ProposedImageEdit } from "~/contract/proposed-image-edits";
import { getAppContext } from "~/context.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { listParam, parseListParams } from "~/lib/admin-list";
import { ActionBannerSection, BeforeAfter, ConfirmModal, ListFooter, StatusTabs, useListParams } from "~/components/admin";
import { CompareModal, QueueEmptyState, REVIEW_STATUS_LABEL as STATUS_LABEL, REVIEW_TABS as TABS, reviewStatusTone as statusTone, RowActions, useReviewQueue } from "~/components/admin/ReviewQueue";
import { reviewQueueAction, type ReviewActionResult } from "~/lib/review-queue-action.server";
import { approveImageEdit, bulkReviewImageEdits, deleteImageEdit, listImageEdits, rejectImageEdit } from "~/services/proposed-image-edits.server";

const PAGE_SIZE = 20;
const BulkBody = z.object({
  action: z.enum(["approve", "reject"]),
  ids: z.array(z.string().trim().min(1)).min(1, "Select edits first").max(100, "At most 100 edits at a time"),
});

export const loader = async ({ request }: LoaderFunctionArgs) => {
  await requireAdmin(request, "media.manage");
  const ctx = getAppContext();
  const { status: tab, product, page } = parseListParams(new URL(request.url).searchParams, {
    status: listParam.oneOf(TABS.map((t) => t.id), "pending"),
    product: listParam.text(200),
    page: listParam.page(),
  });
  const list = await listImageEdits(ctx.db, {
    status: tab === "all" ? undefined : ImageEditStatusSchema.parse(tab),
    product_id: product || undefined,
    page,
    limit: PAGE_SIZE,
  });
  return { tab, product, list };
};

export const action = ({ request }: ActionFunctionArgs): Promise<ReviewActionResult> =>
  reviewQueueAction(request, {
    permission: "media.manage",
    intents: (ctx, reviewerId) => ({
      bulk: { schema: BulkBody, run: (action, ids) => bulkReviewImageEdits(ctx, action, ids, reviewerId), nouns: ["edit", "edits"], noSelection: "Select edits first" },
      missingId: "Which edit?",
      row: {
        approve: async (id) => `Approved: ${(await approveImageEdit(ctx, id, reviewerId)).product.title} now shows the edited image.`,
        reject: async (id) => `Rejected the edit of ${(await rejectImageEdit(ctx, id, reviewerId)).product.title}.`,
        delete: async (id) => {
          await deleteImageEdit(ctx, id);
          return "Edit deleted.";
        },
      },
    }),
    refusal: (err) => (err.status === 500 ? null : err.message),
  });

const shortDate = (iso: string) => new Date(iso).toLocaleDateString("en", { month: "short", day: "numeric", timeZone: "UTC" });

const operationLabel = (op: string) => op.replace(/-/g, " ");

export default function ProposedEdits() {
  const { tab, product, list } = useLoaderData<typeof loader>();
  const { setParam } = useListParams();
  const navigation = useNavigation();
  const [comparing, setComparing] = useState<ProposedImageEdit | null>(null);
  const [deleting, setDeleting] = useState<ProposedImageEdit | null>(null);

  const edits = list.items;
  // The banner shows whichever answered last: a row action or a bulk action.
  const { act, isBusy, bulk, selection, bulkActions, result } = useReviewQueue<typeof action>(edits, (r) => {
    if (r.ok) setDeleting(null);
  });
  const { selectedIds } = selection;
  const titleOf = (id: string) => edits.find((e) => e.id === id)?.product.title ?? id;

  const rows = edits.map((e, i) => (
    <ResponsiveRow key={e.id} id={e.id} position={i} selected={selectedIds.includes(e.id)} accessibilityLabel={`Select the edit of ${e.product.title}`}>
      <ResponsiveCell>
        <BlockStack gap="050">
          <Link to={`/app/products/${encodeURIComponent(e.product.id)}`} data-testid="edit-product">
            <Text as="span" fontWeight="semibold">
              {e.product.title}
            </Text>
          </Link>
          <Text as="span" tone="subdued" variant="bodySm">
            {operationLabel(e.operation)}
          </Text>
          {e.prompt ? (
            <Text as="span" variant="bodySm">
              “{e.prompt.length > 80 ? `${e.prompt.slice(0, 80)}…` : e.prompt}”
            </Text>
          ) : null}
        </BlockStack>
      </ResponsiveCell>
      <ResponsiveCell>
        <div data-testid="before-after">
          <BeforeAfter before={e.image_url} after={e.proposed_image_url} size={72} />
        </div>
        {e.status === "pending" && !e.original_on_product ? (
          <Text as="p" tone="subdued" variant="bodySm">
            The original is no longer on the product: approving adds the image.
          </Text>
        ) : null}
      </ResponsiveCell>
      <ResponsiveCell>
        <Badge tone={statusTone(e.status)}>{STATUS_LABEL[e.status]}</Badge>
      </ResponsiveCell>
      <ResponsiveCell>{shortDate(e.created_at)}</ResponsiveCell>
      <ResponsiveCell>
        <RowActions>
          <Button variant="plain" onClick={() => setComparing(e)} accessibilityLabel={`Compare ${e.product.title}`}>
            Compare
          </Button>
          {e.status === "pending" ? (
            <>
              <Button size="slim" variant="primary" onClick={() => act("approve", e.id)} loading={isBusy("approve", e.id)} accessibilityLabel={`Approve ${e.product.title}`}>
                Approve
              </Button>
              <Button size="slim" onClick={() => act("reject", e.id)} loading={isBusy("reject", e.id)} accessibilityLabel={`Reject ${e.product.title}`}>
                Reject
              </Button>
            </>
          ) : null}
          <Button size="slim" tone="critical" variant="plain" onClick={() => setDeleting(e)} accessibilityLabel={`Delete ${e.product.title}`}>
            Delete
          </Button>
        </RowActions>
      </ResponsiveCell>
    </ResponsiveRow>
  ));

  return (
    <Page
      title="Proposed image edits"
      subtitle={`${list.counts.pending.toLocaleString("en")} pending`}
      secondaryActions={[{ content: "AI image tools", url: "/app/ai-tools" }]}
    >
      <Layout>
        <ActionBannerSection result={result} describeFailure={titleOf} />
        {product ? (
          <Layout.Section>
            <Banner tone="info" onDismiss={() => setParam("product", "")}>
              Showing the edits of one product only.
            </Banner>
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <Card padding="0">
            <StatusTabs
              tabs={TABS}
              selected={tab}
              count={(id) => (id === "all" ? undefined : list.counts[id])}
              onSelect={(id) => setParam("status", id === "pending" ? "" : id)}
            />
            <ResponsiveIndexTable
              resourceName={{ singular: "edit", plural: "edits" }}
              itemCount={edits.length}
              selectedItemsCount={selection.selectedItemsCount}
              onSelectionChange={selection.handleSelectionChange}
              promotedBulkActions={bulkActions}
              loading={bulk.state !== "idle" || navigation.state === "loading"}
              headings={[{ title: "Product" }, { title: "Before → after" }, { title: "Status" }, { title: "Proposed" }, { title: "" }]}
              emptyState={
                <QueueEmptyState text={tab === "pending" ? "Nothing to review: no pending edits." : "No edits here."}>
                  <Link to="/app/ai-tools">Make one with the AI image tools</Link>
                </QueueEmptyState>
              }
            >
              {rows}
            </ResponsiveIndexTable>
            <ListFooter
              summary={list.total ? `${list.total.toLocaleString("en")} ${list.total === 1 ? "edit" : "edits"}` : "0 edits"}
              page={list.page}
              pageCount={list.totalPages}
              onPage={(p) => setParam("page", String(p))}
            />
          </Card>
        </Layout.Section>
      </Layout>
      {comparing ? (
        <CompareModal
          title={comparing.product.title}
          images={<BeforeAfter before={comparing.image_url} after={comparing.proposed_image_url} size={260} />}
          onApprove={comparing.status === "pending" ? () => act("approve", comparing.id) : undefined}
          onReject={comparing.status === "pending" ? () => act("reject", comparing.id) : undefined}
          onClose={() => setComparing(null)}
        >
          <Text as="p" tone="subdued">
            {operationLabel(comparing.operation)} · {STATUS_LABEL[comparing.status]}
            {comparing.reviewed_at ? ` on ${shortDate(comparing.reviewed_at)}` : ""}
          </Text>
          {comparing.prompt ? <Text as="p">Prompt: {comparing.prompt}</Text> : null}
        </CompareModal>
      ) : null}
      {deleting ? (
        <ConfirmModal title="Delete this edit?" confirmLabel="Delete" loading={isBusy("delete", deleting.id)} onConfirm={() => act("delete", deleting.id)} onClose={() => setDeleting(null)}>
          <Text as="p">
            The proposed edit of {deleting.product.title} is deleted.{" "}
            {deleting.status === "approved" ? "Its image stays on the product." : "The product's images do not change."}
          </Text>
        </ConfirmModal>
      ) : null}
    </Page>
  );
}
