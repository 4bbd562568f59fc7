/**
 * One order (issue 16), laid out like Shopify's: items with their status badges and the moves
 * allowed now, fulfilments with carrier and tracking, returns, the customer and shipping address,
 * totals and the timeline (who did what). Actions: fulfil chosen items with carrier and tracking,
 * cancel with a reason (disabled with the reason why when the order cannot be cancelled), move items
 * along the item-status machine. Each action goes through the same zod body and service as the
 * /api/orders/admin endpoints; a refusal (409…) comes back as a banner and the dialog keeps its input.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Badge, BlockStack, Button, Checkbox, Divider, InlineStack, Layout, Page, Select, Text, TextField } from "@shopify/polaris";
import { useCallback, useEffect, useState } from "react";
import { adminOrdersEndpoints, ADMIN_CANCEL_REASONS } from "~/contract/admin-orders";
import { getAppContext } from "~/context.server";
import type { ActionResult } from "~/lib/admin-list";
import { answerRefusals, invalidInput, orNotFound } from "~/lib/admin-route.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { staffError } from "~/lib/staff-errors";
import { formOf } from "~/lib/body-limit.server";
import { cancelAdminOrder, createAdminFulfillment, getAdminOrder, ORDER_NOT_FOUND, setAdminItemStatus } from "~/services/orders/admin-orders.server";
import { ActionBannerSection, ConfirmModal, SectionCard, useIntentFetcher } from "~/components/admin";
import { financialTone, fulfillmentTone, humanStatus, money } from "~/lib/admin-orders-view";

export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  await requireAdmin(request, "orders.manage");
  const ctx = getAppContext();
  const parsed = adminOrdersEndpoints.ordersAdminGet.params.safeParse({ id: params.id ?? "" });
  const missing = `${ORDER_NOT_FOUND}: it may have been deleted`;
  if (!parsed.success) throw staffError(404, missing);
  return { order: await orNotFound(missing, () => getAdminOrder(ctx.db, parsed.data.id)) };
};

const fields = (form: FormData, key: string) => form.getAll(key).filter((v): v is string => typeof v === "string" && v.trim() !== "");
const text = (form: FormData, key: string) => {
  const v = form.get(key);
  return typeof v === "string" && v.trim() ? v.trim() : undefined;
};

export const action = async ({ request, params }: ActionFunctionArgs): Promise<ActionResult> => {
  const { user } = await requireAdmin(request, "orders.manage");
  const ctx = getAppContext();
  const id = params.id ?? "";
  const form = await formOf(request);
  return answerRefusals<ActionResult>(async () => {
    switch (form.get("intent")) {
      case "fulfil": {
        const parsed = adminOrdersEndpoints.ordersAdminFulfill.body.safeParse({
          // Each chosen item whole: partial quantities are for the API (Shopify fulfils line quantities).
          items: fields(form, "itemIds").map((itemId) => ({ itemId, quantity: Number(form.get(`qty:${itemId}`) ?? 1) })),
          trackingCompany: text(form, "trackingCompany"),
          trackingNumber: text(form, "trackingNumber"),
          trackingUrl: text(form, "trackingUrl"),
          notifyCustomer: form.get("notifyCustomer") === "true",
        });
        if (!parsed.success) return invalidInput(parsed.error);
        const o = await createAdminFulfillment(ctx, user, id, parsed.data);
        const n = parsed.data.items.length;
        return { ok: true, message: `${n} ${n === 1 ? "item" : "items"} of ${o.name} ${parsed.data.trackingNumber ? `shipped with tracking ${parsed.data.trackingNumber}` : "fulfilled"}.` };
      }
      case "cancel": {
        const parsed = adminOrdersEndpoints.ordersAdminCancel.body.safeParse({
          reason: text(form, "reason"),
          restock: form.get("restock") !== "false",
          refund: form.get("refund") !== "false",
          notify: form.get("notify") !== "false",
          staffNote: text(form, "staffNote"),
        });
        if (!parsed.success) return invalidInput(parsed.error);
        const o = await cancelAdminOrder(ctx, user, id, parsed.data);
        return { ok: true, message: `${o.name} is cancelled.` };
      }
      case "item-status": {
        const parsed = adminOrdersEndpoints.ordersAdminItemsStatus.body.safeParse({ itemIds: fields(form, "itemIds"), status: text(form, "status") });
        if (!parsed.success) return invalidInput(parsed.error);
        await setAdminItemStatus(ctx, user, id, parsed.data);
        const n = parsed.data.itemIds.length;
        return { ok: true, message: `${n} ${n === 1 ? "item" : "items"} marked ${humanStatus(parsed.data.status).toLowerCase()}.` };
      }
      default:
        return { ok: false, error: "Unknown action" };
    }
  });
};

type Order = ReturnType<typeof useLoaderData<typeof loader>>["order"];
type Item = Order["items"][number];
const utc = (iso: string | Date) => `${new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(new Date(iso))} UTC`;
const CANCEL_REASON_LABEL: Record<(typeof ADMIN_CANCEL_REASONS)[number], string> = {
  CUSTOMER: "Customer changed or cancelled the order",
  DECLINED: "Payment declined",
  FRAUD: "Fraudulent order",
  INVENTORY: "Items unavailable",
  STAFF: "Staff error",
  OTHER: "Other",
};

export default function OrderPage() {
  const { order } = useLoaderData<typeof loader>();
  const { fetcher, submit, busyWith } = useIntentFetcher<typeof action>();
  const [dialog, setDialog] = useState<"fulfil" | "cancel" | null>(null);
  const [dismissed, setDismissed] = useState<unknown>(null);
  const result = fetcher.data && fetcher.data !== dismissed ? fetcher.data : null;
  const close = useCallback(() => setDialog(null), []);
  const unfulfilled = order.items.filter((i) => i.status === "unfulfilled");
  // A dialog stays open on a refusal (its input kept) and closes once the action succeeded.
  const dialogError = result && !result.ok ? result.error : null;
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) setDialog(null);
  }, [fetcher.state, fetcher.data]);

  return (
    <Page
      backAction={{ content: "Orders", url: "/app/orders" }}
      title={order.name}
      titleMetadata={
        <InlineStack gap="100">
          {order.financial_status ? <Badge tone={financialTone(order.financial_status)}>{humanStatus(order.financial_status)}</Badge> : null}
          <Badge tone={fulfillmentTone(order.stage)}>{humanStatus(order.stage)}</Badge>
        </InlineStack>
      }
      subtitle={`Placed ${utc(order.created_at)}${order.cancelled_at ? ` · cancelled ${utc(order.cancelled_at)}${order.cancel_reason ? ` (${order.cancel_reason.toLowerCase()})` : ""}` : ""}`}
      primaryAction={{ content: "Fulfil items", disabled: unfulfilled.length === 0 || order.status === "cancelled", onAction: () => setDialog("fulfil") }}
      secondaryActions={[
        {
          content: "Cancel order",
          destructive: true,
          disabled: !order.can_cancel,
          helpText: order.can_cancel ? undefined : (order.cancel_block_reason ?? undefined),
          onAction: () => setDialog("cancel"),
        },
      ]}
    >
      <Layout>
        {dialog ? null : <ActionBannerSection result={result} testId="order-notice" onDismiss={() => setDismissed(fetcher.data)} />}
        {!order.can_cancel && order.cancel_block_reason ? (
          <Layout.Section>
            <Text as="p" tone="subdued">
              <span data-testid="cancel-block-reason">Cannot be cancelled: {order.cancel_block_reason}</span>
            </Text>
          </Layout.Section>
        ) : null}
        <Layout.Section>
          <BlockStack gap="400">
            <SectionCard title={`Items (${order.items.length})`}>
              <BlockStack gap="300">
                {order.items.map((it) => (
                  <ItemRow key={it.id} item={it} busy={busyWith("item-status")} onMove={(status) => submit({ intent: "item-status", itemIds: [it.id], status })} />
                ))}
              </BlockStack>
            </SectionCard>
            <SectionCard title="Fulfilments">
              {order.fulfillments.length === 0 ? (
                <Text as="p" tone="subdued">
                  Nothing sent yet.
                </Text>
              ) : (
                <BlockStack gap="300">
                  {order.fulfillments.map((f, i) => (
                    <div key={f.id ?? `f${i}`} data-testid="order-fulfilment">
                      <Text as="p" fontWeight="semibold">
                        {f.tracking_company ?? "Carrier not given"}
                        {f.tracking_number ? ` · ${f.tracking_number}` : " · no tracking number"}
                      </Text>
                      {f.tracking_url ? (
                        <a href={f.tracking_url} target="_blank" rel="noreferrer">
                          Track the parcel
                        </a>
                      ) : null}
                      <Text as="p" tone="subdued">
                        {f.item_ids.map((id) => order.items.find((x) => x.id === id)?.title ?? id).join(", ")}
                      </Text>
                    </div>
                  ))}
                </BlockStack>
              )}
            </SectionCard>
            {order.returns.length || order.return_requests.length ? (
              <SectionCard title="Returns">
                <BlockStack gap="200">
                  {order.return_requests.map((r) => (
                    <Text as="p" key={r.id}>
                      Request ({humanStatus(r.reason)}): <Badge>{humanStatus(r.status)}</Badge> {r.item_ids.length} {r.item_ids.length === 1 ? "item" : "items"}
                      {r.note ? ` — ${r.note}` : ""}
                    </Text>
                  ))}
                  {order.returns.map((r) => (
                    <Text as="p" key={r.id}>
                      Return ({humanStatus(r.reason)}): <Badge>{humanStatus(r.status)}</Badge>
                      {r.tracking_number ? ` · tracking ${r.tracking_number}` : ""}
                      {r.refund ? ` · refund ${money(r.refund)}` : ""}
                    </Text>
                  ))}
                </BlockStack>
              </SectionCard>
            ) : null}
            <SectionCard title="Timeline">
              <BlockStack gap="200">
                {order.timeline.map((e) => (
                  <div key={e.id} data-testid="order-event">
                    <Text as="p">{e.message}</Text>
                    <Text as="p" tone="subdued" variant="bodySm">
                      {e.actor.label} · {utc(e.created_at)}
                    </Text>
                  </div>
                ))}
              </BlockStack>
            </SectionCard>
          </BlockStack>
        </Layout.Section>
        <Layout.Section variant="oneThird">
          <BlockStack gap="400">
            <SectionCard title="Customer">
              <Text as="p">{order.customer.name ?? "No name"}</Text>
              <Text as="p" tone="subdued">
                {order.customer.email ?? "No email"}
              </Text>
              {order.shipping_address ? (
                <>
                  <Divider />
                  <Text as="h3" variant="headingSm">
                    Shipping address
                  </Text>
                  {addressLines(order.shipping_address).map((l) => (
                    <Text as="p" key={l}>
                      {l}
                    </Text>
                  ))}
                </>
              ) : null}
            </SectionCard>
            <SectionCard title="Payment">
              <Totals order={order} />
            </SectionCard>
            {order.note ? (
              <SectionCard title="Note">
                <Text as="p">{order.note}</Text>
              </SectionCard>
            ) : null}
          </BlockStack>
        </Layout.Section>
      </Layout>
      {dialog === "fulfil" ? <FulfilModal items={unfulfilled} loading={busyWith("fulfil")} error={dialogError} onClose={close} onSubmit={(d) => submit({ intent: "fulfil", ...d })} /> : null}
      {dialog === "cancel" ? <CancelModal name={order.name} loading={busyWith("cancel")} error={dialogError} onClose={close} onSubmit={(d) => submit({ intent: "cancel", ...d })} /> : null}
    </Page>
  );
}

function ItemRow({ item, busy, onMove }: { item: Item; busy: boolean; onMove: (status: string) => void }) {
  const [next, setNext] = useState<string>(item.next_statuses[0] ?? "");
  return (
    <div data-testid="order-item">
      <InlineStack align="space-between" blockAlign="center" gap="200" wrap={false}>
        <BlockStack gap="050">
          <Text as="p" fontWeight="semibold">
            {item.title}
          </Text>
          <Text as="p" tone="subdued" variant="bodySm">
            {[item.variant_title, item.sku ? `SKU ${item.sku}` : null, `${item.quantity} × ${money(item.price)}`].filter(Boolean).join(" · ")}
          </Text>
          {item.tracking ? (
            <Text as="p" variant="bodySm">
              {item.tracking.provider ?? "Tracking"}: {item.tracking.tracking_number}
            </Text>
          ) : null}
        </BlockStack>
        <InlineStack gap="200" blockAlign="center" wrap={false}>
          <Badge tone={fulfillmentTone(item.status)}>{humanStatus(item.status)}</Badge>
          {item.next_statuses.length ? (
            <>
              <Select
                label="Next status"
                labelHidden
                options={item.next_statuses.map((s) => ({ label: humanStatus(s), value: s }))}
                value={next}
                onChange={setNext}
              />
              <Button loading={busy} onClick={() => onMove(next)}>
                Mark
              </Button>
            </>
          ) : null}
        </InlineStack>
      </InlineStack>
    </div>
  );
}

function Totals({ order }: { order: Order }) {
  const rows: [string, { amount: string; currencyCode: string } | null][] = [
    ["Subtotal", order.subtotal],
    ["Shipping", order.shipping],
    ["Tax", order.tax],
    ["Total", order.total],
  ];
  return (
    <BlockStack gap="100">
      {rows
        .filter(([, m]) => m)
        .map(([label, m]) => (
          <InlineStack key={label} align="space-between">
            <Text as="span" fontWeight={label === "Total" ? "semibold" : undefined}>
              {label}
            </Text>
            <Text as="span" numeric>
              {money(m)}
            </Text>
          </InlineStack>
        ))}
    </BlockStack>
  );
}

function addressLines(a: NonNullable<Order["shipping_address"]>): string[] {
  return [
    [a.first_name, a.last_name].filter(Boolean).join(" "),
    a.company,
    a.address1,
    a.address2,
    [a.zip, a.city, a.province].filter(Boolean).join(" "),
    a.country ?? a.country_code,
    a.phone,
  ].filter((l): l is string => Boolean(l));
}

function FulfilModal({ items, loading, error, onClose, onSubmit }: { items: Item[]; loading: boolean; error: string | null; onClose: () => void; onSubmit: (d: Record<string, string | string[]>) => void }) {
  const [chosen, setChosen] = useState<string[]>(items.map((i) => i.id));
  const [company, setCompany] = useState("");
  const [number, setNumber] = useState("");
  const [url, setUrl] = useState("");
  const [notify, setNotify] = useState(true);
  return (
    <ConfirmModal
      title="Fulfil items"
      confirmLabel="Fulfil"
      destructive={false}
      loading={loading}
      error={error}
      errorTestId="fulfil-error"
      onClose={onClose}
      onConfirm={() => onSubmit({ itemIds: chosen, ...Object.fromEntries(chosen.map((id) => [`qty:${id}`, String(items.find((i) => i.id === id)?.quantity ?? 1)])), trackingCompany: company, trackingNumber: number, trackingUrl: url, notifyCustomer: String(notify) })}
    >
      <BlockStack gap="200">
        {items.map((i) => (
          <Checkbox key={i.id} label={`${i.title}${i.variant_title ? ` (${i.variant_title})` : ""} × ${i.quantity}`} checked={chosen.includes(i.id)} onChange={(on) => setChosen((c) => (on ? [...c, i.id] : c.filter((x) => x !== i.id)))} />
        ))}
      </BlockStack>
      <TextField label="Carrier" autoComplete="off" value={company} onChange={setCompany} placeholder="UPS, DHL, USPS…" />
      <TextField label="Tracking number" autoComplete="off" value={number} onChange={setNumber} helpText="With a tracking number the items are shipped; without, fulfilled." />
      <TextField label="Tracking URL" autoComplete="off" value={url} onChange={setUrl} helpText="Optional: known carriers get a link of their own." />
      <Checkbox label="Send the customer a shipping email" checked={notify} onChange={setNotify} />
    </ConfirmModal>
  );
}

function CancelModal({ name, loading, error, onClose, onSubmit }: { name: string; loading: boolean; error: string | null; onClose: () => void; onSubmit: (d: Record<string, string>) => void }) {
  const [reason, setReason] = useState<string>("CUSTOMER");
  const [restock, setRestock] = useState(true);
  const [refund, setRefund] = useState(true);
  const [notify, setNotify] = useState(true);
  const [note, setNote] = useState("");
  return (
    <ConfirmModal
      title={`Cancel ${name}?`}
      confirmLabel="Cancel order"
      loading={loading}
      error={error}
      errorTestId="cancel-error"
      onClose={onClose}
      onConfirm={() => onSubmit({ reason, restock: String(restock), refund: String(refund), notify: String(notify), staffNote: note })}
    >
      <Select label="Reason" options={ADMIN_CANCEL_REASONS.map((r) => ({ label: CANCEL_REASON_LABEL[r], value: r }))} value={reason} onChange={setReason} />
      <Checkbox label="Restock the items" checked={restock} onChange={setRestock} />
      <Checkbox label="Refund the payment" checked={refund} onChange={setRefund} />
      <Checkbox label="Tell the customer" checked={notify} onChange={setNotify} />
      <TextField label="Staff note" autoComplete="off" value={note} onChange={setNote} multiline={2} />
    </ConfirmModal>
  );
}
