/**
 * A quick add to cart where no variant picker is shown (saved products, the assistant's product
 * cards, a try-on result): a product with one variant goes straight into the cart; one with
 * several asks the shopper to choose ("Choose options" opens the product modal where the page has
 * one, else the product page). The product's details are read when the button is pressed (and
 * reused from the cache when the product was opened before, so the label is right at once).
 */
import { useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router-dom";
import type { ProductCard as ProductCardData, ProductDetail } from "~/contract";
import { errorMessage, useApi } from "../lib/api";
import { CartActionError, useCart } from "../lib/cart";
import { productPath } from "../lib/product-path";
import { visibleOptions } from "../lib/variants";
import { ProductCard } from "./ProductCard";
import "../cart.css";

/** The one variant a quick add may take, "choose" when the shopper must pick, or "sold-out". */
export function quickAddTarget(product: Pick<ProductDetail, "options" | "variants">): { kind: "add"; variantId: string } | { kind: "choose" } | { kind: "sold-out" } {
  const forSale = product.variants.filter((v) => v.availableForSale);
  if (forSale.length === 0) return { kind: "sold-out" };
  if (product.variants.length === 1 || visibleOptions(product).length === 0) return { kind: "add", variantId: forSale[0].id };
  return { kind: "choose" };
}

export function AddToCartQuick({
  product,
  label = "Add to cart",
  onChooseOptions,
  className = "button button--small",
  testId = "quick-add",
}: {
  product: { id: string; handle?: string | null; title: string };
  label?: string;
  /** Where "Choose options" goes; the product page when not given. */
  onChooseOptions?(): void;
  className?: string;
  testId?: string;
}) {
  const api = useApi();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const { add } = useCart();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const key = ["product", product.id] as const;
  // Only what the cache has: the details are fetched on press, not for every card on the page.
  const cached = useQuery({ queryKey: key, queryFn: () => api.productsGetById({ params: { id: product.id } }), enabled: false });
  const known = cached.data ? quickAddTarget(cached.data) : null;

  const choose = () => (onChooseOptions ? onChooseOptions() : navigate(productPath(product)));

  const press = async () => {
    setBusy(true);
    setError(null);
    try {
      const detail = await qc.fetchQuery({ queryKey: key, queryFn: () => api.productsGetById({ params: { id: product.id } }), staleTime: 60_000 });
      const target = quickAddTarget(detail);
      if (target.kind === "choose") choose();
      else if (target.kind === "sold-out") setError("Sold out");
      else await add(target.variantId, 1);
    } catch (e) {
      setError(e instanceof CartActionError ? e.message : errorMessage(e, "Could not add this to your cart."));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="quick-add" data-testid={testId}>
      <button
        type="button"
        className={className}
        disabled={busy || known?.kind === "sold-out"}
        aria-busy={busy || undefined}
        onClick={() => void press()}
        aria-label={known?.kind === "choose" ? `Choose options of ${product.title}` : `${label}: ${product.title}`}
        data-testid={`${testId}-button`}
      >
        {busy ? "Adding…" : known?.kind === "choose" ? "Choose options" : known?.kind === "sold-out" ? "Sold out" : label}
      </button>
      {error && (
        <p className="form-error quick-add__error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** A product card with a quick add under it (saved products, the assistant's cards). */
export function ProductCardWithQuickAdd({ product, onChooseOptions }: { product: ProductCardData; onChooseOptions?(product: ProductCardData): void }) {
  return (
    <div className="card-with-add" data-testid="card-with-add">
      <ProductCard product={product} />
      {product.availableForSale && <AddToCartQuick product={product} onChooseOptions={onChooseOptions ? () => onChooseOptions(product) : undefined} />}
    </div>
  );
}

/**
 * On a page that shows the product's own picker (the try-on panel under the product details):
 * "Choose options" brings the shopper to its first option rather than leaving the page.
 */
export function focusOptionPicker(productId: string): void {
  const details = Array.from(document.querySelectorAll<HTMLElement>('[data-testid="product-details"]')).find((el) => el.dataset.productId === productId);
  const target = details?.querySelector<HTMLElement>(".pd__option button") ?? details?.querySelector<HTMLElement>('[data-testid="add-to-cart-button"]');
  target?.scrollIntoView({ block: "center", behavior: "smooth" });
  target?.focus({ preventScroll: true });
}
