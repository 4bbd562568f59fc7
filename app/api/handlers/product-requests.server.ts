import type { productRequestsEndpoints } from "~/contract/product-requests";
import {
  createProductRequest,
  getProductRequest,
  importFromProductRequest,
  listOwnProductRequests,
  listProductRequests,
  moveProductRequest,
  updateProductRequestNotes,
} from "~/services/product-requests.server";
import type { HandlersFor } from "../router.server";

export const productRequestsHandlers: HandlersFor<typeof productRequestsEndpoints> = {
  productRequestsCreate: async ({ auth, ctx, input }) => createProductRequest(ctx, auth.user, input.body),
  productRequestsMine: async ({ auth, ctx }) => listOwnProductRequests(ctx.db, auth.user!.id),
  productRequestsList: async ({ ctx, input }) => listProductRequests(ctx.db, input.query),
  productRequestsGet: async ({ ctx, input }) => getProductRequest(ctx.db, input.params.id),
  productRequestsUpdate: async ({ ctx, input }) => updateProductRequestNotes(ctx.db, input.params.id, input.body.notes),
  productRequestsStatus: async ({ ctx, input }) => moveProductRequest(ctx, input.params.id, input.body),
  productRequestsImport: async ({ ctx, input }) => importFromProductRequest(ctx, input.params.id, input.body.store_id),
};
