/**
 * Saved try-ons (`/saved-try-ons`): newest first, 20 a page (SPEC §9) with "Show more". Unsaving
 * takes a try-on off the list (optimistic, rolled back on error); its image can be deleted.
 */
import { useEffect } from "react";
import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "react-router-dom";
import { errorMessage, useApi } from "../lib/api";
import { SAVED_TRYONS_PAGE } from "../lib/ai-constants";
import { primeSavedTryOns, SAVED_TRYONS_LIST_KEY } from "../lib/saved-tryons";
import { useSession } from "../lib/session";
import { tryOnKey } from "../lib/tryons";
import { AccountNav, GuestNote, SessionGate } from "../components/AccountNav";
import { Spinner } from "../components/FeedStatus";
import { TryOnCard } from "../components/ai/TryOnCard";
import { LoadMore } from "../components/LoadMore";
import "../account.css";
import "../tryon.css";

export function SavedTryOns() {
  const api = useApi();
  const qc = useQueryClient();
  const { user } = useSession();

  useEffect(() => {
    document.title = "Saved try-ons · Fashion Discovery";
  }, []);

  const list = useInfiniteQuery({
    queryKey: SAVED_TRYONS_LIST_KEY,
    initialPageParam: undefined as string | undefined,
    queryFn: async ({ pageParam }) => {
      const page = await api.savedTryOnsList({ query: { cursor: pageParam, limit: SAVED_TRYONS_PAGE } });
      for (const i of page.items) qc.setQueryData(tryOnKey(i.tryon.id), i.tryon);
      primeSavedTryOns(
        qc,
        page.items.map((i) => i.tryon_id),
        true
      );
      return page;
    },
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled: !!user,
  });
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];

  return (
    <section className="page account-page" aria-labelledby="saved-tryons-heading" data-testid="saved-tryons-page">
      <AccountNav />
      <div className="page__head">
        <h1 id="saved-tryons-heading" className="page__title">
          Saved try-ons
        </h1>
      </div>
      <GuestNote what="your saved try-ons" />
      <SessionGate>
        {list.isPending ? (
          <Spinner label="Loading saved try-ons…" />
        ) : list.isError && items.length === 0 ? (
          <div className="state state--error" role="alert">
            <h2 className="state__title">Your saved try-ons could not be loaded</h2>
            <p className="state__text">{errorMessage(list.error)}</p>
            <button type="button" className="button" onClick={() => void list.refetch()}>
              Retry
            </button>
          </div>
        ) : items.length === 0 ? (
          <div className="state" data-testid="saved-tryons-empty">
            <h2 className="state__title">No saved try-ons</h2>
            <p className="state__text">Tap the heart under a try-on to keep it here.</p>
            <Link className="button" to="/try-ons">
              Your try-ons
            </Link>
          </div>
        ) : (
          <>
            <ul className="tryon-grid" data-testid="saved-tryons-list">
              {items.map((i) => (
                <TryOnCard key={i.tryon_id} tryon={i.tryon} testId="saved-tryon-card" />
              ))}
            </ul>
            <LoadMore list={list} testId="saved-tryons-more" />
          </>
        )}
      </SessionGate>
    </section>
  );
}
