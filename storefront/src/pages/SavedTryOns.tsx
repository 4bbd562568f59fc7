/**
 * Saved try-ons (`/saved-try-ons`): newest first, 20 a page (SPEC §9) with "Show more". Unsaving
 * takes a try-on off the list (optimistic, rolled back on error); its image can be deleted.
 */
import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "react-router-dom";
import { useApi } from "../lib/api";
import { SAVED_TRYONS_PAGE } from "../lib/ai-constants";
import { primeSavedTryOns, SAVED_TRYONS_LIST_KEY } from "../lib/saved-tryons";
import { useSession } from "../lib/session";
import { tryOnKey } from "../lib/tryons";
import { GuestNote, SessionGate } from "../components/AccountNav";
import { AccountPage } from "../components/AccountPage";
import { ListStates } from "../components/ListStates";
import { TryOnCard } from "../components/ai/TryOnCard";
import { LoadMore } from "../components/LoadMore";
import "../account.css";
import "../tryon.css";

export function SavedTryOns() {
  const api = useApi();
  const qc = useQueryClient();
  const { user } = useSession();

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
    <AccountPage headingId="saved-tryons-heading" title="Saved try-ons" testId="saved-tryons-page">
      <GuestNote what="your saved try-ons" />
      <SessionGate>
        <ListStates
          list={list}
          count={items.length}
          loadingLabel="Loading saved try-ons…"
          errorTitle="Your saved try-ons could not be loaded"
          empty={
            <div className="state" data-testid="saved-tryons-empty">
              <h2 className="state__title">No saved try-ons</h2>
              <p className="state__text">Tap the heart under a try-on to keep it here.</p>
              <Link className="button" to="/try-ons">
                Your try-ons
              </Link>
            </div>
          }
        >
          <ul className="tryon-grid" data-testid="saved-tryons-list">
            {items.map((i) => (
              <TryOnCard key={i.tryon_id} tryon={i.tryon} testId="saved-tryon-card" />
            ))}
          </ul>
          <LoadMore list={list} testId="saved-tryons-more" />
        </ListStates>
      </SessionGate>
    </AccountPage>
  );
}
