/**
 * The product modal (home feed and search): the product and its recommendations in batches of 20,
 * without leaving the page. It has an address (`?product=<id>`), Escape and the close button
 * close it, focus stays inside while it is open and returns to where it was afterwards, and the
 * page behind is inert.
 */
import { Suspense, useEffect, useRef, useState, type KeyboardEvent } from "react";
import { createPortal } from "react-dom";
import { useQuery } from "@tanstack/react-query";
import { Link, useLocation } from "react-router-dom";
import { Messages } from "~/contract";
import { ApiClientError } from "~/client";
import { errorMessage, useApi } from "../lib/api";
import { MODAL_RECOMMENDATIONS_BATCH } from "../lib/constants";
import { productPath, readVariantParam } from "../lib/product-path";
import { useRecordView } from "../lib/use-record-view";
import { ProductDetails } from "./ProductDetails";
import { RelatedProducts } from "./RelatedProducts";
import { Spinner } from "./FeedStatus";
import { TryOnPanel } from "./ai/TryOnPanel";
import { CompleteTheLookLazy } from "./CompleteTheLookLazy";
import { dialogKeyDown } from "../lib/focus-trap";



export function ProductModal({ productId, onClose }: { productId: string; onClose(): void }) {
  // `?variant=` beside `?product=`: the variant of a search result's matched colour, selected.
  const variantId = readVariantParam(useLocation().search);
  const api = useApi();
  const dialogRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const [scrollRoot, setScrollRoot] = useState<HTMLDivElement | null>(null);

  const product = useQuery({
    queryKey: ["product", productId],
    queryFn: () => api.productsGetById({ params: { id: productId } }),
    staleTime: 5 * 60_000,
  });
  useRecordView(product.data);

  // The page behind: inert and not scrolling; focus comes back to the opener on close.
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    const app = document.getElementById("root");
    app?.setAttribute("inert", "");
    app?.setAttribute("aria-hidden", "true");
    const overflow = document.body.style.overflow;
    document.body.style.overflow = "hidden";
    closeRef.current?.focus();
    return () => {
      app?.removeAttribute("inert");
      app?.removeAttribute("aria-hidden");
      document.body.style.overflow = overflow;
      if (opener && document.contains(opener)) opener.focus();
    };
  }, []);

  // Moving to another product inside the modal: back to the top.
  useEffect(() => {
    scrollRoot?.scrollTo({ top: 0 });
  }, [productId, scrollRoot]);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => dialogKeyDown(e, dialogRef.current, onClose);

  const headingId = "product-modal-title";
  const notFound = product.error instanceof ApiClientError && product.error.status === 404;
  const content = (
    <div className="modal" onKeyDown={onKeyDown} data-testid="product-modal-layer">
      <div className="modal__backdrop" onClick={onClose} aria-hidden="true" data-testid="product-modal-backdrop" />
      <div
        ref={dialogRef}
        className="modal__dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={product.data ? headingId : undefined}
        aria-label={product.data ? undefined : "Product"}
        data-testid="product-modal"
      >
        <div className="modal__bar">
          {product.data && (
            <Link className="modal__full" to={productPath(product.data, variantId)} data-testid="product-modal-full">
              View full details
            </Link>
          )}
          <button ref={closeRef} type="button" className="modal__close" onClick={onClose} aria-label="Close" data-testid="product-modal-close">
            <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
              <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </button>
        </div>
        <div className="modal__body" ref={setScrollRoot}>
          {product.isPending ? (
            <div className="modal__loading">
              <Spinner label="Loading product…" />
            </div>
          ) : product.isError ? (
            <div className="state state--error" role="alert">
              <h2 className="state__title">{notFound ? "This product is no longer available" : Messages.FAILED_TO_FETCH_PRODUCT}</h2>
              <p className="state__text">{notFound ? "It may have sold out or been removed." : errorMessage(product.error, "Please try again in a moment.")}</p>
              {!notFound && (
                <button type="button" className="button" onClick={() => void product.refetch()}>
                  Retry
                </button>
              )}
            </div>
          ) : (
            <>
              <ProductDetails key={product.data.id} product={product.data} headingLevel={2} headingId={headingId} compact preferredVariantId={variantId} />
              <TryOnPanel key={`tryon-${product.data.id}`} product={product.data} compact />
              <Suspense fallback={null}>
                <CompleteTheLookLazy key={`look-${product.data.id}`} productId={product.data.id} scrollRoot={scrollRoot} headingLevel={3} />
              </Suspense>
              <RelatedProducts
                key={`related-${product.data.id}`}
                productId={product.data.id}
                batchSize={MODAL_RECOMMENDATIONS_BATCH}
                scrollRoot={scrollRoot}
                title="Recommended for you"
                testId="modal-recommendations"
                loadWhenNear={false}
              />
            </>
          )}
        </div>
      </div>
    </div>
  );
  return createPortal(content, document.body);
}
