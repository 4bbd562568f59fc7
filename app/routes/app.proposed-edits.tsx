/**
 * Proposed image edits: review edited product images (AI tools' outputs and other proposals).
 * Tabs by status (pending first); each row shows the product image and the proposed edit side by
 * side (a larger comparison opens in a modal); approve or reject one row, or select rows and
 * approve or reject them together; delete asks for confirmation. Same services and zod schemas as
 * /api/proposed-image-edits (approval writes the image to the product through the commerce port).
 */
import { useState } from "react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Link, useFetcher, useLoaderData, useNavigation } from "@remix-run/react";
import { Badge, Banner, BlockStack, Box, Button, Card, IndexTable, InlineStack, Layout, Modal, Page, Text } from "@shopify/polaris";
import { z } from "zod";
import { IdParams } from "~/contract/common";
import { ImageEditStatusSchema, type ProposedImageEdit } from "~/contract/proposed-image-edits";
import { getAppContext } from "~/context.server";
import { toApiError } from "~/api/router.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { bulkOutcome, listParam, parseListParams, type BulkFailure } from "~/lib/admin-list";
import { ActionBannerSection, BeforeAfter, ConfirmModal, ListFooter, StatusTabs, useBulkSelection, useFetcherResult, useListParams, useRowAction } from "~/components/admin";
import { approveImageEdit, bulkReviewImageEdits, deleteImageEdit, listImageEdits, rejectImageEdit } from "~/services/proposed-image-edits.server";

const PAGE_SIZE = 20;
const TABS = [
  { id: "pending", label: "Pending" },
  { id: "approved", label: "Approved" },
  { id: "rejected", label: "Rejected" },
  { id: "all", label: "All" },
] as const;
const STATUS_LABEL = { pending: "Pending", approved: "Approved", rejected: "Rejected" } as const;
const statusTone = (s: string) => (s === "approved" ? "success" : s === "rejected" ? "critical" : "attention");
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

type ActionResult = { ok: true; message: string; failures?: BulkFailure[] } | { ok: false; error: string };

export const action = async ({ request }: ActionFunctionArgs): Promise<ActionResult> => {
  const { user } = await requireAdmin(request, "media.manage");
  const ctx = getAppContext();
  const form = await request.formData();
  const intent = String(form.get("intent"));
  try {
    if (intent === "bulk-approve" || intent === "bulk-reject") {
      const parsed = BulkBody.safeParse({ action: intent === "bulk-approve" ? "approve" : "reject", ids: form.getAll("ids") });
      if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? "Select edits first" };
      const r = await bulkReviewImageEdits(ctx, parsed.data.action, parsed.data.ids, user.id);
      return bulkOutcome(r, parsed.data.action === "approve" ? "approved" : "rejected", ["edit", "edits"]);
    }
    const id = IdParams.safeParse({ id: form.get("id") });
    if (!id.success) return { ok: false, error: "Which edit?" };
    if (intent === "approve") {
      const e = await approveImageEdit(ctx, id.data.id, user.id);
      return { ok: true, message: `Approved: ${e.product.title} now shows the edited image.` };
    }
    if (intent === "reject") {
      const e = await rejectImageEdit(ctx, id.data.id, user.id);
      return { ok: true, message: `Rejected the edit of ${e.product.title}.` };
    }
    if (intent === "delete") {
      await deleteImageEdit(ctx, id.data.id);
      return { ok: true, message: "Edit deleted." };
    }
    return { ok: false, error: "Unknown action" };
  } catch (e) {
    const err = toApiError(e);
    if (err.status === 500) throw e;
    return { ok: false, error: err.message };
  }
};

const shortDate = (iso: string) => new Date(iso).toLocaleDateString("en", { month: "short", day: "numeric", timeZone: "UTC" });

const operationLabel = (op: string) => op.replace(/-/g, " ");

export default function ProposedEdits() {
  const { tab, product, list } = useLoaderData<typeof loader>();
  const { setParam } = useListParams();
  const navigation = useNavigation();
  const row = useRowAction<typeof action>();
  const bulk = useFetcher<typeof action>();
  const [comparing, setComparing] = useState<ProposedImageEdit | null>(null);
  const [deleting, setDeleting] = useState<ProposedImageEdit | null>(null);

  const edits = list.items;
  const selection = useBulkSelection(edits, bulk);
  const { selectedIds } = selection;
  const { act, isBusy } = row;
  // The banner shows whichever answered last: a row action or a bulk action.
  const [result, setResult] = useState<ActionResult | undefined>(undefined);
  useFetcherResult(bulk, setResult);
  useFetcherResult(row.fetcher, (r) => {
    setResult(r);
    if (r.ok) setDeleting(null);
  });
  const titleOf = (id: string) => edits.find((e) => e.id === id)?.product.title ?? id;

  const rows = edits.map((e, i) => (
    <IndexTable.Row key={e.id} id={e.id} position={i} selected={selectedIds.includes(e.id)} accessibilityLabel={`Select the edit of ${e.product.title}`}>
      <IndexTable.Cell>
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
      </IndexTable.Cell>
      <IndexTable.Cell>
        <div data-testid="before-after">
          <BeforeAfter before={e.image_url} after={e.proposed_image_url} size={72} />
        </div>
        {e.status === "pending" && !e.original_on_product ? (
          <Text as="p" tone="subdued" variant="bodySm">
            The original is no longer on the product: approving adds the image.
          </Text>
        ) : null}
      </IndexTable.Cell>
      <IndexTable.Cell>
        <Badge tone={statusTone(e.status)}>{STATUS_LABEL[e.status]}</Badge>
      </IndexTable.Cell>
      <IndexTable.Cell>{shortDate(e.created_at)}</IndexTable.Cell>
      <IndexTable.Cell>
        {/* Buttons inside a selectable row: stop the click from toggling the row's selection. */}
        <div onClick={(ev) => ev.stopPropagation()} role="presentation">
          <InlineStack gap="200" wrap={false}>
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
          </InlineStack>
        </div>
      </IndexTable.Cell>
    </IndexTable.Row>
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
            <IndexTable
              resourceName={{ singular: "edit", plural: "edits" }}
              itemCount={edits.length}
              selectedItemsCount={selection.selectedItemsCount}
              onSelectionChange={selection.handleSelectionChange}
              promotedBulkActions={[
                { content: "Approve selected", onAction: () => selection.submit("bulk-approve") },
                { content: "Reject selected", onAction: () => selection.submit("bulk-reject") },
              ]}
              loading={bulk.state !== "idle" || navigation.state === "loading"}
              headings={[{ title: "Product" }, { title: "Before → after" }, { title: "Status" }, { title: "Proposed" }, { title: "" }]}
              emptyState={
                <Box padding="600">
                  <BlockStack gap="200" inlineAlign="center">
                    <Text as="p">{tab === "pending" ? "Nothing to review: no pending edits." : "No edits here."}</Text>
                    <Link to="/app/ai-tools">Make one with the AI image tools</Link>
                  </BlockStack>
                </Box>
              }
            >
              {rows}
            </IndexTable>
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
        <Modal
          open
          onClose={() => setComparing(null)}
          title={comparing.product.title}
          primaryAction={
            comparing.status === "pending"
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
                <BeforeAfter before={comparing.image_url} after={comparing.proposed_image_url} size={260} />
              </div>
              <Text as="p" tone="subdued">
                {operationLabel(comparing.operation)} · {STATUS_LABEL[comparing.status]}
                {comparing.reviewed_at ? ` on ${shortDate(comparing.reviewed_at)}` : ""}
              </Text>
              {comparing.prompt ? <Text as="p">Prompt: {comparing.prompt}</Text> : null}
            </BlockStack>
          </Modal.Section>
        </Modal>
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
