/**
 * One order (issue 16), laid out like Shopify's: items with their status badges, how much of each
 * line was sent ("2 of 3 sent") and the moves allowed now, fulfilments with carrier and tracking,
 * returns, the customer and shipping address, note and tags, totals and the timeline (who did what).
 * Actions: fulfil chosen quantities with carrier and tracking, change a fulfilment's tracking, edit
 * the note and tags, edit the shipping address, return items on the customer's behalf (quantities, a
 * reason, a note), cancel with a reason (disabled with the reason why when the order cannot be
 * cancelled), move items along the item-status machine, print the packing list. Each action goes
 * through the same zod body and service as the /api/orders/admin endpoints; a refusal (409…) comes
 * back as a banner and the dialog keeps its input.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Badge, BlockStack, Button, Checkbox, Divider, InlineStack, Layout, Page, Select, Tag, Text, TextField } from "@shopify/polaris";
import { useCallback, useEffect, useState } from "react";
import { adminOrdersEndpoints, ADMIN_CANCEL_REASONS } from "~/contract/admin-orders";
import { RETURN_REASONS, RETURN_REASON_LABELS } from "~/contract/account-orders";
import { getAppContext } from "~/context.server";
import type { ActionResult } from "~/lib/admin-list";
import { answerRefusals, invalidInput, orNotFound } from "~/lib/admin-route.server";
import { requireAdmin } from "~/lib/staff-auth.server";
import { staffError } from "~/lib/staff-errors";
import { formOf } from "~/lib/body-limit.server";
import {
  cancelAdminOrder,
  createAdminFulfillment,
  getAdminOrder,
  initiateAdminReturn,
  ORDER_NOT_FOUND,
  setAdminItemStatus,
  updateAdminOrder,
  updateAdminTracking,
} from "~/services/orders/admin-orders.server";
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
/** A whole number typed in a field; anything else is passed on for the contract to refuse. */
const count = (v: FormDataEntryValue | null) => (typeof v === "string" && v.trim() !== "" ? Number(v) : undefined);
const ADDRESS_FIELDS = ["first_name", "last_name", "company", "address1", "address2", "city", "province", "zip", "country_code", "phone"] as const;

export const action = async ({ request, params }: ActionFunctionArgs): Promise<ActionResult> => {
  const { user } = await requireAdmin(request, "orders.manage");
  const ctx = getAppContext();
  const id = params.id ?? "";
  const form = await formOf(request);
  return answerRefusals<ActionResult>(async () => {
    switch (form.get("intent")) {
      case "fulfil": {
        const ids = fields(form, "itemIds");
        // An item without a quantity sends what is left of its line.
        const left = ids.some((i) => count(form.get(`qty:${i}`)) === undefined) ? await getAdminOrder(ctx.db, id) : null;
        const parsed = adminOrdersEndpoints.ordersAdminFulfill.body.safeParse({
          items: ids.map((itemId) => ({ itemId, quantity: count(form.get(`qty:${itemId}`)) ?? left?.items.find((i) => i.id === itemId)?.fulfillable_quantity ?? 1 })),
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
      case "tracking": {
        const parsed = adminOrdersEndpoints.ordersAdminTracking.body.safeParse({
          fulfillmentId: text(form, "fulfillmentId"),
          itemIds: text(form, "fulfillmentId") ? undefined : fields(form, "itemIds"),
          trackingNumber: text(form, "trackingNumber") ?? "",
          trackingCompany: text(form, "trackingCompany") ?? "",
          trackingUrl: text(form, "trackingUrl"),
        });
        if (!parsed.success) return invalidInput(parsed.error);
        await updateAdminTracking(ctx, user, id, parsed.data);
        return { ok: true, message: `Tracking saved: ${parsed.data.trackingCompany} ${parsed.data.trackingNumber}.` };
      }
      case "note-tags": {
        const tags = (text(form, "tags") ?? "")
          .split(",")
          .map((t) => t.trim())
          .filter(Boolean);
        const parsed = adminOrdersEndpoints.ordersAdminUpdate.body.safeParse({ note: text(form, "note") ?? null, tags });
        if (!parsed.success) return invalidInput(parsed.error);
        await updateAdminOrder(ctx, user, id, parsed.data);
        return { ok: true, message: "Note and tags saved." };
      }
      case "address": {
        // Every field is sent: an emptied field clears that line of the address.
        const parsed = adminOrdersEndpoints.ordersAdminUpdate.body.safeParse({ shipping_address: Object.fromEntries(ADDRESS_FIELDS.map((k) => [k, text(form, k) ?? null])) });
        if (!parsed.success) return invalidInput(parsed.error);
        await updateAdminOrder(ctx, user, id, parsed.data);
        return { ok: true, message: "Shipping address saved." };
      }
      case "return": {
        const ids = fields(form, "itemIds");
        const parsed = adminOrdersEndpoints.ordersAdminInitiateReturn.body.safeParse({
          itemIds: ids,
          reason: text(form, "reason"),
          note: text(form, "note"),
          quantities: ids.flatMap((itemId) => {
            const q = count(form.get(`qty:${itemId}`));
            return q === undefined ? [] : [{ itemId, quantity: q }];
          }),
        });
        if (!parsed.success) return invalidInput(parsed.error);
        await initiateAdminReturn(ctx, user, id, parsed.data);
        return { ok: true, message: `Return requested for ${ids.length} ${ids.length === 1 ? "item" : "items"} on the customer's behalf.` };
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
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [dismissed, setDismissed] = useState<unknown>(null);
  const result = fetcher.data && fetcher.data !== dismissed ? fetcher.data : null;
  const close = useCallback(() => setDialog(null), []);
  const live = order.status !== "cancelled";
  const fulfillable = order.items.filter((i) => i.fulfillable_quantity > 0);
  const returnable = returnableItems(order);
  // A dialog stays open on a refusal (its input kept) and closes once the action succeeded.
  const dialogError = result && !result.ok ? result.error : null;
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) setDialog(null);
  }, [fetcher.state, fetcher.data]);
  const send = (intent: string) => (d: Record<string, string | string[]>) => submit({ intent, ...d });

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
      primaryAction={{ content: "Fulfil items", disabled: fulfillable.length === 0 || !live, onAction: () => setDialog({ kind: "fulfil" }) }}
      secondaryActions={[
        { content: "Return items", disabled: returnable.length === 0, onAction: () => setDialog({ kind: "return" }) },
        { content: "Print packing list", url: `/app/orders/packing-list?ids=${encodeURIComponent(order.id)}&format=html`, target: "_blank" },
        {
          content: "Cancel order",
          destructive: true,
          disabled: !order.can_cancel,
          helpText: order.can_cancel ? undefined : (order.cancel_block_reason ?? undefined),
          onAction: () => setDialog({ kind: "cancel" }),
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
                      <InlineStack align="space-between" blockAlign="start" gap="200" wrap={false}>
                        <BlockStack gap="050">
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
                            {f.lines.map((l) => `${l.quantity} × ${order.items.find((x) => x.id === l.item_id)?.title ?? l.item_id}`).join(", ")}
                          </Text>
                        </BlockStack>
                        {live ? (
                          <Button onClick={() => setDialog({ kind: "tracking", fulfilment: f })} accessibilityLabel={`Edit the tracking of the parcel ${f.tracking_number ?? i + 1}`}>
                            {f.tracking_number ? "Edit tracking" : "Add tracking"}
                          </Button>
                        ) : null}
                      </InlineStack>
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
                    <div key={r.id} data-testid="order-return">
                      <Text as="p">
                        Return ({humanStatus(r.reason)}): <Badge>{humanStatus(r.status)}</Badge>
                        {r.tracking_number ? ` · tracking ${r.tracking_number}` : ""}
                        {r.refund ? ` · refund ${money(r.refund)}` : ""}
                      </Text>
                      <Text as="p" tone="subdued" variant="bodySm">
                        {r.lines
                          .map((l) => {
                            const item = order.items.find((x) => x.id === l.item_id);
                            return `${item && l.quantity < item.quantity ? `${l.quantity} of ${item.quantity}` : l.quantity} × ${item?.title ?? l.item_id}`;
                          })
                          .join(", ")}
                      </Text>
                    </div>
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
            <SectionCard title="Notes and tags">
              <InlineStack align="end">
                <Button variant="plain" onClick={() => setDialog({ kind: "note-tags" })} accessibilityLabel="Edit the note and tags">
                  Edit
                </Button>
              </InlineStack>
              <div data-testid="order-note">
                <Text as="p" tone={order.note ? undefined : "subdued"}>
                  {order.note ?? "No note"}
                </Text>
              </div>
              {order.tags.length ? (
                <InlineStack gap="100">
                  {order.tags.map((t) => (
                    <Tag key={t}>{t}</Tag>
                  ))}
                </InlineStack>
              ) : (
                <Text as="p" tone="subdued">
                  No tags
                </Text>
              )}
            </SectionCard>
            <SectionCard title="Customer">
              <Text as="p">{order.customer.name ?? "No name"}</Text>
              <Text as="p" tone="subdued">
                {order.customer.email ?? "No email"}
              </Text>
              <Divider />
              <InlineStack align="space-between" blockAlign="center">
                <Text as="h3" variant="headingSm">
                  Shipping address
                </Text>
                <Button variant="plain" onClick={() => setDialog({ kind: "address" })} accessibilityLabel="Edit the shipping address">
                  Edit
                </Button>
              </InlineStack>
              <div data-testid="order-address">
                {order.shipping_address ? (
                  addressLines(order.shipping_address).map((l) => (
                    <Text as="p" key={l}>
                      {l}
                    </Text>
                  ))
                ) : (
                  <Text as="p" tone="subdued">
                    No shipping address
                  </Text>
                )}
              </div>
            </SectionCard>
            <SectionCard title="Payment">
              <Totals order={order} />
            </SectionCard>
          </BlockStack>
        </Layout.Section>
      </Layout>
      {dialog?.kind === "fulfil" ? <FulfilModal items={fulfillable} loading={busyWith("fulfil")} error={dialogError} onClose={close} onSubmit={send("fulfil")} /> : null}
      {dialog?.kind === "cancel" ? <CancelModal name={order.name} loading={busyWith("cancel")} error={dialogError} onClose={close} onSubmit={send("cancel")} /> : null}
      {dialog?.kind === "tracking" ? <TrackingModal fulfilment={dialog.fulfilment} loading={busyWith("tracking")} error={dialogError} onClose={close} onSubmit={send("tracking")} /> : null}
      {dialog?.kind === "note-tags" ? <NoteTagsModal order={order} loading={busyWith("note-tags")} error={dialogError} onClose={close} onSubmit={send("note-tags")} /> : null}
      {dialog?.kind === "address" ? <AddressModal order={order} loading={busyWith("address")} error={dialogError} onClose={close} onSubmit={send("address")} /> : null}
      {dialog?.kind === "return" ? <ReturnModal items={returnable} loading={busyWith("return")} error={dialogError} onClose={close} onSubmit={send("return")} /> : null}
    </Page>
  );
}

type Fulfilment = Order["fulfillments"][number];
type Dialog = { kind: "fulfil" | "cancel" | "note-tags" | "address" | "return" } | { kind: "tracking"; fulfilment: Fulfilment };
type Submit = (d: Record<string, string | string[]>) => void;
type ModalProps = { loading: boolean; error: string | null; onClose: () => void; onSubmit: Submit };

/**
 * Items whose sent units can come back: sent, and held by no live return (the service checks again
 * under the order's lock and answers the reason when it refuses).
 */
function returnableItems(order: Order): Item[] {
  if (order.status === "cancelled") return [];
  const held = new Set([
    ...order.return_requests.filter((r) => r.status === "REQUESTED" || r.status === "OPEN" || r.status === "CLOSED").flatMap((r) => r.item_ids),
    ...order.returns.filter((r) => r.status !== "CANCELED").flatMap((r) => r.item_ids),
  ]);
  return order.items.filter((i) => ["fulfilled", "shipped", "delivered"].includes(i.status) && i.fulfilled_quantity > 0 && !held.has(i.id));
}

function ItemRow({ item, busy, onMove }: { item: Item; busy: boolean; onMove: (status: string) => void }) {
  const [next, setNext] = useState<string>(item.next_statuses[0] ?? "");
  const partly = item.fulfilled_quantity > 0 && item.fulfillable_quantity > 0;
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
          {partly ? (
            <Text as="p" variant="bodySm" tone="caution">
              <span data-testid="order-item-sent">
                {item.fulfilled_quantity} of {item.quantity} sent · {item.fulfillable_quantity} to fulfil
              </span>
            </Text>
          ) : null}
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

/** A quantity field per chosen item, from 1 to `max` (typed text: the contract refuses the rest). */
function QuantityField({ label, value, max, onChange }: { label: string; value: string; max: number; onChange: (v: string) => void }) {
  return <TextField label={label} type="number" min={1} max={max} autoComplete="off" value={value} onChange={onChange} helpText={`At most ${max}`} />;
}

function FulfilModal({ items, loading, error, onClose, onSubmit }: ModalProps & { items: Item[] }) {
  const [chosen, setChosen] = useState<string[]>(items.map((i) => i.id));
  const [qty, setQty] = useState<Record<string, string>>(Object.fromEntries(items.map((i) => [i.id, String(i.fulfillable_quantity)])));
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
      onConfirm={() => onSubmit({ itemIds: chosen, ...Object.fromEntries(chosen.map((id) => [`qty:${id}`, qty[id] ?? ""])), trackingCompany: company, trackingNumber: number, trackingUrl: url, notifyCustomer: String(notify) })}
    >
      <BlockStack gap="200">
        {items.map((i) => (
          <InlineStack key={i.id} gap="300" blockAlign="center" wrap={false}>
            <Checkbox
              label={`${i.title}${i.variant_title ? ` (${i.variant_title})` : ""}${i.fulfilled_quantity ? ` · ${i.fulfilled_quantity} of ${i.quantity} sent` : ` × ${i.quantity}`}`}
              checked={chosen.includes(i.id)}
              onChange={(on) => setChosen((c) => (on ? [...c, i.id] : c.filter((x) => x !== i.id)))}
            />
            {chosen.includes(i.id) && i.fulfillable_quantity > 1 ? (
              <QuantityField label={`Quantity of ${i.title}`} value={qty[i.id] ?? ""} max={i.fulfillable_quantity} onChange={(v) => setQty((q) => ({ ...q, [i.id]: v }))} />
            ) : null}
          </InlineStack>
        ))}
      </BlockStack>
      <TextField label="Carrier" autoComplete="off" value={company} onChange={setCompany} placeholder="UPS, DHL, USPS…" />
      <TextField label="Tracking number" autoComplete="off" value={number} onChange={setNumber} helpText="With a tracking number the items are shipped; without, fulfilled." />
      <TextField label="Tracking URL" autoComplete="off" value={url} onChange={setUrl} helpText="Optional: known carriers get a link of their own." />
      <Checkbox label="Send the customer a shipping email" checked={notify} onChange={setNotify} />
    </ConfirmModal>
  );
}

function TrackingModal({ fulfilment, loading, error, onClose, onSubmit }: ModalProps & { fulfilment: Fulfilment }) {
  const [company, setCompany] = useState(fulfilment.tracking_company ?? "");
  const [number, setNumber] = useState(fulfilment.tracking_number ?? "");
  const [url, setUrl] = useState(fulfilment.tracking_url ?? "");
  return (
    <ConfirmModal
      title={fulfilment.tracking_number ? "Edit tracking" : "Add tracking"}
      confirmLabel="Save tracking"
      destructive={false}
      loading={loading}
      error={error}
      errorTestId="tracking-error"
      onClose={onClose}
      // Items sent before the app recorded their fulfilment have no id: they are named instead.
      onConfirm={() => onSubmit({ ...(fulfilment.id ? { fulfillmentId: fulfilment.id } : { itemIds: fulfilment.item_ids }), trackingCompany: company, trackingNumber: number, trackingUrl: url })}
    >
      <TextField label="Tracking number" autoComplete="off" value={number} onChange={setNumber} />
      <TextField label="Carrier" autoComplete="off" value={company} onChange={setCompany} placeholder="UPS, DHL, USPS…" />
      <TextField label="Tracking URL" autoComplete="off" value={url} onChange={setUrl} helpText="Optional: known carriers get a link of their own." />
    </ConfirmModal>
  );
}

function NoteTagsModal({ order, loading, error, onClose, onSubmit }: ModalProps & { order: Order }) {
  const [note, setNote] = useState(order.note ?? "");
  const [tags, setTags] = useState(order.tags.join(", "));
  return (
    <ConfirmModal title="Edit note and tags" confirmLabel="Save" destructive={false} loading={loading} error={error} errorTestId="note-tags-error" onClose={onClose} onConfirm={() => onSubmit({ note, tags })}>
      <TextField label="Note" autoComplete="off" value={note} onChange={setNote} multiline={3} helpText="Seen by staff (and in Shopify's admin)." />
      <TextField label="Tags" autoComplete="off" value={tags} onChange={setTags} helpText="Separated by commas, e.g. gift, VIP" />
    </ConfirmModal>
  );
}

const ADDRESS_LABELS: Record<(typeof ADDRESS_FIELDS)[number], string> = {
  first_name: "First name",
  last_name: "Last name",
  company: "Company",
  address1: "Address",
  address2: "Apartment, suite, etc.",
  city: "City",
  province: "State / province",
  zip: "Postal code",
  country_code: "Country code",
  phone: "Phone",
};

function AddressModal({ order, loading, error, onClose, onSubmit }: ModalProps & { order: Order }) {
  const a = order.shipping_address;
  const [values, setValues] = useState<Record<string, string>>(Object.fromEntries(ADDRESS_FIELDS.map((k) => [k, a?.[k] ?? ""])));
  return (
    <ConfirmModal title="Edit shipping address" confirmLabel="Save address" destructive={false} loading={loading} error={error} errorTestId="address-error" onClose={onClose} onConfirm={() => onSubmit(values)}>
      {ADDRESS_FIELDS.map((k) => (
        <TextField
          key={k}
          label={ADDRESS_LABELS[k]}
          autoComplete="off"
          value={values[k] ?? ""}
          onChange={(v) => setValues((x) => ({ ...x, [k]: v }))}
          helpText={k === "country_code" ? "Two letters, e.g. US, GB, DE" : undefined}
        />
      ))}
    </ConfirmModal>
  );
}

function ReturnModal({ items, loading, error, onClose, onSubmit }: ModalProps & { items: Item[] }) {
  const [chosen, setChosen] = useState<string[]>([]);
  const [qty, setQty] = useState<Record<string, string>>(Object.fromEntries(items.map((i) => [i.id, String(i.fulfilled_quantity)])));
  const [reason, setReason] = useState<string>("SIZE_TOO_SMALL");
  const [note, setNote] = useState("");
  return (
    <ConfirmModal
      title="Return items"
      confirmLabel="Request return"
      destructive={false}
      loading={loading}
      error={error}
      errorTestId="return-error"
      onClose={onClose}
      onConfirm={() => onSubmit({ itemIds: chosen, ...Object.fromEntries(chosen.map((id) => [`qty:${id}`, qty[id] ?? ""])), reason, note })}
    >
      <Text as="p" tone="subdued">
        On the customer&apos;s behalf: the request shows on their order page, and the return follows the usual steps.
      </Text>
      <BlockStack gap="200">
        {items.map((i) => (
          <InlineStack key={i.id} gap="300" blockAlign="center" wrap={false}>
            <Checkbox
              label={`${i.title}${i.variant_title ? ` (${i.variant_title})` : ""} × ${i.fulfilled_quantity}`}
              checked={chosen.includes(i.id)}
              onChange={(on) => setChosen((c) => (on ? [...c, i.id] : c.filter((x) => x !== i.id)))}
            />
            {chosen.includes(i.id) && i.fulfilled_quantity > 1 ? (
              <QuantityField label={`Quantity of ${i.title} to return`} value={qty[i.id] ?? ""} max={i.fulfilled_quantity} onChange={(v) => setQty((q) => ({ ...q, [i.id]: v }))} />
            ) : null}
          </InlineStack>
        ))}
      </BlockStack>
      <Select label="Reason" options={RETURN_REASONS.map((r) => ({ label: RETURN_REASON_LABELS[r], value: r }))} value={reason} onChange={setReason} />
      <TextField label="Note" autoComplete="off" value={note} onChange={setNote} multiline={2} />
    </ConfirmModal>
  );
}

function CancelModal({ name, loading, error, onClose, onSubmit }: ModalProps & { name: string }) {
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
