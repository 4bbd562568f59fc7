/**
 * Clone management (`/clones`): the shopper's clones (20 a page, "Load more", SPEC §9) with their
 * training progress, creating a new clone from photos, and — listed separately — the public house
 * models anyone can try clothes on. A shopper's clones are private.
 */
import { useRef } from "react";
import { Link } from "react-router-dom";
import { errorMessage } from "../lib/api";
import { cloneImage, useHouseModels, useOwnClones } from "../lib/clones";
import { TRYON_PLACEHOLDER_IMAGE } from "../lib/ai-constants";
import { useSession } from "../lib/session";
import { GuestNote, SessionGate } from "../components/AccountNav";
import { AccountPage } from "../components/AccountPage";
import { Spinner } from "../components/FeedStatus";
import { ListStates } from "../components/ListStates";
import { LoadMore } from "../components/LoadMore";
import { CloneCard } from "../components/ai/CloneCard";
import { CloneCreator } from "../components/ai/CloneCreator";
import "../account.css";
import "../tryon.css";

export function Clones() {
  const { user } = useSession();
  const clones = useOwnClones(!!user);
  const house = useHouseModels(!!user);
  const listRef = useRef<HTMLHeadingElement>(null);

  const items = clones.data?.pages.flatMap((p) => p.clones) ?? [];

  return (
    <AccountPage headingId="clones-heading" title="My clones" testId="clones-page">
      <p className="ai-section__text">
        A clone is an AI model of you, made from your photos, to see clothes on yourself before you buy. Your clones are private.
      </p>
      <GuestNote what="your clones and try-ons" />
      <SessionGate>
        <div className="ai-section">
          <h2 ref={listRef} tabIndex={-1} className="ai-section__title">
            Your clones
          </h2>
          <ListStates
            list={clones}
            count={items.length}
            loadingLabel="Loading your clones…"
            errorTitle="Your clones could not be loaded"
            headingLevel={3}
            empty={
              <p className="ai-section__text" data-testid="clones-empty">
                You have no clone yet. Create one below.
              </p>
            }
          >
            <ul className="clone-list" data-testid="clone-list">
              {items.map((c) => (
                <CloneCard key={c.id} clone={c} />
              ))}
            </ul>
            <LoadMore list={clones} testId="clones-more" label="Load more" />
          </ListStates>
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
    </AccountPage>
  );
}
