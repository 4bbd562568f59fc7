/**
 * "Add to collection" on the product page and in the product modal: the shopper's collections with
 * a tick on those holding this product (ticking adds, unticking removes), and a quick "new
 * collection" that starts with this product.
 */
import { useId, useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "react-router-dom";
import { USER_COLLECTION_NAME_MAX } from "~/contract";
import { errorMessage, useApi } from "../lib/api";
import { COLLECTIONS_KEY } from "../lib/saved";
import { useSession } from "../lib/session";
import { LoginPrompt } from "./LoginPrompt";
import "../account.css";

export function AddToCollection({ product }: { product: { id: string; title: string } }) {
  const api = useApi();
  const qc = useQueryClient();
  const { user } = useSession();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [needsLogin, setNeedsLogin] = useState(false);
  // The shopper's ticks, shown at once until the list is read again (rolled back on a failure).
  const [ticks, setTicks] = useState<Record<string, boolean>>({});
  const uid = useId();

  const listKey = [...COLLECTIONS_KEY, "for-product", product.id];
  const collections = useQuery({
    queryKey: listKey,
    queryFn: () => api.userCollectionsList({ query: { product_id: product.id, limit: 100 } }),
    enabled: open && !!user,
  });

  const refresh = () => qc.invalidateQueries({ queryKey: COLLECTIONS_KEY });

  const change = useMutation({
    mutationFn: async ({ id, add }: { id: string; add: boolean }) =>
      add
        ? api.userCollectionsAddProducts({ params: { id }, body: { product_ids: [product.id] } })
        : api.userCollectionsRemoveProducts({ params: { id }, body: { product_ids: [product.id] } }),
    onMutate: ({ id, add }) => {
      setError(null);
      setTicks((t) => ({ ...t, [id]: add }));
    },
    onError: (e) => setError(errorMessage(e, "Could not change the collection. Please try again.")),
    onSettled: async (_data, _error, { id }) => {
      await refresh();
      setTicks(({ [id]: _done, ...rest }) => rest);
    },
  });

  const create = useMutation({
    mutationFn: (collectionName: string) => api.userCollectionsCreate({ body: { name: collectionName, product_ids: [product.id] } }),
    onMutate: () => setError(null),
    onSuccess: () => setName(""),
    onError: (e) => setError(errorMessage(e, "Could not create the collection. Please try again.")),
    onSettled: refresh,
  });

  const onCreate = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim()) create.mutate(name.trim());
  };

  const busyId = change.isPending ? change.variables?.id : null;

  return (
    <div className="add-to">
      <button
        type="button"
        className="button button--ghost button--small"
        aria-expanded={open}
        aria-controls={`${uid}-panel`}
        data-testid="add-to-collection"
        onClick={() => {
          if (!user) {
            setNeedsLogin(true);
            return;
          }
          setOpen((o) => !o);
        }}
      >
        Add to collection
      </button>
      {needsLogin && <LoginPrompt onClose={() => setNeedsLogin(false)} action="keep collections" />}
      {open && (
        <div id={`${uid}-panel`} className="add-to__panel" data-testid="add-to-collection-panel">
          {collections.isPending ? (
            <p className="add-to__note">Loading your collections…</p>
          ) : collections.isError ? (
            <p className="form-error" role="alert">
              {errorMessage(collections.error, "Your collections could not be loaded.")}{" "}
              <button type="button" className="link-button" onClick={() => void collections.refetch()}>
                Retry
              </button>
            </p>
          ) : collections.data.data.length === 0 ? (
            <p className="add-to__note">No collections yet: name your first one below.</p>
          ) : (
            <ul className="add-to__list">
              {collections.data.data.map((c) => (
                <li key={c.id}>
                  <label className="add-to__item">
                    <input
                      type="checkbox"
                      checked={ticks[c.id] ?? !!c.containsProduct}
                      disabled={busyId === c.id}
                      onChange={(e) => change.mutate({ id: c.id, add: e.target.checked })}
                      data-testid="add-to-collection-option"
                    />
                    <span>{c.name}</span>
                    {c.is_ai_generated && <span className="badge badge--ai">AI</span>}
                    <span className="add-to__count">{c.productCount}</span>
                  </label>
                </li>
              ))}
            </ul>
          )}
          <form className="add-to__new" onSubmit={onCreate}>
            <label className="visually-hidden" htmlFor={`${uid}-name`}>
              New collection name
            </label>
            <input
              id={`${uid}-name`}
              className="field__input field__input--small"
              placeholder="New collection"
              maxLength={USER_COLLECTION_NAME_MAX}
              value={name}
              onChange={(e) => setName(e.target.value)}
              data-testid="new-collection-name"
            />
            <button type="submit" className="button button--small" disabled={!name.trim() || create.isPending} data-testid="new-collection-create">
              {create.isPending ? "Creating…" : "Create"}
            </button>
          </form>
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
          <Link className="add-to__link" to="/my-collections">
            My collections
          </Link>
        </div>
      )}
    </div>
  );
}
