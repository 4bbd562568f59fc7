import type { searchEndpoints } from "~/contract/search";
import type { AppContext } from "~/context.server";
import type { HandlersFor } from "../router.server";
import type { VectorIndex } from "~/providers/vector-index/port";
import { searchProducts } from "~/services/search/search.server";
import { createSearchNotification, deleteSearchNotification, unsubscribeNotification } from "~/services/search/notifications.server";

/** The vector index, when the app context has one (the "text" namespace blends into the ranking). */
const vectorsOf = (ctx: AppContext): VectorIndex | null => (ctx as AppContext & { vectors?: VectorIndex | null }).vectors ?? null;

export const searchHandlers: HandlersFor<typeof searchEndpoints> = {
  searchProducts: async ({ input, ctx, log }) => searchProducts({ db: ctx.db, vectors: vectorsOf(ctx), log }, input.body),
  searchNotificationCreate: async ({ input, auth, ctx }) => createSearchNotification(ctx, auth.user!, input.body),
  searchNotificationDelete: async ({ input, auth, ctx }) => deleteSearchNotification(ctx.db, auth.user!, input.params.searchId),
  notificationsUnsubscribe: async ({ input, ctx }) => unsubscribeNotification(ctx.db, input.params.token),
};
