import type { orderAnalyticsEndpoints } from "~/contract/order-analytics";
import type { HandlersFor } from "../router.server";
import { orderAnalytics } from "~/services/orders/analytics.server";

export const orderAnalyticsHandlers: HandlersFor<typeof orderAnalyticsEndpoints> = {
  ordersAdminAnalytics: async ({ input, ctx }) => orderAnalytics({ db: ctx.db, timeZone: ctx.config.STORE_TIMEZONE }, input.query),
};
