/**
 * Clone management (`/clones`): the shopper's clones (20 a page, "Load more", SPEC §9) with their
 * training progress, creating a new clone from photos, and — listed separately — the public house
 * models anyone can try clothes on. A shopper's clones are private.
 */
import { useEffect, useRef } from "react";
import { Link } from "react-router-dom";
import { errorMessage } from "../lib/api";
import { cloneImage, useHouseModels, useOwnClones } from "../lib/clones";
import { TRYON_PLACEHOLDER_IMAGE } from "../lib/ai-constants";
import { useSession } from "../lib/session";
import { AccountNav, GuestNote, SessionGate } from "../components/AccountNav";
import { Spinner } from "../components/FeedStatus";
import { CloneCard } from "../components/ai/CloneCard";
import { CloneCreator } from "../components/ai/CloneCreator";
import "../account.css";
import "../tryon.css";

export function Clones() {
  const { user } = useSession();
  const clones = useOwnClones(!!user);
  const house = useHouseModels(!!user);
  const listRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    document.title = "My clones · Fashion Discovery";
  }, []);

  const items = clones.data?.pages.flatMap((p) => p.clones) ?? [];

  return (
    <section className="page account-page" aria-labelledby="clones-heading" data-testid="clones-page">
      <AccountNav />
      <div className="page__head">
        <h1 id="clones-heading" className="page__title">
          My clones
        </h1>
      </div>
      <p className="ai-section__text">
        A clone is an AI model of you, made from your photos, to see clothes on yourself before you buy. Your clones are private.
      </p>
      <GuestNote what="your clones and try-ons" />
      <SessionGate>
        <div className="ai-section">
          <h2 ref={listRef} tabIndex={-1} className="ai-section__title">
            Your clones
          </h2>
          {clones.isPending ? (
            <Spinner label="Loading your clones…" />
          ) : clones.isError && items.length === 0 ? (
            <div className="state state--error" role="alert">
              <h3 className="state__title">Your clones could not be loaded</h3>
              <p className="state__text">{errorMessage(clones.error)}</p>
              <button type="button" className="button" onClick={() => void clones.refetch()}>
                Retry
              </button>
            </div>
          ) : items.length === 0 ? (
            <p className="ai-section__text" data-testid="clones-empty">
              You have no clone yet. Create one below.
            </p>
          ) : (
            <>
              <ul className="clone-list" data-testid="clone-list">
                {items.map((c) => (
                  <CloneCard key={c.id} clone={c} />
                ))}
              </ul>
              {clones.hasNextPage && (
                <div className="load-more">
                  <button
                    type="button"
                    className="button button--ghost"
                    disabled={clones.isFetchingNextPage}
                    onClick={() => void clones.fetchNextPage()}
                    data-testid="clones-more"
                  >
                    {clones.isFetchingNextPage ? "Loading…" : "Load more"}
                  </button>
                </div>
              )}
              {clones.isFetchNextPageError && (
                <p className="inline-error" role="alert">
                  {errorMessage(clones.error)}
                </p>
              )}
            </>
          )}
        </div>

        <div className="ai-section">
          <CloneCreator onCreated={() => listRef.current?.focus()} />
        </div>

        <div className="ai-section" data-testid="house-models">
          <h2 className="ai-section__title">House models</h2>
          <p className="ai-section__text">Public models anyone can try clothes on, when you have no clone of your own or want another look.</p>
          {house.isPending ? (
            <Spinner label="Loading models…" />
          ) : house.isError ? (
            <p className="inline-error" role="alert">
              {errorMessage(house.error)}
            </p>
          ) : house.data.length === 0 ? (
            <p className="ai-section__text">No house models yet.</p>
          ) : (
            <ul className="clone-list">
              {house.data.map((m) => (
                <li key={m.id} className="clone-card" data-testid="house-model">
                  <div className="clone-card__head">
                    <img className="clone-card__avatar" src={cloneImage(m) ?? TRYON_PLACEHOLDER_IMAGE} alt="" width={64} height={64} />
                    <div>
                      <h3 className="clone-card__name">{m.name}</h3>
                      <p className="clone-card__meta">
                        <span className="badge badge--public">Public</span>
                      </p>
                    </div>
                  </div>
                </li>
              ))}
            </ul>
          )}
          <p className="ai-section__text">
            <Link to="/try-ons">Your try-ons</Link> · <Link to="/saved-try-ons">Saved try-ons</Link>
          </p>
        </div>
      </SessionGate>
    </section>
  );
}
