import type { knowledgeEndpoints } from "~/contract/knowledge";
import { createKnowledge, deleteKnowledge, getKnowledge, listKnowledge, updateKnowledge } from "~/services/knowledge/entries.server";
import { rankKnowledge } from "~/services/knowledge/retrieval.server";
import type { HandlersFor } from "../router.server";

export const knowledgeHandlers: HandlersFor<typeof knowledgeEndpoints> = {
  knowledgeList: async ({ ctx, input }) => listKnowledge(ctx.db, input.query),
  knowledgeCreate: async ({ ctx, input }) => createKnowledge(ctx.db, input.body),
  knowledgeGet: async ({ ctx, input }) => getKnowledge(ctx.db, input.params.id),
  knowledgeUpdate: async ({ ctx, input }) => updateKnowledge(ctx.db, input.params.id, input.body),
  knowledgeDelete: async ({ ctx, input }) => deleteKnowledge(ctx.db, input.params.id),
  knowledgeSearch: async ({ ctx, input }) => ({
    items: await rankKnowledge({ db: ctx.db }, input.body.question, { contextTags: input.body.context_tags, limit: input.body.limit }),
  }),
};
