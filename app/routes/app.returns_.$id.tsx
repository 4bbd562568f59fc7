/**
 * One return (issue 16): its items (price, quantity, reason, received or not, notes), the
 * customer's request (status, reason, note, decline reason), the order and customer, tracking and
 * label, the refund summary and the return's timeline. Actions follow the two machines and only the
 * moves allowed now are offered (cancel shows why it cannot be done): approve or decline the
 * request, send the label (tracking number or label URL, carrier), mark in transit or delivered,
 * cancel, "Confirm received" (items that came back, a note per item and one on the return) and the
 * refund of what was received (amount editable down, notify the customer). Each goes through the
 * same zod schema and service as /api/returns/admin; a refusal (409…) comes back as a banner, and
 * an open dialog keeps its input.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Badge, BlockStack, Button, Checkbox, Divider, InlineStack, Layout, Page, Text, TextField } from "@shopify/polaris";
import { useCallback, useEffect, useState } from "react";
import { hasPermission } from "~/api/auth.server";
import { RETURN_REASON_LABELS } from "~/contract/account-orders";
import { adminReturnsEndpoints } from "~/contract/admin-returns";
import { getAppContext } from "~/context.server";
import type { ActionResult } from "~/lib/admin-list";
import { answerRefusals, invalidInput, orNotFound } from "~/lib/admin-route.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { staffError } from "~/lib/staff-errors";
import { formOf } from "~/lib/body-limit.server";
import { money } from "~/lib/admin-orders-view";
import { REQUEST_STATUS_LABEL, requestTone, RETURN_STATUS_LABEL, returnTone } from "~/lib/admin-returns-view";
import { approveReturnRequest, changeReturnStatus, confirmReturn, declineReturnRequest, getAdminReturn, refundReturn, RETURN_NOT_FOUND } from "~/services/returns/admin-returns.server";
import { returnMoveRefusal, RETURN_RULE_MESSAGES } from "~/services/returns/return-rules";
import { returnTimeline } from "~/services/returns/return-timeline.server";
import { ActionBannerSection, ConfirmModal, SectionCard, useIntentFetcher } from "~/components/admin";
import { DeclineRequestModal } from "~/components/admin/DeclineRequestModal";

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { user } = await requireAdmin(request, "returns.manage");
  const ctx = getAppContext();
  const parsed = adminReturnsEndpoints.returnsAdminGet.params.safeParse({ id: params.id ?? "" });
  const missing = `${RETURN_NOT_FOUND}: it may have been deleted`;
  if (!parsed.success) throw staffError(404, missing);
  const ret = await orNotFound(missing, () => getAdminReturn(ctx.db, parsed.data.id));
  const timeline = await returnTimeline(ctx.db, { orderId: ret.order.id, returnId: ret.id, requestId: ret.request?.id ?? null });
  const finished = ret.status === "REFUNDED" || ret.status === "CANCELED";
  return {
    ret,
    timeline,
    canOpenOrder: hasPermission(user, "orders.manage"),
    /** Why "Cancel return" is disabled (null: it is allowed, or the return is finished and the button hidden). */
    cancelBlockReason: finished || ret.allowed_statuses.includes("CANCELED") ? null : returnMoveRefusal(ret.status, "CANCELED", ret.request?.status ?? null),
  };
};

const fields = (form: FormData, key: string) => form.getAll(key).filter((v): v is string => typeof v === "string" && v.trim() !== "");
const text = (form: FormData, key: string) => {
  const v = form.get(key);
  return typeof v === "string" && v.trim() ? v.trim() : undefined;
};
const ITEM_NOTE = "note:";

export const action = async ({ request, params }: ActionFunctionArgs): Promise<ActionResult> => {
  const { user } = await requireAdmin(request, "returns.manage");
  const ctx = getAppContext();
  const form = await formOf(request);
  return answerRefusals<ActionResult>(async () => {
    const parsedId = adminReturnsEndpoints.returnsAdminGet.params.safeParse({ id: params.id ?? "" });
    if (!parsedId.success) return { ok: false, error: RETURN_NOT_FOUND };
    const id = parsedId.data.id;
    // The request decided on is this return's own (never one named by the form).
    const requestOf = async () => (await getAdminReturn(ctx.db, id)).request?.id ?? null;
    switch (form.get("intent")) {
      case "approve": {
        const requestId = await requestOf();
        if (!requestId) return { ok: false, error: "This return has no request to decide on" };
        await approveReturnRequest(ctx, user, requestId);
        return { ok: true, message: "Approved the return request; the customer has been emailed the next steps." };
      }
      case "decline": {
        const body = adminReturnsEndpoints.returnsAdminRequestDecline.body.safeParse({ reason: String(form.get("reason") ?? ""), decline_reason: text(form, "decline_reason") });
        if (!body.success) return invalidInput(body.error);
        const requestId = await requestOf();
        if (!requestId) return { ok: false, error: "This return has no request to decide on" };
        await declineReturnRequest(ctx, user, requestId, body.data);
        return { ok: true, message: "Declined the return request; the customer has been told why." };
      }
      case "label":
      case "status": {
        const body = adminReturnsEndpoints.returnsAdminStatus.body.safeParse({
          status: form.get("intent") === "label" ? "LABEL_SENT" : text(form, "status"),
          trackingNumber: text(form, "trackingNumber"),
          trackingCompany: text(form, "trackingCompany"),
          labelUrl: text(form, "labelUrl"),
        });
        if (!body.success) return invalidInput(body.error);
        const r = await changeReturnStatus(ctx, user, id, body.data);
        if (body.data.status === "LABEL_SENT")
          return { ok: true, message: `Return label sent to the customer${r.tracking_number ? ` (${[r.tracking_company, r.tracking_number].filter(Boolean).join(" ")})` : ""}.` };
        return { ok: true, message: `The return is now ${RETURN_STATUS_LABEL[r.status].toLowerCase()}.` };
      }
      case "confirm": {
        const notes = [...form.keys()].filter((k) => k.startsWith(ITEM_NOTE) && text(form, k) !== undefined);
        const body = adminReturnsEndpoints.returnsAdminConfirm.body.safeParse({
          received_item_ids: fields(form, "received"),
          note_text: text(form, "note_text"),
          item_notes: notes.length ? Object.fromEntries(notes.map((k) => [k.slice(ITEM_NOTE.length), text(form, k)])) : undefined,
        });
        if (!body.success) return invalidInput(body.error);
        const r = await confirmReturn(ctx, user, id, body.data);
        const n = r.line_items.filter((li) => li.received).length;
        return { ok: true, message: `Confirmed: ${n} of ${r.line_items.length} ${r.line_items.length === 1 ? "item" : "items"} received.` };
      }
      case "refund": {
        const body = adminReturnsEndpoints.returnsAdminRefund.body.safeParse({ amount: text(form, "amount"), notify: form.get("notify") !== "false" });
        if (!body.success) return invalidInput(body.error);
        // A second submit answers the refund made, without claiming a second email.
        const before = await getAdminReturn(ctx.db, id);
        if (before.status === "REFUNDED") return { ok: true, message: `This return was already refunded (${money(before.refund)}).` };
        const r = await refundReturn(ctx, user, id, body.data);
        return { ok: true, message: `Refunded ${money(r.refund)} to the original payment${body.data.notify ? "; the customer has been emailed" : ""}.` };
      }
      default:
        return { ok: false, error: "Unknown action" };
    }
  });
};

type Ret = ReturnType<typeof useLoaderData<typeof loader>>["ret"];
type Line = Ret["line_items"][number];
type Dialog = "decline" | "label" | "confirm" | "cancel" | null;
const utc = (iso: string | Date) => `${new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(new Date(iso))} UTC`;
const lineTotal = (li: Line) => ({ amount: (Number(li.price.amount) * li.quantity).toFixed(2), currencyCode: li.price.currencyCode });
const itemLabel = (li: Line) => `${li.title}${li.variant_title ? ` (${li.variant_title})` : ""} × ${li.quantity}`;

export default function ReturnPage() {
  const { ret, timeline, canOpenOrder, cancelBlockReason } = useLoaderData<typeof loader>();
  const { fetcher, submit, busyWith } = useIntentFetcher<typeof action>();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [dismissed, setDismissed] = useState<unknown>(null);
  const result = fetcher.data && fetcher.data !== dismissed ? fetcher.data : null;
  const close = useCallback(() => setDialog(null), []);
  // A dialog stays open on a refusal (its input kept) and closes once the action succeeded.
  const dialogError = result && !result.ok ? result.error : null;
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) setDialog(null);
  }, [fetcher.state, fetcher.data]);

  const req = ret.request;
  const toReview = req?.allowed_moves.includes("OPEN") ?? false;
  const can = (s: Ret["status"]) => ret.allowed_statuses.includes(s);
  const confirmable = !ret.received_at && (ret.status === "IN_TRANSIT" || ret.status === "DELIVERED");
  const finished = ret.status === "REFUNDED" || ret.status === "CANCELED";

  type PageAction = { content: string; onAction: () => void; loading?: boolean; destructive?: boolean; disabled?: boolean; helpText?: string };
  const primary: PageAction | undefined = toReview
    ? { content: "Approve request", loading: busyWith("approve"), onAction: () => submit({ intent: "approve" }) }
    : can("LABEL_SENT")
      ? { content: "Send label", onAction: () => setDialog("label") }
      : can("IN_TRANSIT")
        ? { content: "Mark in transit", loading: busyWith("status"), onAction: () => submit({ intent: "status", status: "IN_TRANSIT" }) }
        : confirmable
          ? { content: "Confirm received", onAction: () => setDialog("confirm") }
          : undefined;
  const secondary: PageAction[] = [
    ...(req?.allowed_moves.includes("DECLINED") ? [{ content: "Decline request", destructive: true, onAction: () => setDialog("decline") }] : []),
    ...(can("DELIVERED") && ret.status === "IN_TRANSIT" ? [{ content: "Mark delivered", loading: busyWith("status"), onAction: () => submit({ intent: "status", status: "DELIVERED" }) }] : []),
    ...(finished ? [] : [{ content: "Cancel return", destructive: true, disabled: !can("CANCELED"), helpText: cancelBlockReason ?? undefined, onAction: () => setDialog("cancel") }]),
  ];

  return (
    <Page
      backAction={{ content: "Returns", url: "/app/returns" }}
      title={`Return for ${ret.order.name}`}
      titleMetadata={
        <InlineStack gap="100">
          <span data-testid="return-status" data-status={ret.status}>
            <Badge tone={returnTone(ret.status)}>{RETURN_STATUS_LABEL[ret.status]}</Badge>
          </span>
          {req ? <Badge tone={requestTone(req.status)}>{`Request: ${REQUEST_STATUS_LABEL[req.status]}`}</Badge> : null}
        </InlineStack>
      }
      subtitle={`Created ${utc(ret.created_at)} · ${RETURN_REASON_LABELS[ret.reason]}`}
      primaryAction={primary}
      secondaryActions={secondary}
    >
      <Layout>
        {dialog ? null : <ActionBannerSection result={result} testId="return-notice" onDismiss={() => setDismissed(fetcher.data)} />}
        {cancelBlockReason ? (
          <Layout.Section>
            <Text as="p" tone="subdued">
              <span data-testid="cancel-block-reason">Cannot be cancelled: {cancelBlockReason}</span>
            </Text>
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <BlockStack gap="400">
            <SectionCard title={`Items (${ret.line_items.length})`}>
              <BlockStack gap="300">
                {ret.line_items.map((li) => (
                  <LineRow key={li.id} line={li} confirmed={Boolean(ret.received_at)} />
                ))}
              </BlockStack>
              {ret.note_text ? (
                <Text as="p">
                  <span data-testid="return-note">Note: {ret.note_text}</span>
                </Text>
              ) : null}
            </SectionCard>
            {/* Keyed on what can be refunded: the amount starts again from it once the confirmation changes it. */}
            <RefundCard key={`${ret.status}:${ret.refundable.amount}`} ret={ret} busy={busyWith("refund")} onRefund={(d) => submit({ intent: "refund", ...d })} />
            <SectionCard title="Timeline">
              {timeline.length === 0 ? (
                <Text as="p" tone="subdued">
                  Nothing recorded yet.
                </Text>
              ) : (
                <BlockStack gap="200">
                  {timeline.map((e) => (
                    <div key={e.id} data-testid="return-event">
                      <Text as="p">{e.message}</Text>
                      <Text as="p" tone="subdued" variant="bodySm">
                        {e.actor} · {utc(e.created_at)}
                      </Text>
                    </div>
                  ))}
                </BlockStack>
              )}
            </SectionCard>
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <BlockStack gap="400">
            <SectionCard title="Order and customer">
              {canOpenOrder ? (
                <Link to={`/app/orders/${encodeURIComponent(ret.order.id)}`} data-testid="return-order-link">
                  Order {ret.order.name}
                </Link>
              ) : (
                <Text as="p">Order {ret.order.name}</Text>
              )}
              <Text as="p" tone="subdued">
                {ret.order.email ?? "No email"}
              </Text>
            </SectionCard>
            <SectionCard title="Request">
              {req ? (
                <BlockStack gap="100">
                  <InlineStack gap="100">
                    <Badge tone={requestTone(req.status)}>{REQUEST_STATUS_LABEL[req.status]}</Badge>
                  </InlineStack>
                  <Text as="p">Reason: {RETURN_REASON_LABELS[req.reason]}</Text>
                  {req.note ? (
                    <Text as="p" tone="subdued">
                      “{req.note}”
                    </Text>
                  ) : null}
                  {req.decline_reason ? <Text as="p">Declined: {req.decline_reason}</Text> : null}
                  <Text as="p" tone="subdued" variant="bodySm">
                    Requested {utc(req.created_at)}
                  </Text>
                </BlockStack>
              ) : (
                <Text as="p" tone="subdued">
                  Started by the store (no customer request).
                </Text>
              )}
            </SectionCard>
            <SectionCard title="Tracking">
              {ret.tracking_number || ret.label_url ? (
                <BlockStack gap="100">
                  <Text as="p">
                    <span data-testid="return-tracking">
                      {ret.tracking_company ?? "Carrier not given"}
                      {ret.tracking_number ? ` · ${ret.tracking_number}` : " · no tracking number"}
                    </span>
                  </Text>
                  {ret.label_url ? (
                    <a href={ret.label_url} target="_blank" rel="noreferrer">
                      Return label
                    </a>
                  ) : null}
                </BlockStack>
              ) : (
                <Text as="p" tone="subdued">
                  No label sent yet.
                </Text>
              )}
            </SectionCard>
          </BlockStack>
        </Layout.Section>
      </Layout>
      {dialog === "decline" ? <DeclineRequestModal orderName={ret.order.name} loading={busyWith("decline")} error={dialogError} onClose={close} onSubmit={(d) => submit({ intent: "decline", ...d })} /> : null}
      {dialog === "label" ? <LabelModal loading={busyWith("label")} error={dialogError} onClose={close} onSubmit={(d) => submit({ intent: "label", ...d })} /> : null}
      {dialog === "confirm" ? <ConfirmReceivedModal lines={ret.line_items} loading={busyWith("confirm")} error={dialogError} onClose={close} onSubmit={(d) => submit({ intent: "confirm", ...d })} /> : null}
      {dialog === "cancel" ? (
        <ConfirmModal title={`Cancel this return of ${ret.order.name}?`} confirmLabel="Cancel return" loading={busyWith("status")} error={dialogError} errorTestId="cancel-error" onClose={close} onConfirm={() => submit({ intent: "status", status: "CANCELED" })}>
          <Text as="p">The customer is emailed that the return is cancelled; nothing is refunded.</Text>
        </ConfirmModal>
      ) : null}
    </Page>
  );
}

function LineRow({ line, confirmed }: { line: Line; confirmed: boolean }) {
  return (
    <div data-testid="return-item" data-item-id={line.id}>
      <InlineStack align="space-between" blockAlign="start" gap="200" wrap={false}>
        <BlockStack gap="050">
          <Text as="p" fontWeight="semibold">
            {line.title}
          </Text>
          <Text as="p" tone="subdued" variant="bodySm">
            {[line.variant_title, line.sku ? `SKU ${line.sku}` : null, `${line.quantity} × ${money(line.price)}`, RETURN_REASON_LABELS[line.reason]].filter(Boolean).join(" · ")}
          </Text>
          {line.note ? (
            <Text as="p" variant="bodySm">
              <span data-testid="return-item-note">Note: {line.note}</span>
            </Text>
          ) : null}
        </BlockStack>
        <span data-testid="return-item-received" data-received={confirmed ? String(line.received) : "unchecked"}>
          {confirmed ? <Badge tone={line.received ? "success" : "warning"}>{line.received ? "Received" : "Not received"}</Badge> : <Badge>Not checked yet</Badge>}
        </span>
      </InlineStack>
    </div>
  );
}

function RefundCard({ ret, busy, onRefund }: { ret: Ret; busy: boolean; onRefund: (d: Record<string, string>) => void }) {
  const [amount, setAmount] = useState(ret.refundable.amount);
  const [notify, setNotify] = useState(true);
  if (ret.status !== "DELIVERED" && ret.status !== "REFUNDED") return null;
  const received = ret.line_items.filter((li) => li.received);
  const canRefund = ret.status === "DELIVERED" && Boolean(ret.received_at) && Number(ret.refundable.amount) > 0;
  return (
    <SectionCard title="Refund">
      <div data-testid="refund-summary">
        <BlockStack gap="200">
          {ret.line_items.map((li) => (
            <InlineStack key={li.id} align="space-between">
              <Text as="span" tone={li.received ? undefined : "subdued"}>
                {itemLabel(li)}
                {li.received ? "" : " — not received, not refunded"}
              </Text>
              <Text as="span" numeric tone={li.received ? undefined : "subdued"}>
                {li.received ? money(lineTotal(li)) : "—"}
              </Text>
            </InlineStack>
          ))}
          <Divider />
          <InlineStack align="space-between">
            <Text as="span" fontWeight="semibold">
              Received items ({received.length})
            </Text>
            <Text as="span" fontWeight="semibold" numeric>
              {money(ret.refundable)}
            </Text>
          </InlineStack>
          {ret.status === "REFUNDED" ? (
            <Text as="p" fontWeight="semibold">
              <span data-testid="refund-done">
                Refunded {money(ret.refund)}
                {ret.refunded_at ? ` on ${utc(ret.refunded_at)}` : ""}
              </span>
            </Text>
          ) : !ret.received_at ? (
            <Text as="p" tone="subdued">
              {RETURN_RULE_MESSAGES.REFUND_NOT_CONFIRMED}.
            </Text>
          ) : !canRefund ? (
            <Text as="p" tone="subdued">
              {RETURN_RULE_MESSAGES.NOTHING_RECEIVED}.
            </Text>
          ) : (
            <BlockStack gap="200">
              <TextField
                label="Amount to refund"
                type="number"
                min={0}
                step={0.01}
                autoComplete="off"
                prefix={ret.refundable.currencyCode === "USD" ? "$" : ret.refundable.currencyCode}
                value={amount}
                onChange={setAmount}
                helpText={`At most ${money(ret.refundable)}, what the received items are worth; refunded to the original payment.`}
              />
              <Checkbox label="Email the customer about the refund" checked={notify} onChange={setNotify} />
              <InlineStack align="end">
                <Button variant="primary" loading={busy} onClick={() => onRefund({ amount, notify: String(notify) })}>
                  Refund
                </Button>
              </InlineStack>
            </BlockStack>
          )}
        </BlockStack>
      </div>
    </SectionCard>
  );
}

function LabelModal({ loading, error, onClose, onSubmit }: { loading: boolean; error: string | null; onClose: () => void; onSubmit: (d: Record<string, string>) => void }) {
  const [company, setCompany] = useState("");
  const [number, setNumber] = useState("");
  const [url, setUrl] = useState("");
  return (
    <ConfirmModal
      title="Send the return label"
      confirmLabel="Send label"
      destructive={false}
      loading={loading}
      error={error}
      errorTestId="label-error"
      onClose={onClose}
      onConfirm={() => onSubmit({ trackingCompany: company, trackingNumber: number, labelUrl: url })}
    >
      <Text as="p">The customer is emailed the label and the tracking number. A tracking number or a label URL is required.</Text>
      <TextField label="Carrier" autoComplete="off" value={company} onChange={setCompany} placeholder="UPS, DHL, USPS…" />
      <TextField label="Tracking number" autoComplete="off" value={number} onChange={setNumber} />
      <TextField label="Label URL" autoComplete="off" value={url} onChange={setUrl} placeholder="https://…" />
    </ConfirmModal>
  );
}

function ConfirmReceivedModal({ lines, loading, error, onClose, onSubmit }: { lines: Line[]; loading: boolean; error: string | null; onClose: () => void; onSubmit: (d: Record<string, string | string[]>) => void }) {
  const [received, setReceived] = useState<string[]>(lines.map((l) => l.id));
  const [notes, setNotes] = useState<Record<string, string>>(Object.fromEntries(lines.map((l) => [l.id, l.note ?? ""])));
  const [general, setGeneral] = useState("");
  return (
    <ConfirmModal
      title="Confirm what came back"
      confirmLabel="Confirm received"
      destructive={false}
      loading={loading}
      error={error}
      errorTestId="confirm-error"
      onClose={onClose}
      onConfirm={() =>
        onSubmit({
          received,
          note_text: general,
          ...Object.fromEntries(Object.entries(notes).filter(([, n]) => n.trim()).map(([id, n]) => [`${ITEM_NOTE}${id}`, n])),
        })
      }
    >
      <Text as="p">Tick what was in the parcel: it is restocked and refundable. Note what is missing or damaged.</Text>
      <BlockStack gap="300">
        {lines.map((l) => (
          <div key={l.id} data-testid="confirm-item" data-item-id={l.id}>
            <BlockStack gap="100">
              <Checkbox label={itemLabel(l)} checked={received.includes(l.id)} onChange={(on) => setReceived((c) => (on ? [...c, l.id] : c.filter((x) => x !== l.id)))} />
              <TextField label={`Note on ${l.title}`} autoComplete="off" value={notes[l.id] ?? ""} onChange={(v) => setNotes((n) => ({ ...n, [l.id]: v }))} maxLength={1000} />
            </BlockStack>
          </div>
        ))}
      </BlockStack>
      <TextField label="Note on the return" autoComplete="off" value={general} onChange={setGeneral} multiline={2} maxLength={2000} />
    </ConfirmModal>
  );
}
