import type { recommendationsEndpoints } from "~/contract/recommendations";
import { unauthenticated } from "../errors.server";
import type { HandlersFor } from "../router.server";
import {
  adminForYouByEmail,
  adminProfileByEmail,
  bestSellers,
  customersAlsoViewed,
  enqueueRecommendationsRebuild,
  forYou,
  frequentlyBoughtTogether,
  getRecommendationsJob,
  mostViewed,
  randomProducts,
  recordProductView,
  sendRecommendationsTestEmail,
  vectorsOf,
} from "~/services/recommendations.server";
import type { AppContext } from "~/context.server";

const deps = (ctx: AppContext) => ({ db: ctx.db, vectors: vectorsOf(ctx), log: ctx.log, queue: ctx.queue });

export const recommendationsHandlers: HandlersFor<typeof recommendationsEndpoints> = {
  recommendationsViewProduct: async ({ ctx, input, auth }) => {
    if (!auth.user) throw unauthenticated();
    return recordProductView(ctx.db, { productId: input.body.product_id, userId: auth.user.id, sessionId: input.body.session_id });
  },
  recommendationsForYou: async ({ ctx, input, auth, headers }) => {
    if (!auth.user) throw unauthenticated();
    headers.set("cache-control", "private, max-age=60");
    return forYou(deps(ctx), auth.user.id, input.query);
  },
  recommendationsRandom: async ({ ctx, input }) => randomProducts(ctx.db, input.query),
  recommendationsMostViewed: async ({ ctx, input, headers }) => {
    headers.set("cache-control", "public, max-age=60");
    return mostViewed(deps(ctx), input.query);
  },
  recommendationsBestSellers: async ({ ctx, input, headers }) => {
    headers.set("cache-control", "public, max-age=60");
    return bestSellers(deps(ctx), input.query);
  },
  recommendationsCustomersAlsoViewed: async ({ ctx, input, headers }) => {
    headers.set("cache-control", "public, max-age=60");
    return customersAlsoViewed(deps(ctx), input.params.id, input.query);
  },
  recommendationsFrequentlyBoughtTogether: async ({ ctx, input, headers }) => {
    headers.set("cache-control", "public, max-age=60");
    return frequentlyBoughtTogether(deps(ctx), input.params.id, input.query);
  },
  recommendationsAdminForYouByEmail: async ({ ctx, input }) => adminForYouByEmail(deps(ctx), input.query),
  recommendationsAdminProfileByEmail: async ({ ctx, input }) => adminProfileByEmail(ctx.db, input.query.email),
  recommendationsTestEmail: async ({ ctx, input, log, auth }) => {
    const r = await sendRecommendationsTestEmail(ctx, input.body);
    log.info({ emailId: r.emailId, kind: r.kind, by: auth.user?.id }, "recommendations test email queued");
    return r;
  },
  recommendationsAdminRebuild: async ({ ctx }) => enqueueRecommendationsRebuild(ctx),
  recommendationsAdminJob: async ({ ctx, input }) => getRecommendationsJob(ctx.db, input.params.id),
};
