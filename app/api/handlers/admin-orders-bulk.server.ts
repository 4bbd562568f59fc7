import type { adminOrdersBulkEndpoints } from "~/contract/admin-orders-bulk";
import type { HandlersFor } from "../router.server";
import { bulkSetAdminItemStatus } from "~/services/orders/admin-orders-bulk.server";

export const adminOrdersBulkHandlers: HandlersFor<typeof adminOrdersBulkEndpoints> = {
  ordersAdminBulkItemsStatus: async ({ input, auth, ctx, log }) => bulkSetAdminItemStatus({ ...ctx, log }, auth.user!, input.body),
};
