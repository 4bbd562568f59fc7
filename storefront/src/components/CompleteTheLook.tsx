/**
 * "Complete the look" on the product page and in the product modal: the published looks holding
 * this product, else one the engine puts together around it. A lazy chunk (./CompleteTheLookLazy):
 * asked for only when the section comes near the screen, so the product itself goes first.
 */
import { useId, useState } from "react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { Link } from "react-router-dom";
import type { OutfitDetail, OutfitProposal } from "~/contract/outfits";
import { errorMessage, useApi } from "../lib/api";
import { useSession } from "../lib/session";
import { useNearViewport } from "../lib/use-near-viewport";
import { ProductCard } from "./ProductCard";
import { LoginPrompt } from "./LoginPrompt";
import { OutfitGenerator } from "./ai/OutfitGenerator";
import { OUTFIT_LOOK_MAX_PRODUCTS } from "../lib/outfit-generations";
import "../account.css";
import "../outfits.css";

export const completeTheLookKey = (productId: string) => ["outfits", "complete-the-look", productId] as const;

export interface CompleteTheLookProps {
  productId: string;
  /** The scrolling container (the modal); the viewport when omitted. */
  scrollRoot?: Element | null;
  headingLevel?: 2 | 3;
}

export function CompleteTheLook({ productId, scrollRoot = null, headingLevel = 2 }: CompleteTheLookProps) {
  const api = useApi();
  const [ref, near] = useNearViewport({ root: scrollRoot, rootMargin: scrollRoot ? "300px 0px" : "600px 0px", once: true });
  const looks = useQuery({
    enabled: near,
    queryKey: completeTheLookKey(productId),
    queryFn: () => api.outfitsCompleteTheLook({ query: { product_id: productId } }),
    staleTime: 5 * 60_000,
  });
  const headingId = `complete-the-look-${useId()}`;
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const data = looks.data;
  // Nothing to show: the section stays out of the way (no heading over an empty space).
  if (looks.isSuccess && data && data.outfits.length === 0 && !data.proposal) return null;

  return (
    <section ref={ref} className="outfits" aria-labelledby={headingId} data-testid="complete-the-look">
      <Heading id={headingId} className="section-title">
        Complete the look
      </Heading>
      {looks.isPending ? (
        <p className="outfits__note">Loading looks…</p>
      ) : looks.isError ? (
        <div className="inline-state" role="alert">
          <p className="inline-state__text">{errorMessage(looks.error, "Looks could not be loaded.")}</p>
          <button type="button" className="button button--ghost" onClick={() => void looks.refetch()}>
            Try again
          </button>
        </div>
      ) : (
        <>
          {data!.outfits.map((o) => (
            <OutfitLook key={o.id} outfit={o} currentId={productId} />
          ))}
          {data!.proposal && <ProposedLook proposal={data!.proposal} currentId={productId} />}
        </>
      )}
    </section>
  );
}

function LookProducts({ products, currentId }: { products: OutfitDetail["products"]; currentId: string }) {
  // The product being looked at is already on the page: the look shows what goes with it.
  const others = products.filter((p) => p.id !== currentId);
  return (
    <div className="grid outfits__grid" data-testid="outfit-products">
      {others.map((p) => (
        <ProductCard key={p.id} product={p} />
      ))}
    </div>
  );
}

function OutfitLook({ outfit, currentId }: { outfit: OutfitDetail; currentId: string }) {
  return (
    <article className="outfit" aria-label={outfit.name} data-testid="outfit" data-outfit-id={outfit.id}>
      <header className="outfit__head">
        <div>
          <p className="outfit__name">{outfit.name}</p>
          {outfit.description && <p className="outfit__text">{outfit.description}</p>}
        </div>
        <SaveOutfit outfit={outfit} />
      </header>
      <LookProducts products={outfit.products} currentId={currentId} />
      <OutfitGenerator title={outfit.name} outfitId={outfit.id} />
    </article>
  );
}

function ProposedLook({ proposal, currentId }: { proposal: OutfitProposal; currentId: string }) {
  return (
    <article className="outfit outfit--proposed" aria-label="A look suggested for this product" data-testid="outfit-proposal">
      <header className="outfit__head">
        <p className="outfit__text">Pieces that go with it</p>
      </header>
      <LookProducts products={proposal.products} currentId={currentId} />
      <OutfitGenerator title="this look" productIds={proposal.products.slice(0, OUTFIT_LOOK_MAX_PRODUCTS).map((p) => p.id)} />
    </article>
  );
}

/** "Save look": into one of the shopper's collections (the collections page lists saved looks beside products). */
function SaveOutfit({ outfit }: { outfit: OutfitDetail }) {
  const api = useApi();
  const { user } = useSession();
  const [open, setOpen] = useState(false);
  const [needsLogin, setNeedsLogin] = useState(false);
  const [savedTo, setSavedTo] = useState<string | null>(null);
  const uid = useId();
  const collections = useQuery({
    queryKey: ["user-collections", "for-outfit"],
    queryFn: () => api.userCollectionsList({ query: { limit: 100 } }),
    enabled: open && !!user,
  });
  const save = useMutation({
    mutationFn: async (c: { id: string; name: string }) => {
      await api.userCollectionsAddOutfit({ params: { id: c.id }, body: { outfit_id: outfit.id } });
      return c.name;
    },
    onSuccess: (name) => {
      setSavedTo(name);
      setOpen(false);
    },
  });
  const createAndSave = useMutation({
    mutationFn: async () => {
      const c = await api.userCollectionsCreate({ body: { name: "Saved looks" } });
      await api.userCollectionsAddOutfit({ params: { id: c.data.id }, body: { outfit_id: outfit.id } });
      return c.data.name;
    },
    onSuccess: (name) => {
      setSavedTo(name);
      setOpen(false);
    },
  });
  const error = save.error ?? createAndSave.error;

  return (
    <div className="add-to outfit__save">
      <button
        type="button"
        className="button button--ghost button--small"
        aria-expanded={open}
        aria-controls={`${uid}-panel`}
        aria-label={`Save look ${outfit.name}`}
        data-testid="save-outfit"
        onClick={() => (user ? setOpen((o) => !o) : setNeedsLogin(true))}
      >
        Save look
      </button>
      {needsLogin && <LoginPrompt onClose={() => setNeedsLogin(false)} action="save looks" />}
      {savedTo && (
        <p className="outfits__note" role="status">
          Saved to <Link to="/my-collections">{savedTo}</Link>
        </p>
      )}
      {open && (
        <div id={`${uid}-panel`} className="add-to__panel" data-testid="save-outfit-panel">
          {collections.isPending ? (
            <p className="add-to__note">Loading your collections…</p>
          ) : collections.isError ? (
            <p className="form-error" role="alert">
              {errorMessage(collections.error, "Your collections could not be loaded.")}
            </p>
          ) : (
            <ul className="add-to__list">
              {collections.data.data.map((c) => (
                <li key={c.id}>
                  <button type="button" className="link-button" disabled={save.isPending} onClick={() => save.mutate(c)}>
                    Save to {c.name}
                  </button>
                </li>
              ))}
              <li>
                <button type="button" className="link-button" disabled={createAndSave.isPending} onClick={() => createAndSave.mutate()}>
                  New collection “Saved looks”
                </button>
              </li>
            </ul>
          )}
          {error && (
            <p className="form-error" role="alert">
              {errorMessage(error, "The look could not be saved. Please try again.")}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
