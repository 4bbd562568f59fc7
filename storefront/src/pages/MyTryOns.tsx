/**
 * The shopper's try-ons (`/try-ons`): newest first, 10 at a time (skip 0, take 10, SPEC §9) with
 * "Show more"; each can be saved, or its image deleted.
 */
import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "react-router-dom";
import { useApi } from "../lib/api";
import { USER_TRYONS_TAKE } from "../lib/ai-constants";
import { primeSavedTryOns, USER_TRYONS_LIST_KEY } from "../lib/saved-tryons";
import { useSession } from "../lib/session";
import { tryOnKey } from "../lib/tryons";
import { GuestNote, SessionGate } from "../components/AccountNav";
import { AccountPage } from "../components/AccountPage";
import { ListStates } from "../components/ListStates";
import { TryOnCard } from "../components/ai/TryOnCard";
import { MyOutfitGenerations } from "../components/ai/MyOutfitGenerations";
import { LoadMore } from "../components/LoadMore";
import "../account.css";
import "../tryon.css";

export function MyTryOns() {
  const api = useApi();
  const qc = useQueryClient();
  const { user } = useSession();

  const list = useInfiniteQuery({
    queryKey: USER_TRYONS_LIST_KEY,
    initialPageParam: 0,
    queryFn: async ({ pageParam }) => {
      const page = await api.tryonsUser({ query: { skip: pageParam, take: USER_TRYONS_TAKE } });
      for (const t of page.tryons) qc.setQueryData(tryOnKey(t.id), t);
      const done = page.tryons.filter((t) => t.status === "completed").map((t) => t.id);
      if (done.length) {
        // One check for the page; the hearts then start from the answer.
        try {
          const saved = new Set((await api.savedTryOnsCheck({ query: { ids: done.join(",") } })).saved);
          primeSavedTryOns(qc, done, (id) => saved.has(id));
        } catch {
          /* each heart checks for itself */
        }
      }
      return { ...page, skip: pageParam };
    },
    getNextPageParam: (last) => (last.skip + last.tryons.length < last.total && last.tryons.length > 0 ? last.skip + last.tryons.length : undefined),
    enabled: !!user,
  });
  const items = list.data?.pages.flatMap((p) => p.tryons) ?? [];
  const total = list.data?.pages[list.data.pages.length - 1]?.total ?? 0;

  return (
    <AccountPage headingId="tryons-heading" title="My try-ons" testId="tryons-page" count={total} countLabel={(n) => `${n} ${n === 1 ? "try-on" : "try-ons"}`}>
      <GuestNote what="your try-ons" />
      <SessionGate>
        <ListStates
          list={list}
          count={items.length}
          loadingLabel="Loading your try-ons…"
          errorTitle="Your try-ons could not be loaded"
          empty={
            <div className="state" data-testid="tryons-empty">
              <h2 className="state__title">No try-ons yet</h2>
              <p className="state__text">Open a product and press “Try it on” to see it on your clone.</p>
              <Link className="button" to="/clones">
                Your clones
              </Link>
            </div>
          }
        >
          <ul className="tryon-grid" data-testid="tryons-list">
            {items.map((t) => (
              <TryOnCard key={t.id} tryon={t} />
            ))}
          </ul>
          <LoadMore list={list} testId="tryons-more" />
        </ListStates>
        <MyOutfitGenerations enabled={!!user} />
      </SessionGate>
    </AccountPage>
  );
}
