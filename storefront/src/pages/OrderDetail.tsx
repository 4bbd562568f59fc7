/**
 * One order (`/account/orders/<id>`): its items with their statuses and tracking links, the totals
 * and the address; cancelling it with a reason while nothing has been sent; requesting a return of
 * chosen items with a reason from the spec's list once they have been sent.
 */
import { useId, useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useParams } from "react-router-dom";
import { ApiClientError } from "~/client";
import { CANCEL_REASONS, CANCEL_REASON_LABELS, RETURN_REASONS, RETURN_REASON_LABELS, type CancelReasonValue, type OrderDetail as Order, type ReturnReasonValue } from "~/contract";
import { errorMessage, useApi } from "../lib/api";
import { useSession } from "../lib/session";
import { formatMoney } from "../lib/products";
import { productPath } from "../lib/product-path";
import { ITEM_STATUS_LABELS, ORDERS_KEY, ORDERS_PATH, RETURNS_KEY, RETURNS_PATH, STAGE_LABELS, formatDate, orderKey, returnStatusLabel, tone } from "../lib/orders";
import { Spinner } from "../components/FeedStatus";
import { Badge, OrdersNav, SignInFor } from "../components/OrdersNav";
import { SessionGate } from "../components/AccountNav";
import { useDocumentTitle } from "../lib/use-document-title";
import "../orders.css";

/** The return form lists the common reasons first; "Prefer not to say" last. */
const REASON_ORDER: ReturnReasonValue[] = [...RETURN_REASONS.filter((r) => r !== "UNKNOWN" && r !== "OTHER"), "OTHER", "UNKNOWN"];

function Items({ order }: { order: Order }) {
  return (
    <ul className="order-items" data-testid="order-items">
      {order.items.map((i) => (
        <li key={i.id} className="order-item" data-testid="order-item" data-item-id={i.id}>
          <div className="order-item__media">{i.image_url ? <img src={i.image_url} alt="" width={72} height={96} loading="lazy" /> : <span className="order-thumb__none" />}</div>
          <div className="order-item__body">
            <p className="order-item__title">
              {i.product_id && i.product_handle ? <Link to={productPath({ id: i.product_id, handle: i.product_handle })}>{i.title}</Link> : i.title}
            </p>
            <p className="order-item__meta">
              {i.variant_title && i.variant_title !== "Default Title" ? `${i.variant_title} · ` : ""}Qty {i.quantity} · {formatMoney(i.price.amount, i.price.currencyCode)}
            </p>
            <p className="order-item__status">
              <Badge tone={tone(i.status)} testId="order-item-status">
                {ITEM_STATUS_LABELS[i.status]}
              </Badge>
              {i.return_request && (
                <Badge tone={tone(i.return_request.status)} testId="order-item-return">
                  {`Return: ${returnStatusLabel({ status: i.return_request.status, return_status: i.return_request.return_status })}`}
                </Badge>
              )}
            </p>
            {i.fulfilled_quantity > 0 && i.fulfilled_quantity < i.quantity && i.status !== "cancelled" && i.status !== "returned" && (
              <p className="order-item__sent" data-testid="order-item-sent">{`${i.fulfilled_quantity} of ${i.quantity} sent · the rest will follow`}</p>
            )}
            {i.tracking && (
              <p className="order-item__tracking" data-testid="order-item-tracking">
                {i.tracking.provider ? `${i.tracking.provider} · ` : ""}
                {i.tracking.tracking_url ? (
                  <a href={i.tracking.tracking_url} target="_blank" rel="noreferrer noopener" data-testid="tracking-link">
                    Track package {i.tracking.tracking_number}
                  </a>
                ) : (
                  <span>Tracking number {i.tracking.tracking_number}</span>
                )}
              </p>
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}

function CancelPanel({ order, onDone }: { order: Order; onDone(o: Order): void }) {
  const api = useApi();
  const uid = useId();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState<CancelReasonValue | "">("");
  const [note, setNote] = useState("");
  const cancel = useMutation({
    mutationFn: () => api.ordersMineCancel({ params: { id: order.id }, body: { reason: reason as CancelReasonValue, ...(note.trim() ? { note: note.trim() } : {}) } }),
    onSuccess: (o) => {
      setOpen(false);
      onDone(o);
    },
  });
  if (!order.can_cancel) return null;
  if (!open) {
    return (
      <div className="order-actions__row">
        <button type="button" className="button button--ghost" onClick={() => setOpen(true)} data-testid="order-cancel-open">
          Cancel order
        </button>
      </div>
    );
  }
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (reason) cancel.mutate();
  };
  return (
    <form className="order-form" onSubmit={submit} aria-labelledby={`${uid}-title`} data-testid="order-cancel-form">
      <h2 id={`${uid}-title`} className="order-form__title">
        Cancel this order
      </h2>
      <p className="order-form__text">Nothing has been sent yet. You will be refunded to your original payment method.</p>
      <label className="field">
        <span className="field__label">Why are you cancelling?</span>
        <select className="field__input" value={reason} required onChange={(e) => setReason(e.target.value as CancelReasonValue)} data-testid="order-cancel-reason">
          <option value="" disabled>
            Choose a reason
          </option>
          {CANCEL_REASONS.map((r) => (
            <option key={r} value={r}>
              {CANCEL_REASON_LABELS[r]}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span className="field__label">Anything to add? (optional)</span>
        <textarea className="field__input field__textarea" value={note} maxLength={500} rows={2} onChange={(e) => setNote(e.target.value)} />
      </label>
      {cancel.isError && (
        <p className="form-error" role="alert" data-testid="order-cancel-error">
          {errorMessage(cancel.error, "The order could not be cancelled. Please try again.")}
        </p>
      )}
      <div className="order-form__actions">
        <button type="submit" className="button button--danger" disabled={!reason || cancel.isPending} data-testid="order-cancel-submit">
          {cancel.isPending ? "Cancelling…" : "Cancel order"}
        </button>
        <button type="button" className="link-button" onClick={() => setOpen(false)} disabled={cancel.isPending}>
          Keep my order
        </button>
      </div>
    </form>
  );
}

function ReturnPanel({ order, onDone }: { order: Order; onDone(): void }) {
  const api = useApi();
  const uid = useId();
  const returnable = order.items.filter((i) => i.returnable);
  const [open, setOpen] = useState(false);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [reason, setReason] = useState<ReturnReasonValue | "">("");
  const [note, setNote] = useState("");
  const request = useMutation({
    mutationFn: () => api.ordersMineInitiateReturn({ params: { id: order.id }, body: { order_item_ids: [...chosen], reason: reason as ReturnReasonValue, ...(note.trim() ? { note: note.trim() } : {}) } }),
    onSuccess: () => {
      setOpen(false);
      setChosen(new Set());
      setReason("");
      setNote("");
      onDone();
    },
  });
  if (!order.can_return && !request.isSuccess) return null;
  if (request.isSuccess && !open) {
    return (
      <p className="notice order-notice" role="status" data-testid="order-return-done">
        Your return request was sent. Follow it in <Link to={RETURNS_PATH}>Returns</Link>.
        {order.can_return && (
          <>
            {" "}
            <button type="button" className="link-button" onClick={() => {
                request.reset();
                setOpen(true);
              }}>
              Return other items
            </button>
          </>
        )}
      </p>
    );
  }
  if (!open) {
    return (
      <div className="order-actions__row">
        <button type="button" className="button button--ghost" onClick={() => setOpen(true)} data-testid="order-return-open">
          Request a return
        </button>
      </div>
    );
  }
  const toggle = (id: string) =>
    setChosen((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (chosen.size && reason) request.mutate();
  };
  return (
    <form className="order-form" onSubmit={submit} aria-labelledby={`${uid}-title`} data-testid="order-return-form">
      <h2 id={`${uid}-title`} className="order-form__title">
        Request a return
      </h2>
      <fieldset className="order-form__items">
        <legend className="field__label">Which items?</legend>
        {returnable.map((i) => (
          <label key={i.id} className="order-form__item">
            <input type="checkbox" checked={chosen.has(i.id)} onChange={() => toggle(i.id)} data-testid="order-return-item" data-item-id={i.id} />
            <span>
              {i.title}
              {i.variant_title && i.variant_title !== "Default Title" ? ` · ${i.variant_title}` : ""} · Qty {i.quantity}
            </span>
          </label>
        ))}
      </fieldset>
      <label className="field">
        <span className="field__label">Reason</span>
        <select className="field__input" value={reason} required onChange={(e) => setReason(e.target.value as ReturnReasonValue)} data-testid="order-return-reason">
          <option value="" disabled>
            Choose a reason
          </option>
          {REASON_ORDER.map((r) => (
            <option key={r} value={r}>
              {RETURN_REASON_LABELS[r]}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span className="field__label">Tell us more (optional)</span>
        <textarea className="field__input field__textarea" value={note} maxLength={1000} rows={2} onChange={(e) => setNote(e.target.value)} data-testid="order-return-note" />
      </label>
      {request.isError && (
        <p className="form-error" role="alert" data-testid="order-return-error">
          {errorMessage(request.error, "The return could not be requested. Please try again.")}
        </p>
      )}
      <div className="order-form__actions">
        <button type="submit" className="button" disabled={!chosen.size || !reason || request.isPending} data-testid="order-return-submit">
          {request.isPending ? "Sending…" : chosen.size > 1 ? `Return ${chosen.size} items` : "Return item"}
        </button>
        <button type="button" className="link-button" onClick={() => setOpen(false)} disabled={request.isPending}>
          Not now
        </button>
      </div>
    </form>
  );
}

export function OrderDetail() {
  const api = useApi();
  const queryClient = useQueryClient();
  const { orderId = "" } = useParams();
  const { user, signedIn } = useSession();
  const [cancelledNow, setCancelledNow] = useState(false);

  const order = useQuery({
    queryKey: orderKey(orderId),
    queryFn: () => api.ordersMineGet({ params: { id: orderId } }),
    enabled: !!orderId && !!user && signedIn,
  });

  useDocumentTitle(order.data ? `Order ${order.data.name}` : "Order");

  const refreshLists = () => {
    void queryClient.invalidateQueries({ queryKey: ORDERS_KEY });
    void queryClient.invalidateQueries({ queryKey: RETURNS_KEY });
  };

  let body;
  if (!signedIn) body = <SignInFor what="this order" />;
  else if (order.error instanceof ApiClientError && order.error.status === 404) {
    body = (
      <div className="state" data-testid="order-not-found">
        <h2 className="state__title">Order not found</h2>
        <p className="state__text">This order is not one of yours, or it does not exist.</p>
        <Link className="button" to={ORDERS_PATH}>
          Your orders
        </Link>
      </div>
    );
  } else if (order.isPending) body = <Spinner label="Loading the order…" />;
  else if (order.isError) {
    body = (
      <div className="state state--error" role="alert">
        <h2 className="state__title">This order could not be loaded</h2>
        <p className="state__text">{errorMessage(order.error)}</p>
        <button type="button" className="button" onClick={() => void order.refetch()}>
          Retry
        </button>
      </div>
    );
  } else {
    const o = order.data;
    body = (
      <article className="order-detail" data-testid="order-detail" data-order-id={o.id}>
        <header className="order-detail__head">
          <div>
            <h1 className="page__title">Order {o.name}</h1>
            <p className="order-card__meta">Placed on {formatDate(o.created_at)}</p>
          </div>
          <Badge tone={tone(o.stage)} testId="order-detail-stage">
            {STAGE_LABELS[o.stage]}
          </Badge>
        </header>
        {cancelledNow && (
          <p className="notice order-notice" role="status" data-testid="order-cancelled-notice">
            Your order was cancelled. The refund goes back to your original payment method.
          </p>
        )}
        {o.status === "cancelled" && !cancelledNow && o.cancelled_at && (
          <p className="order-detail__note" data-testid="order-cancelled">
            Cancelled on {formatDate(o.cancelled_at)}
            {o.cancel_reason === "customer" ? " at your request" : ""}.
          </p>
        )}
        <Items order={o} />
        <div className="order-actions">
          <CancelPanel
            order={o}
            onDone={(updated) => {
              queryClient.setQueryData(orderKey(orderId), updated);
              setCancelledNow(true);
              refreshLists();
            }}
          />
          <ReturnPanel
            order={o}
            onDone={() => {
              void queryClient.invalidateQueries({ queryKey: orderKey(orderId) });
              refreshLists();
            }}
          />
          {!o.can_cancel && o.status === "open" && o.cancel_block_reason && (
            <p className="order-detail__note" data-testid="order-cancel-blocked">
              {o.cancel_block_reason}
            </p>
          )}
        </div>
        <dl className="order-totals">
          {o.subtotal && (
            <>
              <dt>Subtotal</dt>
              <dd>{formatMoney(o.subtotal.amount, o.subtotal.currencyCode)}</dd>
            </>
          )}
          {o.shipping && (
            <>
              <dt>Shipping</dt>
              <dd>{Number(o.shipping.amount) === 0 ? "Free" : formatMoney(o.shipping.amount, o.shipping.currencyCode)}</dd>
            </>
          )}
          {o.tax && (
            <>
              <dt>Tax</dt>
              <dd>{formatMoney(o.tax.amount, o.tax.currencyCode)}</dd>
            </>
          )}
          <dt className="order-totals__total">Total</dt>
          <dd className="order-totals__total">{formatMoney(o.total.amount, o.total.currencyCode)}</dd>
        </dl>
        {o.shipping_address && (
          <section className="order-address" aria-label="Shipping address">
            <h2 className="order-form__title">Shipping to</h2>
            <p>
              {[o.shipping_address.name, o.shipping_address.address1, [o.shipping_address.zip, o.shipping_address.city].filter(Boolean).join(" "), o.shipping_address.country].filter(Boolean).join(", ")}
            </p>
          </section>
        )}
      </article>
    );
  }

  return (
    <section className="page orders-page" data-testid="order-page">
      <OrdersNav />
      <p className="crumbs">
        <Link to={ORDERS_PATH}>← All orders</Link>
      </p>
      <SessionGate>{body}</SessionGate>
    </section>
  );
}
