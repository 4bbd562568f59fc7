/**
 * Review moderation: tabs by status with counts, a table of reviews (newest first, 20 a page,
 * search), publish / reject / delete with a confirmation, create and edit in a form that shows the
 * server's message (SPEC §8 "admin review creation surfaces the server message"), photos added and
 * removed, and the rating distribution of published reviews as a chart. Same services, zod schemas
 * and transition table (app/lib/review-moderation.ts) as /api/product-reviews/admin/*.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useFetcher, useLoaderData } from "@remix-run/react";
import { Badge, BlockStack, Box, Button, Card, Checkbox, DropZone, FormLayout, IndexTable, InlineStack, Layout, Modal, Page, Pagination, Select, Text, TextField, useBreakpoints } from "@shopify/polaris";
import { useCallback, useEffect, useState } from "react";
import { reviewsEndpoints, ReviewAdminCreateObject, ReviewAdminUpdateObject, REVIEW_MAX_IMAGES } from "~/contract/reviews";
import { getAppContext } from "~/context.server";
import { ApiError } from "~/api/errors.server";
import { DomainError } from "~/lib/domain-errors";
import { requireAdmin } from "~/lib/staff-auth.server";
import { BarChart } from "~/components/BarChart";
import { ProductThumb, type PickerProduct } from "~/components/CatalogueProductPicker";
import { ActionBanner, ConfirmModal, SectionCard, StatusTabs, useFetcherResult, useListParams } from "~/components/admin";
import { rangeLabel } from "~/lib/admin-list";
import { searchProductsForPicker } from "~/services/styles.server";
import {
  adminAddImage,
  adminCreateReview,
  adminDeleteReview,
  adminListReviews,
  adminRemoveImage,
  adminUpdateReview,
  moderateReview,
  overallRatingSummary,
  type AdminReviewView,
} from "~/services/reviews.server";
import { formOf, ONE_IMAGE_FORM_BYTES } from "~/lib/body-limit.server";

const PAGE = 20;
const TABS = [
  { id: "pending", label: "Pending" },
  { id: "approved", label: "Published" },
  { id: "rejected", label: "Rejected" },
  { id: "all", label: "All" },
] as const;
type TabId = (typeof TABS)[number]["id"];

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
const toRow = (r: AdminReviewView) => ({ ...r, created_at: iso(r.created_at)!, updated_at: iso(r.updated_at)!, published_at: iso(r.published_at) });

export const loader = async ({ request }: LoaderFunctionArgs) => {
  await requireAdmin(request, "reviews.moderate");
  const ctx = getAppContext();
  const sp = new URL(request.url).searchParams;
  const pq = sp.get("pq");
  const picker = pq ? await searchProductsForPicker(ctx.db, pq, 15) : null;
  if (pq !== null) return { picker, pickerQuery: pq };
  const parsed = reviewsEndpoints.reviewsAdminList.query.safeParse({
    status: sp.get("status") ?? "pending",
    skip: sp.get("skip") ?? "0",
    take: PAGE,
    q: sp.get("q") || undefined,
  });
  const query = parsed.success ? parsed.data : reviewsEndpoints.reviewsAdminList.query.parse({ status: "pending", take: PAGE });
  const list = await adminListReviews(ctx.db, query);
  const overall = await overallRatingSummary(ctx.db);
  return {
    tab: query.status as TabId,
    q: query.q ?? "",
    skip: list.skip,
    total: list.total,
    counts: list.counts,
    reviews: list.reviews.map(toRow),
    overall,
    picker: null,
    pickerQuery: null,
  };
};

type ActionResult = { ok: true; message: string; intent: string } | { ok: false; error: string; intent: string };
const issues = (e: { issues: { path: PropertyKey[]; message: string }[] }) => e.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; ");
const text = (v: FormDataEntryValue | null) => (typeof v === "string" ? v : undefined);

export const action = async ({ request }: ActionFunctionArgs): Promise<ActionResult> => {
  await requireAdmin(request, "reviews.moderate");
  const ctx = getAppContext();
  const form = await formOf(request, ONE_IMAGE_FORM_BYTES);
  const intent = String(form.get("intent") ?? "");
  const id = String(form.get("id") ?? "");
  try {
    switch (intent) {
      case "publish":
      case "reject": {
        const r = await moderateReview(ctx, id, intent);
        if (!r) return { ok: false, intent, error: "This review does not exist any more (it may have been deleted)" };
        return { ok: true, intent, message: intent === "publish" ? `Published the review by ${r.name}.` : `Rejected the review by ${r.name}.` };
      }
      case "delete": {
        const gone = await adminDeleteReview(ctx, id);
        return gone ? { ok: true, intent, message: "Review deleted." } : { ok: false, intent, error: "This review does not exist any more (it may have been deleted)" };
      }
      case "create": {
        const parsed = ReviewAdminCreateObject.safeParse({
          product_id: text(form.get("product_id")) ?? "",
          rating: text(form.get("rating")),
          title: text(form.get("title")),
          body: text(form.get("body")),
          name: text(form.get("name")) || undefined,
          email: text(form.get("email")) || undefined,
          publish: form.get("publish") === "true",
        });
        if (!parsed.success) return { ok: false, intent, error: issues(parsed.error) };
        const r = await adminCreateReview(ctx, parsed.data);
        return { ok: true, intent, message: r.status === "approved" ? `Review by ${r.name} created and published.` : `Review by ${r.name} created; it waits in Pending.` };
      }
      case "update": {
        const parsed = ReviewAdminUpdateObject.safeParse({
          rating: text(form.get("rating")),
          title: text(form.get("title")) ?? null,
          body: text(form.get("body")),
          name: text(form.get("name")),
          email: text(form.get("email")) || null,
        });
        if (!parsed.success) return { ok: false, intent, error: issues(parsed.error) };
        await adminUpdateReview(ctx, id, parsed.data);
        return { ok: true, intent, message: "Review saved." };
      }
      case "add-image": {
        const file = form.get("image");
        if (!(file instanceof Blob) || file.size === 0) return { ok: false, intent, error: "Choose a JPEG, PNG or WebP photo to add" };
        await adminAddImage(ctx, id, { image: file });
        return { ok: true, intent, message: "Photo added." };
      }
      case "remove-image": {
        await adminRemoveImage(ctx, id, String(form.get("url") ?? ""));
        return { ok: true, intent, message: "Photo removed." };
      }
      default:
        return { ok: false, intent, error: "Unknown action" };
    }
  } catch (e) {
    if (e instanceof ApiError || e instanceof DomainError) return { ok: false, intent, error: e.message };
    throw e;
  }
};

type LoaderData = Exclude<ReturnType<typeof useLoaderData<typeof loader>>, { pickerQuery: string }>;
type Row = LoaderData["reviews"][number];

const stars = (n: number) => "★".repeat(n) + "☆".repeat(5 - n);
const STATUS_BADGE: Record<string, { tone?: "success" | "critical" | "attention"; label: string }> = {
  pending: { tone: "attention", label: "Pending" },
  approved: { tone: "success", label: "Published" },
  published: { tone: "success", label: "Published" },
  rejected: { tone: "critical", label: "Rejected" },
};
const dateLabel = (d: string) => new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }).format(new Date(d));

type Confirm = { intent: "publish" | "reject" | "delete"; review: Row };

export default function Reviews() {
  const data = useLoaderData<typeof loader>() as LoaderData;
  const { tab, counts, reviews, total, skip, overall } = data;
  // Tabs and pages are history entries here: the back button returns to the previous list.
  const { setParams: go } = useListParams({ pageKey: "skip", replace: false });
  const [confirm, setConfirm] = useState<Confirm | null>(null);
  const [editing, setEditing] = useState<Row | null>(null);
  const [creating, setCreating] = useState(false);
  const [search, setSearch] = useState(data.q);
  const [notice, setNotice] = useState<ActionResult | null>(null);

  // The edited review after a reload (photos added or removed).
  const editingRow = editing ? (reviews.find((r) => r.id === editing.id) ?? editing) : null;
  const countOf = (id: TabId) => counts[id];
  // Phones: one stacked block a review (Polaris' condensed IndexTable) instead of columns.
  const { smDown } = useBreakpoints();

  return (
    <Page title="Reviews" subtitle="Moderate what shoppers write before it shows on product and store pages" primaryAction={{ content: "Create review", onAction: () => setCreating(true) }}>
      <Layout>
        <Layout.Section>
          <BlockStack gap="400">
            <ActionBanner result={notice} testId="reviews-notice" onDismiss={() => setNotice(null)} />
            <Card padding="0">
              <StatusTabs
                tabs={TABS}
                selected={tab}
                count={countOf}
                idPrefix="reviews-tab-"
                accessibilityLabel={(t, n) => `${t.label}, ${n} reviews`}
                onSelect={(id) => go({ status: id })}
              />
              <Box padding="300">
                <form
                  onSubmit={(e) => {
                    e.preventDefault();
                    go({ q: search.trim() });
                  }}
                >
                  <InlineStack gap="200" blockAlign="end" wrap={false}>
                    <div style={{ flex: 1 }}>
                      <TextField
                        label="Search reviews"
                        labelHidden
                        placeholder="Search title, text, name or email"
                        autoComplete="off"
                        value={search}
                        onChange={setSearch}
                        clearButton
                        onClearButtonClick={() => {
                          setSearch("");
                          go({ q: null });
                        }}
                      />
                    </div>
                    <Button submit>Search</Button>
                  </InlineStack>
                </form>
              </Box>
              <IndexTable
                resourceName={{ singular: "review", plural: "reviews" }}
                itemCount={reviews.length}
                selectable={false}
                condensed={smDown}
                emptyState={
                  <Box padding="600">
                    <Text as="p" alignment="center" tone="subdued">
                      {tab === "pending" ? "Nothing waits for moderation." : "No reviews here."}
                    </Text>
                  </Box>
                }
                headings={[{ title: "Review" }, { title: "Author" }, { title: "Status" }, { title: "Actions", alignment: "end" }]}
              >
                {reviews.map((r, i) => {
                  const actions = <ReviewActions review={r} onConfirm={(intent) => setConfirm({ intent, review: r })} onEdit={() => setEditing(r)} />;
                  return (
                    <IndexTable.Row id={r.id} key={r.id} position={i}>
                      {smDown ? (
                        <Box padding="300">
                          <BlockStack gap="200">
                            <InlineStack align="space-between" blockAlign="start" gap="200" wrap={false}>
                              <ReviewSummary review={r} />
                              <Badge tone={STATUS_BADGE[r.status]?.tone}>{STATUS_BADGE[r.status]?.label ?? r.status}</Badge>
                            </InlineStack>
                            <ReviewAuthor review={r} />
                            {actions}
                          </BlockStack>
                        </Box>
                      ) : (
                        <>
                          <IndexTable.Cell>
                            <ReviewSummary review={r} />
                          </IndexTable.Cell>
                          <IndexTable.Cell>
                            <ReviewAuthor review={r} />
                          </IndexTable.Cell>
                          <IndexTable.Cell>
                            <Badge tone={STATUS_BADGE[r.status]?.tone}>{STATUS_BADGE[r.status]?.label ?? r.status}</Badge>
                          </IndexTable.Cell>
                          <IndexTable.Cell>{actions}</IndexTable.Cell>
                        </>
                      )}
                    </IndexTable.Row>
                  );
                })}
              </IndexTable>
              {total > PAGE ? (
                <Box padding="300">
                  <InlineStack align="center" gap="300" blockAlign="center">
                    <Pagination
                      hasPrevious={skip > 0}
                      onPrevious={() => go({ skip: String(Math.max(0, skip - PAGE)) })}
                      hasNext={skip + PAGE < total}
                      onNext={() => go({ skip: String(skip + PAGE) })}
                    />
                    <Text as="span" tone="subdued">
                      {rangeLabel(skip, PAGE, total)}
                    </Text>
                  </InlineStack>
                </Box>
              ) : null}
            </Card>
          </BlockStack>
        </Layout.Section>
        <Layout.Section>
          <SectionCard title="Ratings of published reviews">
            <Text as="p" tone="subdued">
              {overall.count ? `${overall.average.toFixed(2)} out of 5 from ${overall.count.toLocaleString("en")} reviews` : "No published review yet."}
            </Text>
            <div data-testid="rating-chart" style={{ maxWidth: 640 }}>
              <BarChart data={(["5", "4", "3", "2", "1"] as const).map((k) => ({ label: `${k} star${k === "1" ? "" : "s"}`, value: overall.distribution[k] }))} />
            </div>
          </SectionCard>
        </Layout.Section>
      </Layout>
      {confirm ? <ConfirmReviewModal confirm={confirm} onClose={() => setConfirm(null)} onDone={setNotice} /> : null}
      {editingRow ? <EditReviewModal review={editingRow} onClose={() => setEditing(null)} onDone={setNotice} /> : null}
      {creating ? <CreateReviewModal onClose={() => setCreating(false)} onDone={setNotice} /> : null}
    </Page>
  );
}

/**
 * The review as the table's first column: the product (thumbnail and title), the stars, the title
 * and the text (shortened), the photos. It wraps (IndexTable cells do not by default), so the
 * table fits the page instead of pushing the actions out of view.
 */
function ReviewSummary({ review: r }: { review: Row }) {
  return (
    <div style={{ minWidth: 220, maxWidth: 520, whiteSpace: "normal", overflowWrap: "anywhere" }} data-testid="review-row" data-review-id={r.id}>
      <BlockStack gap="150">
        <InlineStack gap="200" blockAlign="center" wrap={false}>
          <ProductThumb url={r.product?.image_url} alt={r.product?.title ?? "Product"} size={32} />
          <Text as="span" variant="bodySm" tone="subdued" truncate>
            {r.product?.title ?? r.product_id}
          </Text>
        </InlineStack>
        <span aria-label={`${r.rating} out of 5 stars`} style={{ color: "#b98900", whiteSpace: "nowrap" }}>
          {stars(r.rating)}
        </span>
        {r.title ? (
          <Text as="span" fontWeight="semibold">
            {r.title}
          </Text>
        ) : null}
        <Text as="span" variant="bodySm">
          {r.body.length > 180 ? `${r.body.slice(0, 180)}…` : r.body}
        </Text>
        {r.images.length ? (
          <InlineStack gap="100">
            {r.images.map((u) => (
              <img key={u} src={u} alt="Review photo" width={36} height={36} style={{ objectFit: "cover", borderRadius: 4 }} />
            ))}
          </InlineStack>
        ) : null}
      </BlockStack>
    </div>
  );
}

/** Who wrote it and when: the name, the email (shortened on narrow columns), a verified-buyer badge, the date. */
function ReviewAuthor({ review: r }: { review: Row }) {
  return (
    <div style={{ maxWidth: 200, whiteSpace: "normal", overflowWrap: "anywhere" }}>
      <BlockStack gap="050">
        <Text as="span">{r.name}</Text>
        {r.email ? (
          <Text as="span" variant="bodySm" tone="subdued">
            {r.email}
          </Text>
        ) : null}
        <Text as="span" variant="bodySm" tone="subdued">
          {dateLabel(r.created_at)}
        </Text>
        {r.verified_buyer ? (
          <span>
            <Badge tone="info">Verified buyer</Badge>
          </span>
        ) : null}
      </BlockStack>
    </div>
  );
}

/** Publish and Reject (when the review's status allows them) on one line, Edit and Delete under them. */
function ReviewActions({ review: r, onConfirm, onEdit }: { review: Row; onConfirm: (intent: Confirm["intent"]) => void; onEdit: () => void }) {
  const moderation = r.allowed_actions.includes("publish") || r.allowed_actions.includes("reject");
  return (
    <BlockStack gap="200" inlineAlign="end">
      {moderation ? (
        <InlineStack gap="200" wrap={false}>
          {r.allowed_actions.includes("publish") ? (
            <Button size="slim" variant="primary" onClick={() => onConfirm("publish")} accessibilityLabel={`Publish the review by ${r.name}`}>
              Publish
            </Button>
          ) : null}
          {r.allowed_actions.includes("reject") ? (
            <Button size="slim" onClick={() => onConfirm("reject")} accessibilityLabel={`Reject the review by ${r.name}`}>
              Reject
            </Button>
          ) : null}
        </InlineStack>
      ) : null}
      <InlineStack gap="300" wrap={false}>
        <Button variant="plain" onClick={onEdit} accessibilityLabel={`Edit the review by ${r.name}`}>
          Edit
        </Button>
        <Button tone="critical" variant="plain" onClick={() => onConfirm("delete")} accessibilityLabel={`Delete the review by ${r.name}`}>
          Delete
        </Button>
      </InlineStack>
    </BlockStack>
  );
}

const CONFIRM_TEXT = {
  publish: { title: "Publish this review?", body: "It will show on the product and store pages and count in their ratings.", button: "Publish", destructive: false },
  reject: { title: "Reject this review?", body: "It will not be shown. A rejected review cannot be published later.", button: "Reject", destructive: true },
  delete: { title: "Delete this review?", body: "The review and its photos are removed for good; published ratings are updated.", button: "Delete", destructive: true },
} as const;

/** Closes once the action succeeded and hands the outcome to the page; a refusal stays in the modal. */
function useCloseOnSuccess(fetcher: { state: string; data?: ActionResult }, onClose: () => void, onDone: (r: ActionResult) => void) {
  useFetcherResult(fetcher, (r) => {
    if (!r.ok) return;
    onDone(r);
    onClose();
  });
}

function ConfirmReviewModal({ confirm, onClose, onDone }: { confirm: Confirm; onClose: () => void; onDone: (r: ActionResult) => void }) {
  const fetcher = useFetcher<typeof action>();
  const t = CONFIRM_TEXT[confirm.intent];
  useCloseOnSuccess(fetcher, onClose, onDone);
  return (
    <ConfirmModal
      title={t.title}
      confirmLabel={t.button}
      destructive={t.destructive}
      loading={fetcher.state !== "idle"}
      onConfirm={() => fetcher.submit({ intent: confirm.intent, id: confirm.review.id }, { method: "post" })}
      onClose={onClose}
      error={fetcher.data && !fetcher.data.ok ? fetcher.data.error : null}
      errorTestId="review-action-error"
    >
      <Text as="p">{t.body}</Text>
      <Box background="bg-surface-secondary" padding="300" borderRadius="200">
        <BlockStack gap="100">
          <Text as="span" fontWeight="semibold">
            {stars(confirm.review.rating)} {confirm.review.title ?? ""}
          </Text>
          <Text as="span" variant="bodySm">
            {confirm.review.body.slice(0, 240)}
          </Text>
          <Text as="span" variant="bodySm" tone="subdued">
            {confirm.review.name} · {confirm.review.product?.title ?? confirm.review.product_id}
          </Text>
        </BlockStack>
      </Box>
    </ConfirmModal>
  );
}

const RATING_OPTIONS = ["5", "4", "3", "2", "1"].map((v) => ({ label: `${v} star${v === "1" ? "" : "s"}`, value: v }));

function EditReviewModal({ review, onClose, onDone }: { review: Row; onClose: () => void; onDone: (r: ActionResult) => void }) {
  const save = useFetcher<typeof action>();
  const photos = useFetcher<typeof action>();
  const [form, setForm] = useState({ rating: String(review.rating), title: review.title ?? "", body: review.body, name: review.name, email: review.email ?? "" });
  useCloseOnSuccess(save, onClose, onDone);
  const onDrop = useCallback(
    (_all: File[], accepted: File[]) => {
      const file = accepted[0];
      if (!file) return;
      const fd = new FormData();
      fd.set("intent", "add-image");
      fd.set("id", review.id);
      fd.set("image", file);
      photos.submit(fd, { method: "post", encType: "multipart/form-data" });
    },
    [photos, review.id],
  );
  return (
    <Modal
      open
      onClose={onClose}
      title="Edit review"
      primaryAction={{ content: "Save", loading: save.state !== "idle", onAction: () => save.submit({ intent: "update", id: review.id, ...form }, { method: "post" }) }}
      secondaryActions={[{ content: "Cancel", onAction: onClose }]}
    >
      <Modal.Section>
        <BlockStack gap="300">
          <ActionBanner result={save.data} errorsOnly />
          <FormLayout>
            <Select label="Rating" options={RATING_OPTIONS} value={form.rating} onChange={(rating) => setForm({ ...form, rating })} />
            <TextField label="Title" autoComplete="off" value={form.title} onChange={(title) => setForm({ ...form, title })} />
            <TextField label="Review" autoComplete="off" multiline={4} value={form.body} onChange={(body) => setForm({ ...form, body })} />
            <FormLayout.Group>
              <TextField label="Name shown" autoComplete="off" value={form.name} onChange={(name) => setForm({ ...form, name })} />
              <TextField label="Email" type="email" autoComplete="off" value={form.email} onChange={(email) => setForm({ ...form, email })} />
            </FormLayout.Group>
          </FormLayout>
        </BlockStack>
      </Modal.Section>
      <Modal.Section>
        <BlockStack gap="300">
          <Text as="h3" variant="headingSm">
            Photos ({review.images.length} of {REVIEW_MAX_IMAGES})
          </Text>
          <ActionBanner result={photos.data} />
          {review.images.length ? (
            <InlineStack gap="300">
              {review.images.map((u) => (
                <BlockStack key={u} gap="100" inlineAlign="center">
                  <img src={u} alt="Review photo" width={88} height={88} style={{ objectFit: "cover", borderRadius: 6 }} />
                  <Button size="slim" variant="plain" tone="critical" loading={photos.state !== "idle"} onClick={() => photos.submit({ intent: "remove-image", id: review.id, url: u }, { method: "post" })}>
                    Remove
                  </Button>
                </BlockStack>
              ))}
            </InlineStack>
          ) : (
            <Text as="p" tone="subdued">
              No photos.
            </Text>
          )}
          {review.images.length < REVIEW_MAX_IMAGES ? (
            <DropZone label="Add a photo" accept="image/jpeg,image/png,image/webp" type="image" allowMultiple={false} onDrop={onDrop} disabled={photos.state !== "idle"}>
              <DropZone.FileUpload actionTitle="Add photo" actionHint="JPEG, PNG or WebP up to 10 MB" />
            </DropZone>
          ) : null}
        </BlockStack>
      </Modal.Section>
    </Modal>
  );
}

/** One product for a new review: a search (this route's loader with `?pq=`) and a Choose button per result. */
function ProductChooser({ value, onChange }: { value: PickerProduct | null; onChange: (p: PickerProduct | null) => void }) {
  const search = useFetcher<{ picker: PickerProduct[] | null; pickerQuery: string | null }>();
  const [q, setQ] = useState("");
  const text = q.trim();
  useEffect(() => {
    if (!text) return;
    const t = setTimeout(() => search.load(`/app/reviews?pq=${encodeURIComponent(text)}`), 300);
    return () => clearTimeout(t);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [text]);
  const results = text && search.data?.pickerQuery === text ? (search.data.picker ?? []) : [];
  if (value) {
    return (
      <InlineStack gap="200" blockAlign="center" wrap={false}>
        <ProductThumb url={value.featuredImage?.url} alt={value.title} />
        <Text as="span" fontWeight="semibold">
          <span data-testid="review-form-product">{value.title}</span>
        </Text>
        <Button variant="plain" onClick={() => onChange(null)}>
          Change
        </Button>
      </InlineStack>
    );
  }
  return (
    <BlockStack gap="200">
      <TextField label="Product" placeholder="Search by title, vendor, type or product id" autoComplete="off" value={q} onChange={setQ} />
      {results.map((p) => (
        <InlineStack key={p.id} align="space-between" blockAlign="center" wrap={false} gap="200">
          <InlineStack gap="200" blockAlign="center" wrap={false}>
            <ProductThumb url={p.featuredImage?.url} alt={p.title} />
            <Text as="span">{p.title}</Text>
          </InlineStack>
          <Button size="slim" onClick={() => onChange(p)} accessibilityLabel={`Choose ${p.title}`}>
            Choose
          </Button>
        </InlineStack>
      ))}
      {text && search.state === "idle" && search.data?.pickerQuery === text && !results.length ? (
        <Text as="p" tone="subdued">
          No product matches this search.
        </Text>
      ) : null}
    </BlockStack>
  );
}

function CreateReviewModal({ onClose, onDone }: { onClose: () => void; onDone: (r: ActionResult) => void }) {
  const fetcher = useFetcher<typeof action>();
  const [product, setProduct] = useState<PickerProduct | null>(null);
  const [form, setForm] = useState({ rating: "5", title: "", body: "", name: "", email: "", publish: false });
  useCloseOnSuccess(fetcher, onClose, onDone);
  return (
    <Modal
      open
      onClose={onClose}
      title="Create review"
      primaryAction={{
        content: "Create",
        loading: fetcher.state !== "idle",
        onAction: () => fetcher.submit({ intent: "create", product_id: product?.id ?? "", ...form, publish: String(form.publish) }, { method: "post" }),
      }}
      secondaryActions={[{ content: "Cancel", onAction: onClose }]}
    >
      <Modal.Section>
        <BlockStack gap="300">
          {/* The server's message, whatever went wrong (SPEC §8). */}
          <ActionBanner result={fetcher.data} errorsOnly testId="review-form-error" />
          <ProductChooser value={product} onChange={setProduct} />
          <FormLayout>
            <Select label="Rating" options={RATING_OPTIONS} value={form.rating} onChange={(rating) => setForm({ ...form, rating })} />
            <TextField label="Title" autoComplete="off" value={form.title} onChange={(title) => setForm({ ...form, title })} />
            <TextField label="Review" autoComplete="off" multiline={4} value={form.body} onChange={(body) => setForm({ ...form, body })} />
            <FormLayout.Group>
              <TextField label="Name shown" autoComplete="off" value={form.name} onChange={(name) => setForm({ ...form, name })} helpText="Empty: the part of the email before the @, else Anonymous" />
              <TextField label="Email" type="email" autoComplete="off" value={form.email} onChange={(email) => setForm({ ...form, email })} />
            </FormLayout.Group>
            <Checkbox label="Publish now" checked={form.publish} onChange={(publish) => setForm({ ...form, publish })} />
          </FormLayout>
        </BlockStack>
      </Modal.Section>
    </Modal>
  );
}
