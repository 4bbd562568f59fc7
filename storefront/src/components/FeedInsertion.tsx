/**
 * A collection, store, style or look (outfit) shown between the home feed's products: a title, a
 * line of text and four of its products.
 */
import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router-dom";
import type { ProductCard as ProductCardData } from "~/contract";
import type { FeedInsertion as FeedInsertionData } from "../lib/home-feed";
import type { Gender } from "../lib/gender-routing";
import { useApi } from "../lib/api";
import { HOME_CACHE_MS, HOME_INSERTION_PRODUCTS, HOME_STALE_MS } from "../lib/constants";
import { storePath } from "../lib/store-path";
import { ProductCard, ProductGridSkeleton } from "./ProductCard";
import { LOGO_WIDTHS, ResponsiveImage } from "./ResponsiveImage";

const KIND_LABEL = { collection: "Collection", store: "Store", style: "Style", outfit: "Complete the look" } as const;

/** What the tile's header shows of each kind. */
function headOf(ins: FeedInsertionData): { id: string; title: string; text: string | null; image: string | null } {
  switch (ins.kind) {
    case "collection":
      return { id: ins.collection.id, title: ins.collection.title, text: ins.collection.description, image: ins.collection.image_url };
    case "store":
      return { id: ins.store.id, title: ins.store.name, text: ins.store.description, image: ins.store.logo_url };
    case "style":
      return { id: ins.style.id, title: ins.style.name, text: ins.style.description, image: ins.style.image_url };
    case "outfit":
      return { id: ins.outfit.id, title: ins.outfit.name, text: ins.outfit.description, image: ins.outfit.image_url };
  }
}

function Products({ products, label }: { products: ProductCardData[]; label: string }) {
  return (
    <div className="insertion__products" role="list" aria-label={label}>
      {products.map((p) => (
        <div role="listitem" key={p.id} className="insertion__item">
          <ProductCard product={p} />
        </div>
      ))}
    </div>
  );
}

function StyleProducts({ id, name, gender }: { id: string; name: string; gender: Gender }) {
  const api = useApi();
  const q = useQuery({
    queryKey: ["style", id],
    queryFn: () => api.stylesGetById({ params: { id } }),
    staleTime: HOME_STALE_MS,
    gcTime: HOME_CACHE_MS,
  });
  if (q.isPending)
    return (
      <ProductGridSkeleton count={HOME_INSERTION_PRODUCTS} label={`Loading ${name}`} className="insertion__products" />
    );
  const products = (q.data?.products ?? []).filter((p) => gender === "both" || p.target_gender === "both" || p.target_gender === gender).slice(0, HOME_INSERTION_PRODUCTS);
  if (products.length === 0) return <p className="insertion__empty">No products in this style yet.</p>;
  return <Products products={products} label={`${name} products`} />;
}

export function FeedInsertion({ insertion, gender }: { insertion: FeedInsertionData; gender: Gender }) {
  const kind = insertion.kind;
  const { id, title, text, image } = headOf(insertion);
  const headingId = `ins-${kind}-${id}`;
  return (
    <section className={`insertion insertion--${kind}`} aria-labelledby={headingId} data-testid="feed-insertion" data-kind={kind}>
      <header className="insertion__head">
        {image && <ResponsiveImage className={`insertion__thumb insertion__thumb--${kind}`} url={image} alt="" widths={LOGO_WIDTHS} sizes="48px" width={48} height={48} />}
        <div className="insertion__titles">
          <p className="insertion__kind">{KIND_LABEL[kind]}</p>
          <h2 id={headingId} className="insertion__title">
            {kind === "store" ? <Link to={storePath(insertion.store)}>{title}</Link> : title}
          </h2>
          {text && <p className="insertion__text">{text}</p>}
        </div>
      </header>
      {kind === "style" ? (
        <StyleProducts id={insertion.style.id} name={title} gender={gender} />
      ) : (
        <Products products={insertion.products} label={`${title} products`} />
      )}
    </section>
  );
}
