import type { searchEndpoints } from "~/contract/search";
import type { HandlersFor } from "../router.server";
import { searchProducts } from "~/services/search/search.server";
import { createSearchNotification, deleteSearchNotification, unsubscribeNotification } from "~/services/search/notifications.server";

export const searchHandlers: HandlersFor<typeof searchEndpoints> = {
  searchProducts: async ({ input, ctx, log }) => searchProducts({ db: ctx.db, vectors: ctx.vectors, log }, input.body),
  searchNotificationCreate: async ({ input, auth, ctx }) => createSearchNotification(ctx, auth.user!, input.body),
  searchNotificationDelete: async ({ input, auth, ctx }) => deleteSearchNotification(ctx.db, auth.user!, input.params.searchId),
  notificationsUnsubscribe: async ({ input, ctx }) => unsubscribeNotification(ctx.db, input.params.token),
};
