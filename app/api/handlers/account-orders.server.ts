import type { accountOrdersEndpoints } from "~/contract/account-orders";
import type { HandlersFor } from "../router.server";
import { cancelMyOrder, getMyOrder, initiateMyReturn, listMyOrders, listMyReturns } from "~/services/account-orders.server";

export const accountOrdersHandlers: HandlersFor<typeof accountOrdersEndpoints> = {
  ordersMine: async ({ input, auth, ctx }) => listMyOrders(ctx.db, auth.user!, input.query),
  ordersMineGet: async ({ input, auth, ctx }) => getMyOrder(ctx.db, auth.user!, input.params.id),
  ordersMineCancel: async ({ input, auth, ctx, log }) => cancelMyOrder({ ...ctx, log }, auth.user!, input.params.id, input.body),
  ordersMineInitiateReturn: async ({ input, auth, ctx, log }) => initiateMyReturn({ ...ctx, log }, auth.user!, input.params.id, input.body),
  returnsMine: async ({ input, auth, ctx }) => listMyReturns(ctx.db, auth.user!, input.query),
};
