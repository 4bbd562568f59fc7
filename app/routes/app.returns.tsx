/**
 * Returns (issue 16): the merchant's returns as an IndexTable (the order with its customer and date,
 * status, items with the reason, tracking, refund: five columns that fit a laptop's page; stacked
 * rows on a phone), status tabs counted by the API, a search field (order name, customer
 * email, tracking number, product title) and cursor paging; the tab "Requests to review" lists the
 * return requests the store has not decided on yet, each with Approve and Decline. Reads and writes
 * through the same services and zod schemas as /api/returns/admin; returns.manage only.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useNavigation } from "@remix-run/react";
import { Badge, BlockStack, Box, Button, Card, Filters, InlineStack, Layout, Page, Pagination, Text } from "@shopify/polaris";
import { useEffect, useState } from "react";
import { adminReturnsEndpoints } from "~/contract/admin-returns";
import { RETURN_REASON_LABELS } from "~/contract/account-orders";
import { getAppContext } from "~/context.server";
import type { ActionResult } from "~/lib/admin-list";
import { answerRefusals, invalidInput, issuesMessage, refusalOf } from "~/lib/admin-route.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { staffError } from "~/lib/staff-errors";
import { formOf } from "~/lib/body-limit.server";
import { approveReturnRequest, declineReturnRequest, listAdminReturnRequests, listAdminReturns } from "~/services/returns/admin-returns.server";
import { ActionBannerSection, RowLink, StatusTabs, useIntentFetcher, useListParams, useQueryParam } from "~/components/admin";
import { money } from "~/lib/admin-orders-view";
import { RETURN_STATUS_LABEL, RETURN_TABS, returnTabOf, returnTone } from "~/lib/admin-returns-view";
import { DeclineRequestModal } from "~/components/admin/DeclineRequestModal";
import { ResponsiveCell, ResponsiveIndexTable, ResponsiveRow } from "~/components/admin/ResponsiveIndexTable";

/** The cursors of the pages before this one, newest last, so that "Previous" can go back without a backwards cursor. */
const TRAIL_SEP = ".";
/** The first page in the trail (it has no cursor). Cursors are base64url of JSON: never "." and never a lone "-". */
const FIRST = "-";

type Listed = Awaited<ReturnType<typeof listAdminReturns>>;
type Requests = Awaited<ReturnType<typeof listAdminReturnRequests>>;

export const loader = async ({ request }: LoaderFunctionArgs) => {
  await requireAdmin(request, "returns.manage");
  const ctx = getAppContext();
  const sp = new URL(request.url).searchParams;
  const view = returnTabOf(sp.get("view"));
  const q = sp.get("q") || undefined;
  const cursor = sp.get("cursor") || undefined;
  // One query after another: the embedded database serves one statement stream at a time.
  let returns: Listed["items"] = [];
  let requests: Requests["items"] = [];
  let counts: Listed["counts"];
  let toReview: number;
  let nextCursor: string | null;
  try {
    if (view === "requests") {
      const parsed = adminReturnsEndpoints.returnsAdminRequests.query.safeParse({ status: "REQUESTED", cursor });
      if (!parsed.success) throw staffError(400, issuesMessage(parsed.error));
      const list = await listAdminReturnRequests(ctx.db, parsed.data);
      requests = list.items;
      nextCursor = list.nextCursor;
      toReview = list.counts.REQUESTED ?? 0;
      // The tabs' counts (for the search typed in the other tabs).
      counts = (await listAdminReturns(ctx.db, { q, limit: 1 })).counts;
    } else {
      const parsed = adminReturnsEndpoints.returnsAdminList.query.safeParse({ status: view === "all" ? undefined : view, q, cursor });
      if (!parsed.success) throw staffError(400, issuesMessage(parsed.error));
      const list = await listAdminReturns(ctx.db, parsed.data);
      returns = list.items;
      counts = list.counts;
      nextCursor = list.nextCursor;
      toReview = (await listAdminReturnRequests(ctx.db, { status: "REQUESTED", limit: 1 })).counts.REQUESTED ?? 0;
    }
  } catch (e) {
    if (e instanceof Response) throw e;
    // A hand-edited cursor: the service's refusal as the page's error.
    const refusal = refusalOf(e);
    throw staffError(refusal.status, refusal.message);
  }
  return { filters: { view, q: sp.get("q") ?? "" }, cursor: sp.get("cursor") ?? "", trail: sp.get("trail") ?? "", returns, requests, counts, toReview, nextCursor };
};

const text = (form: FormData, key: string) => {
  const v = form.get(key);
  return typeof v === "string" && v.trim() ? v.trim() : undefined;
};

/** The decision on a request from the "Requests to review" tab (the return page makes the same). */
export const action = async ({ request }: ActionFunctionArgs): Promise<ActionResult> => {
  const { user } = await requireAdmin(request, "returns.manage");
  const ctx = getAppContext();
  const form = await formOf(request);
  return answerRefusals<ActionResult>(async () => {
    const params = adminReturnsEndpoints.returnsAdminRequestApprove.params.safeParse({ id: text(form, "requestId") ?? "" });
    if (!params.success) return invalidInput(params.error);
    switch (form.get("intent")) {
      case "approve": {
        const r = await approveReturnRequest(ctx, user, params.data.id);
        return { ok: true, message: `The return request for ${r.order.name} is approved; the customer has been emailed.` };
      }
      case "decline": {
        const body = adminReturnsEndpoints.returnsAdminRequestDecline.body.safeParse({ reason: String(form.get("reason") ?? ""), decline_reason: text(form, "decline_reason") });
        if (!body.success) return invalidInput(body.error);
        const r = await declineReturnRequest(ctx, user, params.data.id, body.data);
        return { ok: true, message: `The return request for ${r.order.name} is declined; the customer has been told why.` };
      }
      default:
        return { ok: false, error: "Unknown action" };
    }
  });
};

const date = (iso: string | Date) => new Date(iso).toLocaleDateString("en", { dateStyle: "medium", timeZone: "UTC" });
const itemsLine = (items: { title: string; quantity: number }[]) => items.map((i) => (i.quantity > 1 ? `${i.title} × ${i.quantity}` : i.title)).join(", ");

/** The carrier and tracking number, wrapping under each other in a narrow column instead of widening the table. */
function Tracking({ company, number }: { company: string | null; number: string }) {
  return <div style={{ maxWidth: "9rem", whiteSpace: "normal", overflowWrap: "anywhere" }}>{company ? `${company} ${number}` : number}</div>;
}

/** Long text (several items, a shopper's note) cut to one line so the table's columns stay on screen; whole on hover. */
function Clipped({ text, subdued }: { text: string; subdued?: boolean }) {
  return (
    <div style={{ maxWidth: "16rem" }} title={text}>
      <Text as="p" truncate tone={subdued ? "subdued" : undefined} variant={subdued ? "bodySm" : undefined}>
        {text}
      </Text>
    </div>
  );
}

export default function ReturnsPage() {
  const data = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const { setParams, reset } = useListParams({ pageKey: "cursor" });
  // Every filter change starts again from the first page (the cursor belongs to the old filters).
  const setFilter = (key: string, value: string) => setParams({ [key]: value, trail: null });
  const query = useQueryParam(data.filters.q, setFilter);
  const trail = data.trail ? data.trail.split(TRAIL_SEP) : [];
  const requestsView = data.filters.view === "requests";
  const { fetcher, submit, busyWith } = useIntentFetcher<typeof action>();
  const [declining, setDeclining] = useState<{ id: string; order: string } | null>(null);
  const [dismissed, setDismissed] = useState<unknown>(null);
  const result = fetcher.data && fetcher.data !== dismissed ? fetcher.data : null;
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) setDeclining(null);
  }, [fetcher.state, fetcher.data]);

  return (
    <Page title="Returns" subtitle="Every return of the shop: review requests, follow parcels back, confirm what came back and refund it.">
      <Layout>
        {declining ? null : <ActionBannerSection result={result} testId="returns-notice" onDismiss={() => setDismissed(fetcher.data)} />}
        <Layout.Section>
          <Card padding="0">
            <StatusTabs
              tabs={RETURN_TABS}
              selected={data.filters.view}
              idPrefix="returns-tab-"
              count={(id) => (id === "requests" ? data.toReview : (data.counts[id === "all" ? "ALL" : id] ?? 0))}
              accessibilityLabel={(t, n) => `${t.label}: ${n}`}
              onSelect={(id) => setFilter("view", id === "all" ? "" : id)}
            />
            {requestsView ? (
              <Box padding="300">
                <Text as="p" tone="subdued">
                  Requests waiting for the store's decision, newest first. Approving one emails the customer the next steps; declining tells them why.
                </Text>
              </Box>
            ) : (
              <Filters
                {...query.filterProps}
                queryPlaceholder="Search by order, customer email, tracking number or product"
                filters={[]}
                appliedFilters={[]}
                onClearAll={() => {
                  query.setValue("");
                  reset(data.filters.view !== "all" ? { view: data.filters.view } : {});
                }}
                loading={navigation.state === "loading"}
              />
            )}
            {requestsView ? (
              <ResponsiveIndexTable
                resourceName={{ singular: "return request", plural: "return requests" }}
                itemCount={data.requests.length}
                selectable={false}
                headings={[{ title: "Order" }, { title: "Decision" }, { title: "Requested" }, { title: "Customer" }, { title: "Items" }, { title: "Reason" }]}
                emptyState={
                  <Box padding="400">
                    <Text as="p" tone="subdued">
                      <span data-testid="returns-empty">No return request is waiting for a decision.</span>
                    </Text>
                  </Box>
                }
              >
                {data.requests.map((r, i) => (
                  <ResponsiveRow id={r.id} key={r.id} position={i}>
                    <ResponsiveCell>
                      {r.return_id ? (
                        <RowLink to={`/app/returns/${encodeURIComponent(r.return_id)}`} testId="request-link">
                          {r.order.name}
                        </RowLink>
                      ) : (
                        <Text as="span" fontWeight="semibold">
                          {r.order.name}
                        </Text>
                      )}
                    </ResponsiveCell>
                    <ResponsiveCell>
                      {r.allowed_moves.length ? (
                        <InlineStack gap="200" wrap={false}>
                          <Button size="slim" loading={busyWith("approve") && fetcher.formData?.get("requestId") === r.id} onClick={() => submit({ intent: "approve", requestId: r.id })}>
                            Approve
                          </Button>
                          <Button size="slim" tone="critical" variant="plain" onClick={() => setDeclining({ id: r.id, order: r.order.name })}>
                            Decline
                          </Button>
                        </InlineStack>
                      ) : null}
                    </ResponsiveCell>
                    <ResponsiveCell>{date(r.created_at)}</ResponsiveCell>
                    <ResponsiveCell>{r.order.email ?? "No email"}</ResponsiveCell>
                    <ResponsiveCell>
                      <Clipped text={itemsLine(r.items)} />
                    </ResponsiveCell>
                    <ResponsiveCell>
                      <Text as="span">{RETURN_REASON_LABELS[r.reason]}</Text>
                      {r.note ? <Clipped text={`“${r.note}”`} subdued /> : null}
                    </ResponsiveCell>
                  </ResponsiveRow>
                ))}
              </ResponsiveIndexTable>
            ) : (
              <ResponsiveIndexTable
                resourceName={{ singular: "return", plural: "returns" }}
                itemCount={data.returns.length}
                selectable={false}
                headings={[{ title: "Return" }, { title: "Status" }, { title: "Items and reason" }, { title: "Tracking" }, { title: "Refund", alignment: "end" }]}
                emptyState={
                  <Box padding="400">
                    <Text as="p" tone="subdued">
                      <span data-testid="returns-empty">
                        {data.filters.q || data.filters.view !== "all" ? "No return matches these filters." : "No returns yet: they appear here when customers ask to send something back."}
                      </span>
                    </Text>
                  </Box>
                }
              >
                {data.returns.map((r, i) => (
                  <ResponsiveRow id={r.id} key={r.id} position={i}>
                    <ResponsiveCell>
                      <BlockStack gap="050">
                        <RowLink to={`/app/returns/${encodeURIComponent(r.id)}`} testId="return-link" primary>
                          {r.order.name}
                        </RowLink>
                        <Clipped text={r.order.email ?? "No email"} subdued />
                        <Text as="span" variant="bodySm" tone="subdued">
                          {date(r.created_at)}
                        </Text>
                      </BlockStack>
                    </ResponsiveCell>
                    <ResponsiveCell>
                      <InlineStack gap="100">
                        <Badge tone={returnTone(r.status)}>{RETURN_STATUS_LABEL[r.status]}</Badge>
                        {r.request?.status === "REQUESTED" ? <Badge tone="attention">To review</Badge> : null}
                      </InlineStack>
                    </ResponsiveCell>
                    <ResponsiveCell>
                      <Clipped text={itemsLine(r.line_items)} />
                      <Text as="span" variant="bodySm" tone="subdued">
                        {RETURN_REASON_LABELS[r.reason]}
                      </Text>
                    </ResponsiveCell>
                    <ResponsiveCell label="Tracking" hideWhenCondensed={!r.tracking_number}>
                      {r.tracking_number ? <Tracking company={r.tracking_company} number={r.tracking_number} /> : "—"}
                    </ResponsiveCell>
                    <ResponsiveCell>
                      <Text as="span" alignment="end" numeric>
                        {money(r.refund)}
                      </Text>
                    </ResponsiveCell>
                  </ResponsiveRow>
                ))}
              </ResponsiveIndexTable>
            )}
            <Box padding="300">
              <InlineStack align="center">
                <Pagination
                  hasPrevious={Boolean(data.cursor)}
                  onPrevious={() => {
                    const prev = trail[trail.length - 1];
                    setParams({ cursor: prev && prev !== FIRST ? prev : "", trail: trail.slice(0, -1).join(TRAIL_SEP) });
                  }}
                  hasNext={Boolean(data.nextCursor)}
                  onNext={() => setParams({ cursor: data.nextCursor ?? "", trail: [...trail, data.cursor || FIRST].join(TRAIL_SEP) })}
                />
              </InlineStack>
            </Box>
          </Card>
        </Layout.Section>
      </Layout>
      {declining ? (
        <DeclineRequestModal
          orderName={declining.order}
          loading={busyWith("decline")}
          error={result && !result.ok ? result.error : null}
          onClose={() => setDeclining(null)}
          onSubmit={(d) => submit({ intent: "decline", requestId: declining.id, ...d })}
        />
      ) : null}
    </Page>
  );
}
