import type { dropsEndpoints } from "~/contract/drops";
import { hasPermission } from "../auth.server";
import type { AuthState } from "../auth.server";
import {
  createDrop,
  deleteDrop,
  dropCompanions,
  getDrop,
  listDrops,
  listUpcomingDrops,
  notifyDrop,
  publishDropNow,
  setDropProducts,
  setScheduledPublishDate,
  updateDrop,
} from "~/services/drops.server";
import { createDropRequestByEmail } from "~/services/notification-requests.server";
import type { HandlersFor } from "../router.server";

const canManage = (auth: AuthState) => !!auth.user && hasPermission(auth.user, "drops.manage");

export const dropsHandlers: HandlersFor<typeof dropsEndpoints> = {
  dropsList: async ({ ctx, input, auth }) => listDrops(ctx.db, input.query, canManage(auth)),
  dropsUpcoming: async ({ ctx }) => listUpcomingDrops(ctx.db),
  dropsNotifyMe: async ({ ctx, input, auth }) => createDropRequestByEmail(ctx, auth.user ?? null, input.params.id, input.body.email),
  dropsPublishNow: async ({ ctx, input }) => publishDropNow(ctx, input.params.id),
  dropsCreate: async ({ ctx, input }) => createDrop(ctx, input.body),
  dropsGetById: async ({ ctx, input, auth }) => getDrop(ctx.db, input.params.id, canManage(auth)),
  dropsUpdate: async ({ ctx, input }) => updateDrop(ctx, input.params.id, input.body),
  dropsDelete: async ({ ctx, input }) => deleteDrop(ctx, input.params.id),
  dropsCompanions: async ({ ctx, input }) => dropCompanions(ctx.db, input.params.id, input.query),
  dropsSetCompanions: async ({ ctx, input }) => setDropProducts(ctx, input.params.id, input.body.shopify_products_ids),
  dropsSetScheduledPublishDate: async ({ ctx, input }) => setScheduledPublishDate(ctx, input.params.id, input.body.scheduled_publish_date),
  dropsNotifyActiveUsers: async ({ ctx, input }) => notifyDrop(ctx, input.params.id, input.body),
};
