import type { notificationsEndpoints } from "~/contract/notifications";
import type { HandlersFor } from "../router.server";
import { createBackInStockRequest, createDropRequest, deleteMyNotificationRequest, listMyNotificationRequests } from "~/services/notification-requests.server";

export const notificationsHandlers: HandlersFor<typeof notificationsEndpoints> = {
  notificationRequestsMine: async ({ input, auth, ctx }) => listMyNotificationRequests(ctx.db, auth.user!, input.query),
  notificationRequestsProductCreate: async ({ input, auth, ctx }) => createBackInStockRequest(ctx, auth.user!, input.body),
  notificationRequestsDropCreate: async ({ input, auth, ctx }) => createDropRequest(ctx, auth.user!, input.body),
  notificationRequestsDelete: async ({ input, auth, ctx }) => deleteMyNotificationRequest(ctx.db, auth.user!, input.params.id),
};
