/**
 * Search results (on the home path with `?search=`): sort, parsed filter chips, facets, numbered
 * pages (20 a page on desktop, 14 below 768 px), the typo correction notice, empty and error
 * states, and "Notify me" for new matches. Every choice is in the address (lib/search-state.ts).
 */
import { useEffect, useId, useMemo, useRef, type ReactNode } from "react";
import { keepPreviousData, useMutation, useQuery } from "@tanstack/react-query";
import { Link, useLocation, useNavigate } from "react-router-dom";
import { Messages, type SearchResponse } from "~/contract";
import { errorMessage, useApi } from "../lib/api";
import { GENDER_LABELS, useGender } from "../lib/gender";
import { SEARCH_PAGE_SIZE_DESKTOP, SEARCH_PAGE_SIZE_MOBILE } from "../lib/constants";
import { useIsMobile } from "../lib/use-media-query";
import { usePageMeta } from "../lib/use-page-meta";
import { searchPageText } from "~/lib/page-text";
import { useSession } from "../lib/session";
import { withSearchTerm } from "../lib/gender-routing";
import {
  LIST_KEYS,
  SORT_OPTIONS,
  hasRefinements,
  pageWindow,
  parseSearchState,
  searchRequestBody,
  withGender,
  withInStock,
  withListValueToggled,
  withPage,
  withPrice,
  withSort,
  withoutAllFilters,
  withoutFilter,
  withoutParsedChip,
  clearRefinements,
  type ListFilterKey,
  type ParsedChip,
  type SearchSort,
  type SearchState,
} from "../lib/search-state";
import { formatMoney } from "../lib/products";
import { ProductCard, ProductGridSkeleton } from "../components/ProductCard";
import { requestProductHref } from "../lib/product-requests";

/** Searches people often start from, offered when nothing matches. */
const SUGGESTIONS = ["Linen shirt", "Denim", "Knitwear", "Jackets", "Dresses", "Trainers"];

const sameText = (a: unknown, b: unknown) => String(a).toLowerCase() === String(b).toLowerCase();

function useSearchQuery(body: ReturnType<typeof searchRequestBody>) {
  const api = useApi();
  return useQuery({
    queryKey: ["search", body],
    queryFn: () => api.searchProducts({ body }),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

function NotifyMe({ answer, body }: { answer: SearchResponse; body: ReturnType<typeof searchRequestBody> }) {
  const api = useApi();
  const { signedIn, user } = useSession();
  const notify = useMutation({
    mutationFn: () =>
      api.searchNotificationCreate({
        body: { searchId: answer.query.searchId, query: answer.query.raw, filters: body.filters },
      }),
  });
  useEffect(() => notify.reset(), [answer.query.searchId]); // eslint-disable-line react-hooks/exhaustive-deps

  if (!signedIn) {
    return (
      <p className="notify" data-testid="search-notify">
        <Link to="/login">Sign in</Link> to be emailed when new products match this search.
      </p>
    );
  }
  if (notify.isSuccess) {
    return (
      <p className="notify notify--done" role="status" data-testid="search-notify-done">
        Done: we will email {notify.data.email || user?.email} when new products match.
      </p>
    );
  }
  return (
    <div className="notify" data-testid="search-notify">
      <button type="button" className="button button--ghost button--small" disabled={notify.isPending} onClick={() => notify.mutate()} data-testid="search-notify-button">
        {notify.isPending ? "Saving…" : "Notify me about new matches"}
      </button>
      {notify.isError && (
        <span className="notify__error" role="alert">
          {errorMessage(notify.error, "Could not save this search. Please try again.")}
        </span>
      )}
    </div>
  );
}

interface FacetsProps {
  answer: SearchResponse;
  state: SearchState;
  go(search: string): void;
  search: string;
  preference: SearchState["gender"];
  removeChip(chip: ParsedChip): void;
}

function FacetGroup({ title, children, testId }: { title: string; children: ReactNode; testId: string }) {
  return (
    <fieldset className="facet" data-testid={testId}>
      <legend className="facet__title">{title}</legend>
      <div className="facet__values">{children}</div>
    </fieldset>
  );
}

function FacetButton({ pressed, label, count, onClick, testId }: { pressed: boolean; label: string; count?: number; onClick(): void; testId?: string }) {
  return (
    <button type="button" className="facet__value" aria-pressed={pressed} onClick={onClick} data-testid={testId} disabled={!pressed && count === 0}>
      <span className="facet__label">{label}</span>
      {count !== undefined && <span className="facet__count">{count}</span>}
    </button>
  );
}

/**
 * Material: the admins' material category tree (GET /materials), indented by depth; a category
 * selects its products and those of every category under it (the search's materials filter).
 */
function MaterialFacet({ isApplied, onToggle }: { isApplied(handle: string): boolean; onToggle(handle: string): void }) {
  const api = useApi();
  const tree = useQuery({ queryKey: ["materials", "tree"], queryFn: () => api.materialsList(), staleTime: 5 * 60_000 });
  const categories = tree.data?.categories ?? [];
  if (categories.length === 0) return null;
  return (
    <FacetGroup title="Material" testId="facet-material">
      {categories.map((c) => (
        <span key={c.id} style={c.depth ? { paddingInlineStart: `${c.depth}rem`, display: "block" } : { display: "block" }}>
          <FacetButton pressed={isApplied(c.handle)} label={c.name} testId={`facet-material-${c.handle}`} onClick={() => onToggle(c.handle)} />
        </span>
      ))}
    </FacetGroup>
  );
}

function Facets({ answer, state, go, search, preference, removeChip }: FacetsProps) {
  const { facets, applied, parsed } = answer.filters;
  const currency = answer.results[0]?.priceRange.minVariantPrice.currencyCode ?? "USD";

  const toggleList = (key: ListFilterKey, value: string) => {
    const inAddress = state.filters[key]?.some((v) => sameText(v, value));
    const chip = parsed.find((c) => c.key === key && sameText(c.value, value));
    if (!inAddress && chip) return removeChip(chip);
    const stored = inAddress ? state.filters[key]?.find((v) => sameText(v, value)) ?? value : value;
    go(withListValueToggled(search, key, stored));
  };
  const isApplied = (key: ListFilterKey, value: string) => (applied[key] ?? []).some((v) => sameText(v, value));

  const lists: { key: ListFilterKey; title: string; values: { value: string; label: string; count: number }[] }[] = [
    { key: "colors", title: "Colour", values: facets.colors },
    { key: "sizes", title: "Size", values: facets.sizes },
    { key: "productTypes", title: "Type", values: facets.productTypes },
    { key: "storeIds", title: "Store", values: facets.stores.map((s) => ({ value: s.id, label: s.name, count: s.count })) },
  ];

  const genderNow = applied.target_gender ?? "both";
  return (
    <div className="facets" data-testid="search-facets">
      {facets.gender.length > 0 && (
        <FacetGroup title="Gender" testId="facet-gender">
          {facets.gender.map((g) => (
            <FacetButton
              key={g.value}
              pressed={genderNow === g.value}
              label={g.label}
              count={g.count}
              testId={`facet-gender-${g.value}`}
              onClick={() => {
                const chip = parsed.find((c) => c.key === "target_gender");
                if (chip && genderNow === g.value) return removeChip(chip);
                go(withGender(search, g.value === preference && !chip ? null : (g.value as SearchState["gender"])));
              }}
            />
          ))}
        </FacetGroup>
      )}
      {facets.price.length > 0 && (
        <FacetGroup title="Price" testId="facet-price">
          {facets.price.map((b) => {
            const pressed = applied.priceMin === b.min && (applied.priceMax ?? null) === b.max;
            return (
              <FacetButton
                key={b.key}
                pressed={pressed}
                label={b.label || `${formatMoney(String(b.min), currency)}${b.max === null ? "+" : ` – ${formatMoney(String(b.max), currency)}`}`}
                count={b.count}
                testId={`facet-price-${b.key}`}
                onClick={() => go(withPrice(search, pressed ? null : { min: b.min, max: b.max }))}
              />
            );
          })}
        </FacetGroup>
      )}
      {lists.map(
        (l) =>
          l.values.length > 0 && (
            <FacetGroup key={l.key} title={l.title} testId={`facet-${l.key}`}>
              {l.values.slice(0, 24).map((v) => (
                <FacetButton
                  key={v.value}
                  pressed={isApplied(l.key, v.value)}
                  label={v.label}
                  count={v.count}
                  testId={`facet-${l.key}-${v.value}`}
                  onClick={() => toggleList(l.key, v.value)}
                />
              ))}
            </FacetGroup>
          ),
      )}
      <MaterialFacet isApplied={(h) => isApplied("materials", h)} onToggle={(h) => toggleList("materials", h)} />
      <FacetGroup title="Availability" testId="facet-availability">
        <FacetButton
          pressed={!!applied.available}
          label="In stock only"
          count={facets.availability.inStock}
          testId="facet-availability-instock"
          onClick={() => {
            const chip = parsed.find((c) => c.key === "available");
            if (applied.available && chip && !state.filters.available) return removeChip(chip);
            go(withInStock(search, !applied.available));
          }}
        />
      </FacetGroup>
    </div>
  );
}

function Chips({ answer, state, search, go, removeChip }: { answer: SearchResponse; state: SearchState; search: string; go(s: string): void; removeChip(c: ParsedChip): void }) {
  const { parsed } = answer.filters;
  const { facets } = answer.filters;
  const labelOf = (key: ListFilterKey, v: string): string => {
    if (key === "storeIds") return facets.stores.find((s) => s.id === v)?.name ?? "Store";
    const list = key === "colors" ? facets.colors : key === "sizes" ? facets.sizes : key === "productTypes" ? facets.productTypes : [];
    return list.find((f) => sameText(f.value, v))?.label ?? v;
  };
  const own: { key: string; label: string; remove(): void }[] = [];
  if (state.genderOverride) own.push({ key: "gender", label: GENDER_LABELS[state.gender], remove: () => go(withoutFilter(search, "target_gender")) });
  for (const key of LIST_KEYS)
    for (const v of state.filters[key] ?? []) {
      if (parsed.some((c) => c.key === key && sameText(c.value, v))) continue;
      own.push({ key: `${key}:${v}`, label: labelOf(key, v), remove: () => go(withoutFilter(search, key, v)) });
    }
  if (state.filters.priceMin !== undefined || state.filters.priceMax !== undefined) {
    const currency = answer.results[0]?.priceRange.minVariantPrice.currencyCode ?? "USD";
    const lo = formatMoney(String(state.filters.priceMin ?? 0), currency);
    const label = state.filters.priceMax !== undefined ? `${lo} – ${formatMoney(String(state.filters.priceMax), currency)}` : `${lo}+`;
    own.push({ key: "price", label, remove: () => go(withoutFilter(search, "price")) });
  }
  if (state.filters.available) own.push({ key: "instock", label: "In stock", remove: () => go(withoutFilter(search, "available")) });

  if (parsed.length === 0 && own.length === 0) return null;
  return (
    <div className="chips" data-testid="search-chips">
      <ul className="chips__list" aria-label="Filters in use">
        {parsed.map((c) => (
          <li key={`parsed-${c.key}-${String(c.value)}`}>
            <button type="button" className="chip chip--parsed" onClick={() => removeChip(c)} data-testid="search-chip" data-chip-key={c.key} aria-label={`Remove filter ${c.label}`}>
              {c.label}
              <span aria-hidden="true" className="chip__x">
                ×
              </span>
            </button>
          </li>
        ))}
        {own.map((c) => (
          <li key={c.key}>
            <button type="button" className="chip" onClick={c.remove} data-testid="search-filter-chip" aria-label={`Remove filter ${c.label}`}>
              {c.label}
              <span aria-hidden="true" className="chip__x">
                ×
              </span>
            </button>
          </li>
        ))}
      </ul>
      {own.length + parsed.length > 1 && (
        <button type="button" className="link-button" onClick={() => go(withoutAllFilters(search, answer))} data-testid="search-clear-filters">
          Clear filters
        </button>
      )}
    </div>
  );
}

function Pagination({ current, total, search, go }: { current: number; total: number; search: string; go(s: string): void }) {
  if (total <= 1) return null;
  const pages = pageWindow(current, total);
  return (
    <nav className="pagination" aria-label="Pages" data-testid="search-pagination">
      <button type="button" className="pagination__step" disabled={current <= 1} onClick={() => go(withPage(search, current - 1))} data-testid="search-prev">
        Previous
      </button>
      <ol className="pagination__pages">
        {pages.map((p, i) =>
          p === null ? (
            <li key={`gap-${i}`} className="pagination__gap" aria-hidden="true">
              …
            </li>
          ) : (
            <li key={p}>
              <button
                type="button"
                className="pagination__page"
                aria-current={p === current ? "page" : undefined}
                aria-label={`Page ${p}`}
                onClick={() => go(withPage(search, p))}
                data-testid={`search-page-${p}`}
              >
                {p}
              </button>
            </li>
          ),
        )}
      </ol>
      <button type="button" className="pagination__step" disabled={current >= total} onClick={() => go(withPage(search, current + 1))} data-testid="search-next">
        Next
      </button>
    </nav>
  );
}

export function SearchResults({ term }: { term: string }) {
  const location = useLocation();
  const navigate = useNavigate();
  const { gender: preference } = useGender();
  const mobile = useIsMobile();
  const pageSize = mobile ? SEARCH_PAGE_SIZE_MOBILE : SEARCH_PAGE_SIZE_DESKTOP;
  const state = useMemo(() => parseSearchState(location.search, preference), [location.search, preference]);
  const body = useMemo(() => searchRequestBody({ ...state, term }, pageSize), [state, term, pageSize]);
  const q = useSearchQuery(body);
  const answer = q.data;
  const topRef = useRef<HTMLDivElement>(null);
  const sortId = useId();
  usePageMeta(searchPageText(location.pathname, term));

  /** Refinements keep the modal closed and stay in history (Back undoes a filter). */
  const go = (search: string) => navigate({ pathname: location.pathname, search });
  const removeChip = (chip: ParsedChip) => {
    if (answer) go(withoutParsedChip(location.search, answer, chip, preference));
  };

  // Another page: back to the top of the results when they are scrolled away.
  const lastPage = useRef(body.page);
  useEffect(() => {
    if (lastPage.current === body.page) return;
    lastPage.current = body.page;
    const top = topRef.current;
    if (top && top.getBoundingClientRect().top < 0) top.scrollIntoView({ block: "start" });
  }, [body.page]);

  const total = answer?.filters.facets.total ?? 0;
  const totalPages = Math.max(1, Math.ceil(total / pageSize));
  const showing = answer;
  const stale = q.isPlaceholderData;

  return (
    <section className="page search-page" aria-labelledby="search-heading" data-testid="search-page">
      <div ref={topRef} className="page__head search-page__head">
        <h1 id="search-heading" className="page__title">
          {`Results for “${term}”`}
        </h1>
        <Link to={{ pathname: location.pathname, search: withSearchTerm(clearRefinements(location.search), "") }} className="link-button" replace>
          Clear search
        </Link>
      </div>

      {q.isPending ? (
        <ProductGridSkeleton count={8} label="Searching" testId="search-loading" />
      ) : q.isError && !answer ? (
        <div className="state state--error" role="alert" data-testid="search-error">
          <h2 className="state__title">The search did not work</h2>
          <p className="state__text">{errorMessage(q.error, Messages.FAILED_TO_FETCH_PRODUCTS)}</p>
          <button type="button" className="button" onClick={() => void q.refetch()} data-testid="search-retry">
            Try again
          </button>
        </div>
      ) : showing ? (
        <>
          <div className="search-bar">
            <p className="page__count search-bar__count" aria-live="polite" data-testid="search-count">
              {total} {total === 1 ? "product" : "products"}
              {totalPages > 1 ? ` · page ${body.page} of ${totalPages}` : ""}
            </p>
            <label className="sort" htmlFor={sortId}>
              <span className="sort__label">Sort by</span>
              <select
                id={sortId}
                className="sort__select"
                value={state.sort}
                onChange={(e) => go(withSort(location.search, e.target.value as SearchSort))}
                data-testid="search-sort"
              >
                {SORT_OPTIONS.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.value}
                  </option>
                ))}
              </select>
            </label>
          </div>

          {showing.query.corrected && (
            <p className="notice" role="status" data-testid="search-corrected">
              Showing results for <strong>{`“${showing.query.corrected}”`}</strong>
              {showing.query.text ? ` instead of “${showing.query.text}”` : ""}.
            </p>
          )}

          <Chips answer={showing} state={state} search={location.search} go={go} removeChip={removeChip} />
          {q.isError && (
            <p className="inline-error" role="alert">
              {errorMessage(q.error, Messages.FAILED_TO_FETCH_PRODUCTS)}{" "}
              <button type="button" className="link-button" onClick={() => void q.refetch()}>
                Try again
              </button>
            </p>
          )}

          <div className="search-layout">
            {mobile ? (
              <details className="facets-disclosure">
                <summary className="facets-disclosure__summary" data-testid="search-filters-toggle">
                  Filters
                </summary>
                <Facets answer={showing} state={state} go={go} search={location.search} preference={preference} removeChip={removeChip} />
              </details>
            ) : (
              <aside className="search-layout__facets" aria-label="Filters">
                <Facets answer={showing} state={state} go={go} search={location.search} preference={preference} removeChip={removeChip} />
              </aside>
            )}

            <div className="search-layout__results" aria-busy={stale || undefined}>
              {showing.results.length === 0 ? (
                <div className="state" data-testid="search-empty">
                  <h2 className="state__title">{`No products match “${term}”`}</h2>
                  <p className="state__text">
                    {hasRefinements(state) || showing.filters.parsed.length > 0
                      ? "Try removing a filter, or search for something broader."
                      : "Check the spelling, or try one of these searches."}
                  </p>
                  <div className="state__actions">
                    {(hasRefinements(state) || showing.filters.parsed.length > 0) && (
                      <button type="button" className="button" onClick={() => go(withoutAllFilters(location.search, showing))}>
                        Clear filters
                      </button>
                    )}
                    {SUGGESTIONS.map((s) => (
                      <Link key={s} className="chip chip--suggestion" to={{ pathname: location.pathname, search: withSearchTerm(clearRefinements(location.search), s) }} data-testid="search-suggestion">
                        {s}
                      </Link>
                    ))}
                  </div>
                  <p className="state__text">
                    Or <Link to="/photo-search">search with a photo</Link>.
                  </p>
                  <p className="state__text">
                    Can&apos;t find it?{" "}
                    <Link to={requestProductHref(term)} data-testid="search-request-product">
                      Ask us to find it
                    </Link>
                    .
                  </p>
                  <NotifyMe answer={showing} body={body} />
                </div>
              ) : (
                <>
                  <div
                    className={`grid search-grid${stale ? " is-stale" : ""}`}
                    data-testid="search-results"
                    data-page-size={pageSize}
                    data-page={body.page}
                    data-sort={body.sort}
                    data-state={stale ? "loading" : "ready"}
                  >
                    {showing.results.map((p, i) => (
                      <ProductCard key={p.id} product={p} priority={i === 0} eager={i < 4} />
                    ))}
                  </div>
                  <Pagination current={body.page} total={totalPages} search={location.search} go={go} />
                  <NotifyMe answer={showing} body={body} />
                </>
              )}
            </div>
          </div>
        </>
      ) : null}
    </section>
  );
}
