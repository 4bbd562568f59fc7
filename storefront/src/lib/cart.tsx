/**
 * The shopper's cart in React (issue 15): the server's cart in the query cache, the changes in
 * flight applied on top (cart-state.ts, pure and tested), the drawer's open state, and the actions
 * the pages use. Mounted once in the Layout, so the header count, the drawer, the /cart page and
 * every add-to-cart button share one cart.
 *
 * The query key starts with "user" and carries the user id: signing in or out drops it and loads
 * the new user's cart (the server has merged the guest's cart into the account's at sign-in).
 */
import { createContext, useCallback, useContext, useMemo, useReducer, useRef, useState, type ReactNode } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { Cart } from "~/contract/cart";
import { errorMessage, useApi } from "./api";
import { USER_QUERY_PREFIX, useSession } from "./session";
import { EMPTY_CART, initialPending, pendingReducer, viewCart, type CartOp, type NewCartOp } from "./cart-state";

export const cartKey = (userId: string | null | undefined) => [USER_QUERY_PREFIX, "cart", userId ?? null] as const;

export interface CartValue {
  /** The cart as the shopper should see it (pending changes applied). */
  cart: Cart;
  /** Items in the cart, pending adds included: the header count. */
  count: number;
  status: "loading" | "ready" | "error";
  /** A change in flight (quantity, removal, add, discount codes). */
  busy: boolean;
  /** The last refused change's message (the view has rolled back), until dismissed. */
  error: string | null;
  dismissError(): void;
  /** Adds a variant; resolves with the server's cart (its warnings say what changed) and opens the drawer. Rejects with a shopper-fit message. */
  add(variantId: string, quantity?: number): Promise<Cart>;
  update(lineId: string, quantity: number): Promise<void>;
  remove(lineId: string): Promise<void>;
  applyCodes(codes: string[]): Promise<void>;
  /** Loads the cart again (after an error). */
  refresh(): void;
  /** Stores a cart the server answered elsewhere (refresh-cart). */
  receive(cart: Cart): void;
  drawerOpen: boolean;
  openDrawer(): void;
  closeDrawer(): void;
}

const CartContext = createContext<CartValue | null>(null);

export class CartActionError extends Error {}

export function CartProvider({ children }: { children: ReactNode }) {
  const api = useApi();
  const qc = useQueryClient();
  const { user } = useSession();
  const key = useMemo(() => cartKey(user?.id), [user?.id]);
  const [pending, dispatch] = useReducer(pendingReducer, initialPending);
  const [error, setError] = useState<string | null>(null);
  const [codesBusy, setCodesBusy] = useState(false);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const opCounter = useRef(0);

  const query = useQuery({ queryKey: key, queryFn: () => api.cartGet(), enabled: !!user, staleTime: 30_000 });

  /** Runs one optimistic change: shown at once, the server's cart on success, rolled back on error. */
  const run = useCallback(
    async (op: NewCartOp, call: () => Promise<Cart>, fallback: string): Promise<Cart> => {
      const id = ++opCounter.current;
      dispatch({ type: "begin", op: { ...op, id } as CartOp });
      setError(null);
      try {
        const cart = await call();
        qc.setQueryData(key, cart);
        return cart;
      } catch (e) {
        const message = errorMessage(e, fallback);
        setError(message);
        throw new CartActionError(message);
      } finally {
        dispatch({ type: "settled", id });
      }
    },
    [qc, key],
  );

  // Stable, so pages can use them in effects.
  const receive = useCallback((next: Cart) => qc.setQueryData(key, next), [qc, key]);
  const openDrawer = useCallback(() => setDrawerOpen(true), []);
  const closeDrawer = useCallback(() => setDrawerOpen(false), []);
  const dismissError = useCallback(() => setError(null), []);

  const value = useMemo<CartValue>(() => {
    const cart = viewCart(query.data, pending.ops);
    return {
      cart,
      count: cart.totalQuantity,
      status: query.isError && !query.data ? "error" : query.data ? "ready" : "loading",
      busy: pending.ops.length > 0 || codesBusy,
      error,
      dismissError,
      add: async (variantId, quantity = 1) => {
        const next = await run({ kind: "add", variantId, quantity }, () => api.cartLinesAdd({ body: { merchandiseId: variantId, quantity } }), "Could not add this to your cart.");
        setDrawerOpen(true);
        return next;
      },
      update: async (lineId, quantity) => {
        await run({ kind: "update", lineId, quantity }, () => api.cartLinesUpdate({ params: { lineId }, body: { quantity } }), "Could not change the quantity.").catch(ignore);
      },
      remove: async (lineId) => {
        await run({ kind: "remove", lineId }, () => api.cartLinesRemove({ params: { lineId } }), "Could not remove this item.").catch(ignore);
      },
      applyCodes: async (codes) => {
        setCodesBusy(true);
        setError(null);
        try {
          qc.setQueryData(key, await api.cartDiscountCodesUpdate({ body: { codes } }));
        } catch (e) {
          setError(errorMessage(e, "Could not apply the discount code."));
        } finally {
          setCodesBusy(false);
        }
      },
      refresh: () => void query.refetch(),
      receive,
      drawerOpen,
      openDrawer,
      closeDrawer,
    };
  }, [query.data, query.isError, query.refetch, pending.ops, codesBusy, error, run, api, qc, key, drawerOpen, receive, openDrawer, closeDrawer, dismissError]);

  return <CartContext.Provider value={value}>{children}</CartContext.Provider>;
}

// Quantity changes and removals report through `error` (shown by the cart views), not by throwing.
const ignore = () => undefined;

export function useCart(): CartValue {
  const v = useContext(CartContext);
  if (!v) throw new Error("useCart must be used inside <CartProvider>");
  return v;
}

export { EMPTY_CART };
