import type { adminOrdersEndpoints } from "~/contract/admin-orders";
import type { HandlersFor } from "../router.server";
import {
  cancelAdminOrder,
  createAdminFulfillment,
  getAdminOrder,
  initiateAdminReturn,
  listAdminOrders,
  setAdminItemStatus,
  updateAdminOrder,
  updateAdminTracking,
} from "~/services/orders/admin-orders.server";

export const adminOrdersHandlers: HandlersFor<typeof adminOrdersEndpoints> = {
  ordersAdminList: async ({ input, ctx }) => listAdminOrders(ctx.db, input.query),
  ordersAdminGet: async ({ input, ctx }) => getAdminOrder(ctx.db, input.params.id),
  ordersAdminUpdate: async ({ input, auth, ctx, log }) => updateAdminOrder({ ...ctx, log }, auth.user!, input.params.id, input.body),
  ordersAdminItemsStatus: async ({ input, auth, ctx, log }) => setAdminItemStatus({ ...ctx, log }, auth.user!, input.params.id, input.body),
  ordersAdminTracking: async ({ input, auth, ctx, log }) => updateAdminTracking({ ...ctx, log }, auth.user!, input.params.id, input.body),
  ordersAdminFulfill: async ({ input, auth, ctx, log }) => createAdminFulfillment({ ...ctx, log }, auth.user!, input.params.id, input.body),
  ordersAdminInitiateReturn: async ({ input, auth, ctx, log }) => initiateAdminReturn({ ...ctx, log }, auth.user!, input.params.id, input.body),
  ordersAdminCancel: async ({ input, auth, ctx, log }) => cancelAdminOrder({ ...ctx, log }, auth.user!, input.params.id, input.body),
};
