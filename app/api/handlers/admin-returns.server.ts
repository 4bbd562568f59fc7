import type { adminReturnsEndpoints } from "~/contract/admin-returns";
import type { HandlersFor } from "../router.server";
import {
  adminReturnLineItems,
  adminReturnsByOrder,
  adminReturnsByTracking,
  approveReturnRequest,
  changeReturnStatus,
  confirmReturn,
  declineReturnRequest,
  getAdminReturn,
  listAdminReturnRequests,
  listAdminReturns,
  refundReturn,
} from "~/services/returns/admin-returns.server";
import { cancelMyReturnRequest } from "~/services/returns/shopper-return-cancel.server";

export const adminReturnsHandlers: HandlersFor<typeof adminReturnsEndpoints> = {
  returnsMineCancel: async ({ input, auth, ctx, log }) => cancelMyReturnRequest({ ...ctx, log }, auth.user!, input.params.id),
  returnsAdminList: async ({ input, ctx }) => listAdminReturns(ctx.db, input.query),
  returnsAdminByTracking: async ({ input, ctx }) => adminReturnsByTracking(ctx.db, input.params.trackingNumber),
  returnsAdminByOrder: async ({ input, ctx }) => adminReturnsByOrder(ctx.db, input.params.orderId),
  returnsAdminRequests: async ({ input, ctx }) => listAdminReturnRequests(ctx.db, input.query),
  returnsAdminRequestApprove: async ({ input, auth, ctx, log }) => approveReturnRequest({ ...ctx, log }, auth.user!, input.params.id),
  returnsAdminRequestDecline: async ({ input, auth, ctx, log }) => declineReturnRequest({ ...ctx, log }, auth.user!, input.params.id, input.body),
  returnsAdminGet: async ({ input, ctx }) => getAdminReturn(ctx.db, input.params.id),
  returnsAdminLineItems: async ({ input, ctx }) => adminReturnLineItems(ctx.db, input.params.id),
  returnsAdminStatus: async ({ input, auth, ctx, log }) => changeReturnStatus({ ...ctx, log }, auth.user!, input.params.id, input.body),
  returnsAdminConfirm: async ({ input, auth, ctx, log }) => confirmReturn({ ...ctx, log }, auth.user!, input.params.id, input.body),
  returnsAdminRefund: async ({ input, auth, ctx, log }) => refundReturn({ ...ctx, log }, auth.user!, input.params.id, input.body),
};
