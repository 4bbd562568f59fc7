import type { materialsEndpoints } from "~/contract/materials";
import {
  createMaterialCategory,
  deleteMaterialCategory,
  getMaterialCategory,
  listMaterialTree,
  reorderMaterialCategories,
  updateMaterialCategory,
} from "~/services/materials/categories.server";
import type { HandlersFor } from "../router.server";

export const materialsHandlers: HandlersFor<typeof materialsEndpoints> = {
  materialsList: async ({ ctx }) => listMaterialTree(ctx.db),
  materialsCreate: async ({ ctx, input }) => createMaterialCategory(ctx.db, input.body),
  materialsReorder: async ({ ctx, input }) => reorderMaterialCategories(ctx.db, input.body.parent_id, input.body.ids),
  materialsGet: async ({ ctx, input }) => getMaterialCategory(ctx.db, input.params.id),
  materialsUpdate: async ({ ctx, input }) => updateMaterialCategory(ctx.db, input.params.id, input.body),
  materialsDelete: async ({ ctx, input }) => deleteMaterialCategory(ctx.db, input.params.id),
};
