/**
 * Proposed image edits: review edited product images (AI tools' outputs and other proposals).
 * Tabs by status (pending first); each row shows the product image and the proposed edit side by
 * side (a larger comparison opens in a modal); approve or reject one row, or select rows and
 * approve or reject them together; delete asks for confirmation. Same services and zod schemas as
 * /api/proposed-image-edits (approval writes the image to the product through the commerce port).
 */
import { useCallback, useEffect, useState } from "react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Link, useFetcher, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import {
  Badge,
  Banner,
  BlockStack,
  Box,
  Button,
  Card,
  IndexTable,
  InlineStack,
  Layout,
  Modal,
  Page,
  Pagination,
  Tabs,
  Text,
  useIndexResourceState,
} from "@shopify/polaris";
import { z } from "zod";
import { IdParams } from "~/contract/common";
import { ImageEditStatusSchema, type ProposedImageEdit } from "~/contract/proposed-image-edits";
import { getAppContext } from "~/context.server";
import { toApiError } from "~/api/router.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { approveImageEdit, bulkReviewImageEdits, deleteImageEdit, listImageEdits, rejectImageEdit } from "~/services/proposed-image-edits.server";

const PAGE_SIZE = 20;
const TABS = [
  { id: "pending", label: "Pending" },
  { id: "approved", label: "Approved" },
  { id: "rejected", label: "Rejected" },
  { id: "all", label: "All" },
] as const;
type TabId = (typeof TABS)[number]["id"];
const STATUS_LABEL = { pending: "Pending", approved: "Approved", rejected: "Rejected" } as const;
const statusTone = (s: string) => (s === "approved" ? "success" : s === "rejected" ? "critical" : "attention");
const BulkBody = z.object({
  action: z.enum(["approve", "reject"]),
  ids: z.array(z.string().trim().min(1)).min(1, "Select edits first").max(100, "At most 100 edits at a time"),
});

export const loader = async ({ request }: LoaderFunctionArgs) => {
  await requireAdmin(request, "media.manage");
  const ctx = getAppContext();
  const sp = new URL(request.url).searchParams;
  const tab = (TABS.find((t) => t.id === sp.get("status"))?.id ?? "pending") as TabId;
  const product = (sp.get("product") ?? "").trim().slice(0, 200);
  const page = Math.max(1, Number.parseInt(sp.get("page") ?? "1", 10) || 1);
  const list = await listImageEdits(ctx.db, {
    status: tab === "all" ? undefined : ImageEditStatusSchema.parse(tab),
    product_id: product || undefined,
    page,
    limit: PAGE_SIZE,
  });
  return { tab, product, list };
};

type ActionResult = { ok: true; message: string; failures?: { id: string; message: string }[] } | { ok: false; error: string };

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
      const verb = parsed.data.action === "approve" ? "approved" : "rejected";
      const failures = r.results.filter((x) => !x.ok).map((x) => ({ id: x.id, message: x.error?.message ?? "Failed" }));
      return { ok: true, message: `${r.succeeded} ${r.succeeded === 1 ? "edit" : "edits"} ${verb}${r.failed ? `; ${r.failed} failed` : ""}.`, failures };
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

function ImageBox({ url, label, size = 96 }: { url: string | null; label: string; size?: number }) {
  return (
    <BlockStack gap="100" inlineAlign="center">
      <div style={{ width: size, height: size, borderRadius: 8, overflow: "hidden", background: "var(--p-color-bg-surface-secondary)", display: "flex", alignItems: "center", justifyContent: "center" }}>
        {url ? (
          <img src={url} alt={label} style={{ width: "100%", height: "100%", objectFit: "contain" }} loading="lazy" />
        ) : (
          <Text as="span" tone="subdued" variant="bodySm">
            No image
          </Text>
        )}
      </div>
      <Text as="span" tone="subdued" variant="bodySm">
        {label}
      </Text>
    </BlockStack>
  );
}

function BeforeAfter({ before, after, size, beforeLabel = "Before", afterLabel = "After" }: { before: string | null; after: string | null; size?: number; beforeLabel?: string; afterLabel?: string }) {
  return (
    <InlineStack gap="200" blockAlign="center" wrap={false}>
      <ImageBox url={before} label={beforeLabel} size={size} />
      <Text as="span" tone="subdued">
        →
      </Text>
      <ImageBox url={after} label={afterLabel} size={size} />
    </InlineStack>
  );
}

const operationLabel = (op: string) => op.replace(/-/g, " ");

export default function ProposedEdits() {
  const { tab, product, list } = useLoaderData<typeof loader>();
  const [searchParams, setSearchParams] = useSearchParams();
  const navigation = useNavigation();
  const rowAction = useFetcher<typeof action>();
  const bulk = useFetcher<typeof action>();
  const [comparing, setComparing] = useState<ProposedImageEdit | null>(null);
  const [deleting, setDeleting] = useState<ProposedImageEdit | null>(null);

  const edits = list.items;
  const { selectedResources, allResourcesSelected, handleSelectionChange, clearSelection } = useIndexResourceState(edits);

  const setParam = useCallback(
    (key: string, value: string) => {
      const next = new URLSearchParams(searchParams);
      if (value) next.set(key, value);
      else next.delete(key);
      if (key !== "page") next.delete("page");
      setSearchParams(next, { replace: true });
    },
    [searchParams, setSearchParams],
  );
  useEffect(() => {
    if (bulk.state === "idle" && bulk.data?.ok) clearSelection();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [bulk.state, bulk.data]);
  useEffect(() => {
    if (rowAction.state === "idle" && rowAction.data?.ok) setDeleting(null);
  }, [rowAction.state, rowAction.data]);

  const selectedIds = allResourcesSelected ? edits.map((e) => e.id) : selectedResources;
  const submitBulk = (intent: "bulk-approve" | "bulk-reject") => {
    const fd = new FormData();
    fd.set("intent", intent);
    for (const id of selectedIds) fd.append("ids", id);
    bulk.submit(fd, { method: "post" });
  };
  const busyId = rowAction.state !== "idle" ? String(rowAction.formData?.get("id") ?? "") : null;
  const busyIntent = rowAction.state !== "idle" ? String(rowAction.formData?.get("intent") ?? "") : null;
  const act = (intent: "approve" | "reject" | "delete", id: string) => rowAction.submit({ intent, id }, { method: "post" });
  // The banner shows whichever answered last: a row action or a bulk action.
  const [result, setResult] = useState<ActionResult | undefined>(undefined);
  useEffect(() => {
    if (bulk.state === "idle" && bulk.data) setResult(bulk.data);
  }, [bulk.state, bulk.data]);
  useEffect(() => {
    if (rowAction.state === "idle" && rowAction.data) setResult(rowAction.data);
  }, [rowAction.state, rowAction.data]);
  const tabIndex = TABS.findIndex((t) => t.id === tab);
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
                <Button size="slim" variant="primary" onClick={() => act("approve", e.id)} loading={busyId === e.id && busyIntent === "approve"} accessibilityLabel={`Approve ${e.product.title}`}>
                  Approve
                </Button>
                <Button size="slim" onClick={() => act("reject", e.id)} loading={busyId === e.id && busyIntent === "reject"} accessibilityLabel={`Reject ${e.product.title}`}>
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
        {result ? (
          <Layout.Section>
            {result.ok ? (
              <Banner tone={result.failures?.length ? "warning" : "success"} title={result.message}>
                {result.failures?.length ? (
                  <BlockStack gap="100">
                    {result.failures.map((f) => (
                      <Text as="p" key={f.id}>
                        {titleOf(f.id)}: {f.message}
                      </Text>
                    ))}
                  </BlockStack>
                ) : null}
              </Banner>
            ) : (
              <Banner tone="critical">{result.error}</Banner>
            )}
          </Layout.Section>
        ) : null}
        {product ? (
          <Layout.Section>
            <Banner tone="info" onDismiss={() => setParam("product", "")}>
              Showing the edits of one product only.
            </Banner>
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <Card padding="0">
            <Tabs
              tabs={TABS.map((t) => ({ id: t.id, content: t.id === "all" ? t.label : `${t.label} (${list.counts[t.id]})` }))}
              selected={tabIndex}
              onSelect={(i) => setParam("status", TABS[i].id === "pending" ? "" : TABS[i].id)}
            />
            <IndexTable
              resourceName={{ singular: "edit", plural: "edits" }}
              itemCount={edits.length}
              selectedItemsCount={allResourcesSelected ? "All" : selectedResources.length}
              onSelectionChange={handleSelectionChange}
              promotedBulkActions={[
                { content: "Approve selected", onAction: () => submitBulk("bulk-approve") },
                { content: "Reject selected", onAction: () => submitBulk("bulk-reject") },
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
            <div style={{ padding: "12px 16px", borderTop: "1px solid var(--p-color-border-secondary)" }}>
              <InlineStack align="space-between" blockAlign="center">
                <Text as="span" tone="subdued">
                  {list.total ? `${list.total.toLocaleString("en")} ${list.total === 1 ? "edit" : "edits"}` : "0 edits"}
                </Text>
                <Pagination
                  hasPrevious={list.page > 1}
                  onPrevious={() => setParam("page", String(list.page - 1))}
                  hasNext={list.page < list.totalPages}
                  onNext={() => setParam("page", String(list.page + 1))}
                  label={`Page ${list.page} of ${list.totalPages}`}
                />
              </InlineStack>
            </div>
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
        <Modal
          open
          onClose={() => setDeleting(null)}
          title="Delete this edit?"
          primaryAction={{ content: "Delete", destructive: true, loading: busyIntent === "delete", onAction: () => act("delete", deleting.id) }}
          secondaryActions={[{ content: "Cancel", onAction: () => setDeleting(null) }]}
        >
          <Modal.Section>
            <Text as="p">
              The proposed edit of {deleting.product.title} is deleted.{" "}
              {deleting.status === "approved" ? "Its image stays on the product." : "The product's images do not change."}
            </Text>
          </Modal.Section>
        </Modal>
      ) : null}
    </Page>
  );
}
