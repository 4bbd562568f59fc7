/**
 * The cart page (`/cart`): the same lines, codes and summary as the drawer, on a page of its own.
 * Opening it re-reads the cart against stock and prices (refresh-cart, SPEC §7): sold-out lines
 * are removed, lines above the stock left are reduced, changed prices are flagged — and the page
 * says what changed.
 */
import { useEffect, useRef, useState } from "react";
import type { z } from "zod";
import type { CartChangeSchema } from "~/contract/cart";
import { errorMessage, useApi } from "../lib/api";
import { useCart } from "../lib/cart";
import { useSession } from "../lib/session";
import { useDocumentTitle } from "../lib/use-document-title";
import { CartContents } from "../components/CartContents";
import "../cart.css";

type CartChange = z.infer<typeof CartChangeSchema>;

export function Cart() {
  useDocumentTitle("Cart");
  const api = useApi();
  const { user } = useSession();
  const { receive, closeDrawer, count } = useCart();
  const [changes, setChanges] = useState<CartChange[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const refreshedFor = useRef<string | null>(null);

  useEffect(() => closeDrawer(), [closeDrawer]);

  // Once per user (the guest's cart, then the account's after sign-in).
  useEffect(() => {
    if (!user || refreshedFor.current === user.id) return;
    refreshedFor.current = user.id;
    let live = true;
    api.usersRefreshCart().then(
      (r) => {
        if (!live) return;
        receive(r.cart);
        setChanges(r.changes);
      },
      (e) => live && setProblem(errorMessage(e, "Your cart could not be checked against the stock just now.")),
    );
    return () => {
      live = false;
    };
  }, [api, user, receive]);

  return (
    <section className="page cart-page" aria-labelledby="cart-heading" data-testid="cart-page">
      <div className="page__head">
        <h1 id="cart-heading" className="page__title">
          Cart
        </h1>
        {count > 0 && <span className="page__count">{count}</span>}
      </div>
      {changes.length > 0 && (
        <ul className="cart-changes" role="status" data-testid="cart-changes">
          {changes.map((c) => (
            <li key={`${c.lineId}-${c.code}`} data-code={c.code} data-action={c.action}>
              {c.message}
            </li>
          ))}
        </ul>
      )}
      {problem && (
        <p className="cart-alert" role="status">
          {problem}
        </p>
      )}
      <div className="cart-page__body">
        <CartContents showWarnings={false} />
      </div>
    </section>
  );
}
