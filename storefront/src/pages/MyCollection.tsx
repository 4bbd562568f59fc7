/**
 * One of the shopper's collections (`/my-collections/<id>`): its products in order (20 a page,
 * infinite scroll) with a Remove button each, rename, and delete after a confirmation. Another
 * shopper's collection is "not found" (the API answers 404).
 */
import { useState, type FormEvent } from "react";
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate, useParams } from "react-router-dom";
import { ApiClientError } from "~/client";
import { USER_COLLECTION_DESCRIPTION_MAX, USER_COLLECTION_NAME_MAX, type UserCollection } from "~/contract";
import { errorMessage, useApi } from "../lib/api";
import { ProductOpenerProvider, useProductModalRoute } from "../lib/product-opener";
import { COLLECTIONS_KEY } from "../lib/saved";
import { useSession } from "../lib/session";
import { useDocumentTitle } from "../lib/use-document-title";
import { useInfiniteScroll } from "../lib/use-infinite-scroll";
import { ProductCard, ProductGridSkeleton } from "../components/ProductCard";
import { FeedFooter, Spinner } from "../components/FeedStatus";
import { ProductModal } from "../components/ProductModal";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { AccountNav, SessionGate } from "../components/AccountNav";
import { TextField } from "../components/Field";
import { ListStates, LoadError } from "../components/ListStates";
import { CollectionOutfits } from "../components/CollectionOutfits";
import "../account.css";

const PAGE = 20;

function RenameForm({ collection, onDone }: { collection: UserCollection; onDone(): void }) {
  const api = useApi();
  const qc = useQueryClient();
  const [name, setName] = useState(collection.name);
  const [description, setDescription] = useState(collection.description ?? "");
  const save = useMutation({
    mutationFn: () => api.userCollectionsUpdate({ params: { id: collection.id }, body: { name: name.trim(), description: description.trim() || null } }),
    onSuccess: ({ data }) => {
      qc.setQueryData([...COLLECTIONS_KEY, "one", collection.id], { data });
      void qc.invalidateQueries({ queryKey: COLLECTIONS_KEY });
      onDone();
    },
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim()) save.mutate();
  };
  return (
    <form className="panel uc-rename" onSubmit={onSubmit} data-testid="collection-rename-form">
      <TextField label="Name" required maxLength={USER_COLLECTION_NAME_MAX} value={name} onChange={(e) => setName(e.target.value)} autoFocus />
      <label className="field">
        <span className="field__label">Description</span>
        <textarea
          className="field__input field__textarea"
          rows={2}
          maxLength={USER_COLLECTION_DESCRIPTION_MAX}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
        />
      </label>
      {save.isError && (
        <p className="form-error" role="alert">
          {errorMessage(save.error, "Could not save. Please try again.")}
        </p>
      )}
      <div className="panel__actions">
        <button type="submit" className="button button--small" disabled={!name.trim() || save.isPending}>
          {save.isPending ? "Saving…" : "Save"}
        </button>
        <button type="button" className="button button--ghost button--small" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function CollectionProducts({ collection }: { collection: UserCollection }) {
  const api = useApi();
  const qc = useQueryClient();
  const key = [...COLLECTIONS_KEY, "products", collection.id];
  const products = useInfiniteQuery({
    queryKey: key,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => api.userCollectionsProducts({ params: { id: collection.id }, query: { cursor: pageParam, limit: PAGE } }),
    getNextPageParam: (last) => last.data.nextCursor ?? undefined,
  });
  const remove = useMutation({
    mutationFn: (productId: string) => api.userCollectionsRemoveProducts({ params: { id: collection.id }, body: { product_ids: [productId] } }),
    onSuccess: ({ data }) => {
      qc.setQueryData([...COLLECTIONS_KEY, "one", collection.id], { data: data.collection });
    },
    onSettled: () => void qc.invalidateQueries({ queryKey: COLLECTIONS_KEY }),
  });
  const items = products.data?.pages.flatMap((p) => p.data.items) ?? [];
  const loadMore = () => {
    if (products.hasNextPage && !products.isFetchingNextPage) void products.fetchNextPage();
  };
  const sentinel = useInfiniteScroll({ enabled: !!products.hasNextPage && !products.isFetching && !products.isFetchNextPageError, onLoadMore: loadMore });

  return (
    <ListStates
      list={products}
      count={items.length}
      loading={
        <ProductGridSkeleton count={4} label="Loading products" />
      }
      errorTitle="The products could not be loaded"
      empty={
        <div className="state" data-testid="collection-empty">
          <h2 className="state__title">No products yet</h2>
          <p className="state__text">Use “Add to collection” on any product to add it here.</p>
        </div>
      }
    >
      {remove.isError && (
        <p className="form-error" role="alert">
          {errorMessage(remove.error, "Could not remove the product. Please try again.")}
        </p>
      )}
      <div className="grid" data-testid="collection-products">
        {items.map((i) => (
          <div key={i.product_id} className="uc-item" data-testid="collection-item" data-product-id={i.product_id}>
            {i.product ? (
              <ProductCard product={i.product} />
            ) : (
              <article className="card card--gone">
                <div className="card__media card__gone">
                  <p>No longer available</p>
                </div>
              </article>
            )}
            <button
              type="button"
              className="link-button uc-item__remove"
              disabled={remove.isPending && remove.variables === i.product_id}
              onClick={() => remove.mutate(i.product_id)}
              data-testid="collection-remove-product"
            >
              Remove from collection
            </button>
          </div>
        ))}
      </div>
      <FeedFooter
        testId="collection-products"
        sentinelRef={sentinel}
        loading={products.isFetchingNextPage}
        error={products.isFetchNextPageError ? errorMessage(products.error) : null}
        hasMore={!!products.hasNextPage}
        onRetry={() => void products.fetchNextPage()}
        onLoadMore={loadMore}
      />
    </ListStates>
  );
}

export function MyCollection() {
  const api = useApi();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const { user } = useSession();
  const { collectionId = "" } = useParams();
  const modal = useProductModalRoute();
  const [renaming, setRenaming] = useState(false);
  const [confirming, setConfirming] = useState(false);

  const collection = useQuery({
    queryKey: [...COLLECTIONS_KEY, "one", collectionId],
    queryFn: () => api.userCollectionsGet({ params: { id: collectionId } }),
    enabled: !!user && !!collectionId,
  });
  const del = useMutation({
    mutationFn: () => api.userCollectionsDelete({ params: { id: collectionId } }),
    onSuccess: () => {
      qc.removeQueries({ queryKey: [...COLLECTIONS_KEY, "one", collectionId] });
      void qc.invalidateQueries({ queryKey: COLLECTIONS_KEY });
      navigate("/my-collections", { replace: true });
    },
  });

  const c = collection.data?.data;
  useDocumentTitle(c?.name ?? "Collection");

  const notFound = collection.error instanceof ApiClientError && collection.error.status === 404;

  return (
    <ProductOpenerProvider opener={modal.open}>
      <section className="page account-page" aria-labelledby="collection-heading" data-testid="my-collection-page">
        <AccountNav />
        <SessionGate>
          {collection.isPending ? (
            <Spinner label="Loading collection…" />
          ) : notFound ? (
            <div className="state">
              <h1 className="state__title">Collection not found</h1>
              <Link className="button" to="/my-collections">
                My collections
              </Link>
            </div>
          ) : collection.isError ? (
            <LoadError title="This collection could not be loaded" error={collection.error} onRetry={() => void collection.refetch()} headingLevel={1} />
          ) : (
            <>
              <header className="uc-head">
                <Link to="/my-collections" className="uc-head__back">
                  ← My collections
                </Link>
                <div className="page__head">
                  <h1 id="collection-heading" className="page__title">
                    {c!.name}
                    {c!.is_ai_generated && <span className="badge badge--ai">AI</span>}
                  </h1>
                  <div className="uc-head__actions">
                    <button type="button" className="button button--ghost button--small" onClick={() => setRenaming((r) => !r)} data-testid="collection-rename">
                      Rename
                    </button>
                    <button
                      type="button"
                      className="button button--ghost button--small button--danger-ghost"
                      onClick={() => setConfirming(true)}
                      data-testid="collection-delete"
                    >
                      Delete
                    </button>
                  </div>
                </div>
                {c!.is_ai_generated && c!.prompt && <p className="uc-head__prompt">Generated from “{c!.prompt}”</p>}
                {c!.description && <p className="uc-head__text">{c!.description}</p>}
                <p className="page__count" data-testid="collection-count">
                  {c!.productCount} {c!.productCount === 1 ? "product" : "products"}
                </p>
              </header>
              {renaming && <RenameForm key={c!.updated_at} collection={c!} onDone={() => setRenaming(false)} />}
              <CollectionProducts collection={c!} />
              <CollectionOutfits collectionId={c!.id} />
              {confirming && (
                <ConfirmDialog
                  title={`Delete “${c!.name}”?`}
                  confirmLabel="Delete collection"
                  busyLabel="Deleting…"
                  busy={del.isPending}
                  error={del.isError ? errorMessage(del.error, "Could not delete the collection. Please try again.") : null}
                  onConfirm={() => del.mutate()}
                  onCancel={() => {
                    del.reset();
                    setConfirming(false);
                  }}
                  testId="collection-delete-dialog"
                >
                  <p>The collection goes; its products stay in the shop and in your saved products.</p>
                </ConfirmDialog>
              )}
            </>
          )}
        </SessionGate>
      </section>
      {modal.productId && <ProductModal productId={modal.productId} onClose={modal.close} />}
    </ProductOpenerProvider>
  );
}
