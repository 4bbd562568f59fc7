/**
 * The signed-in shopper's past photo searches (SPEC §9: the 10 newest), each with the products it
 * found; choosing one shows them.
 */
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router-dom";
import { errorMessage } from "../lib/api";
import { VISION_ENTRIES_TAKE } from "../lib/constants";
import { productPath } from "../lib/product-path";
import { VISION_ENTRIES_KEY, entryProducts, usePhotoSearchApi } from "../lib/photo-search-api";

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

export function PhotoSearchHistory() {
  const photoApi = usePhotoSearchApi();
  const entries = useQuery({ queryKey: VISION_ENTRIES_KEY, queryFn: () => photoApi.entries(), staleTime: 60_000 });
  const [selected, setSelected] = useState<string | null>(null);

  if (entries.isPending) return null;
  if (entries.isError) {
    return (
      <section className="photo-history" aria-labelledby="photo-history-heading">
        <h2 id="photo-history-heading" className="section-title">
          Your photo searches
        </h2>
        <p className="inline-state__text" role="alert">
          {errorMessage(entries.error, "Your photo searches could not be loaded.")}{" "}
          <button type="button" className="link-button" onClick={() => void entries.refetch()}>
            Try again
          </button>
        </p>
      </section>
    );
  }
  const list = entries.data.entries.filter((e) => e.image_url).slice(0, VISION_ENTRIES_TAKE);
  if (list.length === 0) return null;
  const current = list.find((e) => e.id === selected) ?? null;
  const products = current ? entryProducts(current) : [];

  return (
    <section className="photo-history" aria-labelledby="photo-history-heading" data-testid="photo-history">
      <h2 id="photo-history-heading" className="section-title">
        Your photo searches
      </h2>
      <ul className="photo-history__list">
        {list.map((e) => {
          const n = entryProducts(e).length;
          return (
            <li key={e.id}>
              <button
                type="button"
                className="photo-history__item"
                aria-pressed={e.id === selected}
                onClick={() => setSelected(e.id === selected ? null : e.id)}
                data-testid="photo-history-entry"
              >
                <img src={e.image_url} alt="" loading="lazy" width={120} height={160} />
                <span className="photo-history__meta">
                  {dateFormat.format(new Date(e.created_at))}
                  <br />
                  {n} {n === 1 ? "product" : "products"}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
      {current && (
        <div className="photo-history__results" data-testid="photo-history-results">
          <h3 className="section-title">Found on {dateFormat.format(new Date(current.created_at))}</h3>
          {products.length === 0 ? (
            <p className="related__empty">This search found nothing.</p>
          ) : (
            <ul className="photo-history__list">
              {products.map((p) => (
                <li key={p.id}>
                  <Link className="photo-history__item" to={productPath({ id: p.id, handle: p.handle ?? "" })}>
                    {p.featuredImage ? <img src={p.featuredImage} alt="" loading="lazy" width={120} height={160} /> : null}
                    <span className="photo-history__meta">{p.title}</span>
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}
