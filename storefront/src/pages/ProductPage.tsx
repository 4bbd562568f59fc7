/**
 * The product page (`/products/<id>/<handle>`): the product, the shopper's recently viewed
 * products, and the related feed (12 a batch in the mobile layout, else 20) with infinite scroll.
 * Opening it records a view.
 */
import { Suspense, useEffect } from "react";
import { useQuery } from "@tanstack/react-query";
import { Link, useLocation, useNavigate, useParams } from "react-router-dom";
import { Messages } from "~/contract";
import { ApiClientError } from "~/client";
import { errorMessage, useApi } from "../lib/api";
import { useGender } from "../lib/gender";
import { homePathFor } from "../lib/gender-routing";
import { productIdFromParam, productPath, readVariantParam } from "../lib/product-path";
import { relatedBatchSize } from "../lib/related-feed";
import { useIsMobile } from "../lib/use-media-query";
import { useRecordView } from "../lib/use-record-view";
import { usePageMeta } from "../lib/use-page-meta";
import { notFoundPageText, plainPageText, productPageText } from "~/lib/page-text";
import { ProductDetails } from "../components/ProductDetails";
import { RelatedProducts } from "../components/RelatedProducts";
import { RecentlyViewed } from "../components/RecentlyViewed";
import { ProductReviews } from "../components/reviews/ProductReviews";
import { Spinner } from "../components/FeedStatus";
import { lazyComponent } from "../lib/lazy-component";
import { CompleteTheLookLazy } from "../components/CompleteTheLookLazy";

// The try-on panel (clones, uploads, progress) loads after the product itself.
const TryOnPanel = lazyComponent(async () => (await import("../components/ai/TryOnPanel")).TryOnPanel);

export function ProductPage() {
  const api = useApi();
  const params = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const { gender } = useGender();
  const mobile = useIsMobile();
  const id = productIdFromParam(params.productId);

  const product = useQuery({
    queryKey: ["product", id],
    queryFn: () => api.productsGetById({ params: { id: id ?? "" } }),
    enabled: !!id,
    staleTime: 5 * 60_000,
  });
  useRecordView(product.data);

  // The canonical address carries the current handle.
  useEffect(() => {
    if (!product.data) return;
    const canonical = productPath(product.data);
    if (decodeURI(location.pathname) !== decodeURI(canonical)) navigate({ pathname: canonical, search: location.search, hash: location.hash }, { replace: true, state: { keepSearch: true } });
  }, [product.data, location.pathname, location.search, location.hash, navigate]);

  // The brand is the vendor, else the store's name (the store link's query: no second request).
  const storeId = product.data?.storeId ?? null;
  const store = useQuery({
    queryKey: ["store", storeId],
    queryFn: () => api.storesGetById({ params: { id: storeId ?? "" } }),
    enabled: !!storeId && !product.data?.vendor,
    staleTime: 10 * 60_000,
  });

  // Another product (a related card): start at the top, not where the last page was scrolled to.
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [id]);

  const notFound = !id || (product.error instanceof ApiClientError && (product.error.status === 404 || product.error.status === 400));
  const p = product.data;
  usePageMeta(
    p
      ? productPageText({
          title: p.title,
          brand: p.vendor || store.data?.name || "",
          description: p.description,
          productType: p.productType,
          priceMin: p.priceRange.minVariantPrice.amount,
          currencyCode: p.priceRange.minVariantPrice.currencyCode,
          path: productPath(p),
        })
      : notFound
        ? notFoundPageText("Product", location.pathname)
        : plainPageText("Product"),
  );

  if (notFound) {
    return (
      <section className="page" aria-labelledby="pd-missing">
        <div className="state" data-testid="product-not-found">
          <h1 id="pd-missing" className="state__title">
            This product is not available
          </h1>
          <p className="state__text">It may have sold out or been removed from the shop.</p>
          <Link className="button" to={homePathFor(gender)}>
            Continue shopping
          </Link>
        </div>
      </section>
    );
  }

  return (
    <section className="page product-page" data-testid="product-page">
      <nav className="crumbs" aria-label="Breadcrumb">
        <Link to={homePathFor(gender)}>Shop</Link>
        {product.data && (
          <>
            <span aria-hidden="true"> / </span>
            <span aria-current="page">{product.data.title}</span>
          </>
        )}
      </nav>
      {product.isPending ? (
        <div className="modal__loading">
          <Spinner label="Loading product…" />
        </div>
      ) : product.isError ? (
        <div className="state state--error" role="alert">
          <h1 className="state__title">{Messages.FAILED_TO_FETCH_PRODUCT}</h1>
          <p className="state__text">{errorMessage(product.error, "Please try again in a moment.")}</p>
          <button type="button" className="button" onClick={() => void product.refetch()}>
            Retry
          </button>
        </div>
      ) : (
        <>
          <ProductDetails key={product.data.id} product={product.data} headingLevel={1} preferredVariantId={readVariantParam(location.search)} />
          <Suspense fallback={null}>
            <TryOnPanel key={`tryon-${product.data.id}`} product={product.data} openOnParam />
          </Suspense>
          <Suspense fallback={null}>
            <CompleteTheLookLazy key={`look-${product.data.id}`} productId={product.data.id} />
          </Suspense>
          <ProductReviews key={`reviews-${product.data.id}`} productId={product.data.id} productTitle={product.data.title} />
          <RecentlyViewed excludeId={product.data.id} />
          <RelatedProducts key={`related-${product.data.id}-${mobile}`} productId={product.data.id} batchSize={relatedBatchSize(mobile)} />
        </>
      )}
    </section>
  );
}
