/**
 * The shopper's try-ons (`/try-ons`): newest first, 10 at a time (skip 0, take 10, SPEC §9) with
 * "Show more"; each can be saved, or its image deleted.
 */
import { useEffect } from "react";
import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "react-router-dom";
import { errorMessage, useApi } from "../lib/api";
import { USER_TRYONS_TAKE } from "../lib/ai-constants";
import { primeSavedTryOns, USER_TRYONS_LIST_KEY } from "../lib/saved-tryons";
import { useSession } from "../lib/session";
import { tryOnKey } from "../lib/tryons";
import { AccountNav, GuestNote, SessionGate } from "../components/AccountNav";
import { Spinner } from "../components/FeedStatus";
import { TryOnCard } from "../components/ai/TryOnCard";
import { LoadMore } from "../components/LoadMore";
import "../account.css";
import "../tryon.css";

export function MyTryOns() {
  const api = useApi();
  const qc = useQueryClient();
  const { user } = useSession();

  useEffect(() => {
    document.title = "My try-ons · Fashion Discovery";
  }, []);

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
    <section className="page account-page" aria-labelledby="tryons-heading" data-testid="tryons-page">
      <AccountNav />
      <div className="page__head">
        <h1 id="tryons-heading" className="page__title">
          My try-ons
        </h1>
        {total > 0 && <span className="page__count">{total}</span>}
      </div>
      <GuestNote what="your try-ons" />
      <SessionGate>
        {list.isPending ? (
          <Spinner label="Loading your try-ons…" />
        ) : list.isError && items.length === 0 ? (
          <div className="state state--error" role="alert">
            <h2 className="state__title">Your try-ons could not be loaded</h2>
            <p className="state__text">{errorMessage(list.error)}</p>
            <button type="button" className="button" onClick={() => void list.refetch()}>
              Retry
            </button>
          </div>
        ) : items.length === 0 ? (
          <div className="state" data-testid="tryons-empty">
            <h2 className="state__title">No try-ons yet</h2>
            <p className="state__text">Open a product and press “Try it on” to see it on your clone.</p>
            <Link className="button" to="/clones">
              Your clones
            </Link>
          </div>
        ) : (
          <>
            <ul className="tryon-grid" data-testid="tryons-list">
              {items.map((t) => (
                <TryOnCard key={t.id} tryon={t} />
              ))}
            </ul>
            <LoadMore list={list} testId="tryons-more" />
          </>
        )}
      </SessionGate>
    </section>
  );
}
