import type { reviewsEndpoints } from "~/contract/reviews";
import {
  adminAddImage,
  adminCreateReview,
  adminDeleteReview,
  adminGetReview,
  adminListReviews,
  adminRemoveImage,
  adminUpdateReview,
  createReview,
  dismissReviewable,
  listProductReviews,
  listReviewableOrders,
  listStoreReviews,
  moderateReview,
  productRatingSummary,
  storeRatingSummary,
  storeReviewImage,
} from "~/services/reviews.server";
import { createReviewByToken, requestReviewsForOrder, reviewableByToken } from "~/services/review-requests.server";
import type { HandlersFor } from "../router.server";

export const reviewsHandlers: HandlersFor<typeof reviewsEndpoints> = {
  reviewsByProduct: async ({ ctx, input }) => listProductReviews(ctx.db, input.params.id, input.query),
  reviewsByStore: async ({ ctx, input }) => listStoreReviews(ctx.db, input.params.id, input.query),
  reviewsProductSummary: async ({ ctx, input }) => productRatingSummary(ctx.db, input.params.id),
  reviewsStoreSummary: async ({ ctx, input }) => storeRatingSummary(ctx.db, input.params.id),
  reviewsCreate: async ({ ctx, input, auth }) => createReview(ctx, auth.user!, input.body),
  reviewsUploadImage: async ({ ctx, input, auth }) => storeReviewImage(ctx, input.body.image, auth.user!.id),
  reviewsReviewable: async ({ ctx, input }) => reviewableByToken(ctx, input.query.token, input.query.product_id),
  reviewsCreateByToken: async ({ ctx, input }) => createReviewByToken(ctx, input.body),
  reviewableOrders: async ({ ctx, auth }) => listReviewableOrders(ctx.db, auth.user!),
  reviewableOrdersDismiss: async ({ ctx, input, auth }) => dismissReviewable(ctx.db, auth.user!, input.body),

  reviewsAdminList: async ({ ctx, input }) => adminListReviews(ctx.db, input.query),
  reviewsAdminGet: async ({ ctx, input }) => adminGetReview(ctx.db, input.params.id),
  reviewsAdminCreate: async ({ ctx, input }) => adminCreateReview(ctx, input.body),
  reviewsAdminUpdate: async ({ ctx, input }) => adminUpdateReview(ctx, input.params.id, input.body),
  reviewsAdminPublish: async ({ ctx, input }) => moderateReview(ctx, input.params.id, "publish"),
  reviewsAdminReject: async ({ ctx, input }) => moderateReview(ctx, input.params.id, "reject"),
  reviewsAdminDelete: async ({ ctx, input }) => adminDeleteReview(ctx, input.params.id),
  reviewsAdminAddImage: async ({ ctx, input }) => adminAddImage(ctx, input.params.id, input.body),
  reviewsAdminRemoveImage: async ({ ctx, input }) => adminRemoveImage(ctx, input.params.id, input.query.url),
  reviewsAdminSendRequest: async ({ ctx, input }) => requestReviewsForOrder(ctx, input.params.id),
};
