/**
 * Saved products and followed stores in React: the saved/following state of one product or store
 * (batched check calls, kept in the query cache so every card showing the same product agrees),
 * toggled optimistically and rolled back on error (SPEC §4, ./query-toggle.ts).
 *
 * Who may save: any visitor with a session. Every visitor is a guest until they sign in, and a
 * guest is authenticated by its guest token, so guests save and follow too; signing in keeps what
 * they saved (the server merges the guest into the account). Without a session — not created yet,
 * or the server answers 401 — the control shows a sign-in prompt with the spec's message
 * "User is not authenticated" (SPEC §5, §8).
 *
 * Query keys start with "user": they are dropped when the shopper signs in or out (./session.tsx).
 */
import { Messages } from "~/contract";
import { useApi } from "./api";
import { batchedCheck, useOptimisticToggle, type OptimisticToggle } from "./query-toggle";

export { primeToggles, type OptimisticToggle, type ToggleProblem } from "./query-toggle";

export const savedKey = (productId: string) => ["user", "saved", productId] as const;
export const followingKey = (storeId: string) => ["user", "following", storeId] as const;
/** Lists: the Saved page, the Following page, the collections. */
export const SAVED_LIST_KEY = ["user", "saved-products"] as const;
export const FOLLOWING_LIST_KEY = ["user", "favorite-stores"] as const;
export const COLLECTIONS_KEY = ["user", "collections"] as const;

const savedLoader = batchedCheck(async (api, ids) => (await api.savedProductsCheck({ query: { ids } })).saved);
const followingLoader = batchedCheck(async (api, ids) => (await api.favoriteStoresCheck({ query: { ids } })).following);

/** Whether a product is saved, and its optimistic toggle. */
export function useSavedProduct(productId: string): OptimisticToggle {
  const api = useApi();
  return useOptimisticToggle({
    key: savedKey(productId),
    load: () => savedLoader(api).load(productId),
    send: async (saved) => (await api.savedProductsToggle({ body: { product_id: productId, saved } })).saved,
    fallback: (saved) => (saved ? "Could not save this product. Please try again." : "Could not remove this product. Please try again."),
    listKey: SAVED_LIST_KEY,
  });
}

/** Whether a store is followed, and its optimistic toggle (SPEC §8 favourite-store messages on failure). */
export function useFollowedStore(storeId: string, onFollowerCount?: (count: number) => void): OptimisticToggle {
  const api = useApi();
  return useOptimisticToggle({
    key: followingKey(storeId),
    load: () => followingLoader(api).load(storeId),
    send: async (following) => {
      const r = await api.favoriteStoresToggle({ body: { store_id: storeId, following } });
      onFollowerCount?.(r.followerCount);
      return r.following;
    },
    fallback: (following) => (following ? Messages.FAILED_TO_CREATE_FAVORITE_STORE : Messages.FAILED_TO_DELETE_FAVORITE_STORE),
    listKey: FOLLOWING_LIST_KEY,
  });
}
