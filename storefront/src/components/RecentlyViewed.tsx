/** The last products the shopper viewed (SPEC §9: 3, from local storage), on the home feed and product pages. */
import { useRecentlyViewed } from "../lib/use-recently-viewed";
import { ProductCard } from "./ProductCard";

export function RecentlyViewed({ excludeId, title = "Recently viewed" }: { excludeId?: string | null; title?: string }) {
  const items = useRecentlyViewed().filter((p) => p.id !== excludeId);
  if (items.length === 0) return null;
  return (
    <section className="recent" aria-labelledby="recent-heading" data-testid="recently-viewed">
      <h2 id="recent-heading" className="section-title">
        {title}
      </h2>
      <div className="recent__list" role="list">
        {items.map((p) => (
          <div role="listitem" key={p.id} className="recent__item">
            <ProductCard product={p} />
          </div>
        ))}
      </div>
    </section>
  );
}
