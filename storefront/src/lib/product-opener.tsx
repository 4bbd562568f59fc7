/**
 * Opening a product from a card. Pages that show the product modal (home feed, search) provide an
 * opener: a plain click opens the modal in place (`?product=<id>`, so it has an address and Back
 * closes it); without an opener, or with a modifier key, the card's link opens the product page.
 */
import { createContext, useCallback, useContext, useMemo, type ReactNode } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import type { ProductCard } from "~/contract";
import { readModalProduct, withModalProduct } from "./product-path";

export type ProductOpener = (product: ProductCard) => void;

const OpenerContext = createContext<ProductOpener | null>(null);

export function useProductOpener(): ProductOpener | null {
  return useContext(OpenerContext);
}

/** Navigation state of an address that opened the modal: closing goes back to the page under it. */
export interface ModalNavState {
  modalOpenedFrom?: string;
}

/** Provides the modal opener for the cards inside, and the open/close helpers for the page. */
export function useProductModalRoute() {
  const location = useLocation();
  const navigate = useNavigate();
  const productId = readModalProduct(location.search);

  const open = useCallback<ProductOpener>(
    (product) => {
      const search = withModalProduct(location.search, product.id, product.matchedVariant?.id);
      const state = location.state as ModalNavState | null;
      if (productId) {
        // Another product from inside the modal: replace, so closing still returns to the page.
        navigate({ pathname: location.pathname, search }, { replace: true, state });
      } else {
        navigate({ pathname: location.pathname, search }, { state: { modalOpenedFrom: location.key } satisfies ModalNavState });
      }
    },
    [location, navigate, productId],
  );

  const close = useCallback(() => {
    const state = location.state as ModalNavState | null;
    if (state?.modalOpenedFrom) navigate(-1);
    else navigate({ pathname: location.pathname, search: withModalProduct(location.search, null) }, { replace: true });
  }, [location, navigate]);

  return { productId, open, close };
}

export function ProductOpenerProvider({ opener, children }: { opener: ProductOpener; children: ReactNode }) {
  const value = useMemo(() => opener, [opener]);
  return <OpenerContext.Provider value={value}>{children}</OpenerContext.Provider>;
}
