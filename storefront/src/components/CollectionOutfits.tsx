/**
 * The looks a shopper saved into a collection ("Save look" under Complete the look), below its
 * products: each look's name and products, and Remove. Nothing is shown while loading or when the
 * collection holds no look, so a products-only collection looks as it always did.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { errorMessage, useApi } from "../lib/api";
import { ProductCard } from "./ProductCard";
import "../outfits.css";

export const collectionOutfitsKey = (collectionId: string) => ["user-collections", collectionId, "outfits"] as const;

export function CollectionOutfits({ collectionId }: { collectionId: string }) {
  const api = useApi();
  const qc = useQueryClient();
  const looks = useQuery({
    queryKey: collectionOutfitsKey(collectionId),
    queryFn: () => api.userCollectionsOutfits({ params: { id: collectionId } }),
  });
  const remove = useMutation({
    mutationFn: (outfitId: string) => api.userCollectionsRemoveOutfit({ params: { id: collectionId, outfitId } }),
    onSettled: () => qc.invalidateQueries({ queryKey: collectionOutfitsKey(collectionId) }),
  });
  const items = looks.data?.data.items ?? [];
  if (items.length === 0) return null;
  return (
    <section className="outfits" aria-labelledby={`looks-${collectionId}`} data-testid="collection-outfits">
      <h2 id={`looks-${collectionId}`} className="section-title">
        Saved looks
      </h2>
      {remove.isError && (
        <p className="form-error" role="alert">
          {errorMessage(remove.error, "Could not remove the look. Please try again.")}
        </p>
      )}
      {items.map((o) => (
        <article key={o.id} className="outfit" aria-label={o.name} data-testid="collection-outfit">
          <header className="outfit__head">
            <div>
              <p className="outfit__name">{o.name}</p>
              {o.description && <p className="outfit__text">{o.description}</p>}
            </div>
            <button
              type="button"
              className="button button--ghost button--small"
              aria-label={`Remove look ${o.name}`}
              disabled={remove.isPending && remove.variables === o.id}
              onClick={() => remove.mutate(o.id)}
            >
              Remove
            </button>
          </header>
          <div className="grid outfits__grid">
            {o.products.map((p) => (
              <ProductCard key={p.id} product={p} />
            ))}
          </div>
        </article>
      ))}
    </section>
  );
}
