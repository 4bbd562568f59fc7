/**
 * Add to cart on the product page and in the product modal (issue 15): the selected variant and a
 * quantity. The button names what is missing ("Select a size") until the options name a variant,
 * says "Sold out" for a sold-out variant (the back-in-stock button stays beside it), shows its
 * busy state, and a refused add's message; a successful add opens the cart drawer.
 */
import { useId, useState } from "react";
import type { ProductDetail } from "~/contract";
import { CART_MAX_LINE_QUANTITY } from "~/contract/cart";
import { CartActionError, useCart } from "../lib/cart";
import { clampQuantity } from "../lib/cart-state";
import { visibleOptions, type Selection, type Variant } from "../lib/variants";
import "../cart.css";

/** What the button says and whether it can add: pure, so the rules read in one place. */
export function addToCartState(
  product: Pick<ProductDetail, "options" | "variants">,
  selection: Selection,
  variant: Variant | null,
): { label: string; enabled: boolean } {
  if (variant) return variant.availableForSale ? { label: "Add to cart", enabled: true } : { label: "Sold out", enabled: false };
  if (product.variants.length === 0 || !product.variants.some((v) => v.availableForSale)) return { label: "Sold out", enabled: false };
  const missing = visibleOptions(product).find((o) => !selection[o.name]);
  if (missing) return { label: `Select a ${missing.name.toLowerCase()}`, enabled: false };
  return { label: "Unavailable", enabled: false };
}

export function AddToCart({ product, selection, variant }: { product: ProductDetail; selection: Selection; variant: Variant | null }) {
  const { add } = useCart();
  const [quantity, setQuantity] = useState(1);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const uid = useId();
  const state = addToCartState(product, selection, variant);
  // Never more than the stock the page knows of (the server checks again and may reduce).
  const max = variant && variant.quantityAvailable > 0 ? Math.min(CART_MAX_LINE_QUANTITY, variant.quantityAvailable) : CART_MAX_LINE_QUANTITY;

  const submit = async () => {
    if (!variant || !state.enabled || busy) return;
    setBusy(true);
    setError(null);
    try {
      await add(variant.id, clampQuantity(quantity, max));
      setQuantity(1);
    } catch (e) {
      setError(e instanceof CartActionError ? e.message : "Could not add this to your cart.");
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="atc" data-testid="add-to-cart">
      <div className="atc__row">
        <label className="visually-hidden" htmlFor={`${uid}-qty`}>
          Quantity
        </label>
        <input
          id={`${uid}-qty`}
          className="field__input atc__qty"
          type="number"
          inputMode="numeric"
          min={1}
          max={max}
          value={quantity}
          disabled={!state.enabled || busy}
          onChange={(e) => setQuantity(clampQuantity(Number(e.target.value), max))}
          data-testid="add-to-cart-quantity"
        />
        <button
          type="button"
          className="button atc__button"
          disabled={!state.enabled || busy}
          aria-busy={busy || undefined}
          onClick={() => void submit()}
          data-testid="add-to-cart-button"
        >
          {busy ? "Adding…" : state.label}
        </button>
      </div>
      {error && (
        <p className="form-error" role="alert" data-testid="add-to-cart-error">
          {error}
        </p>
      )}
    </div>
  );
}
