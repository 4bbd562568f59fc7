import type { assistantEndpoints } from "~/contract/assistant";
import type { AppContext } from "~/context.server";
import { toProductGid } from "~/lib/gid";
import { getProductCards } from "~/services/catalog.server";
import type { AssistantDeps } from "~/services/assistant/answer.server";
import {
  ASSISTANT_PRODUCT_NOT_FOUND,
  closeConversation,
  createConversation,
  getConversation,
  listActiveConversations,
  listConversationMessages,
  recentOrCreateConversation,
  sendMessage,
} from "~/services/assistant/conversations.server";
import { generatePersonalizedCollection } from "~/services/assistant/personalized-collection.server";
import { notFound, unauthenticated } from "../errors.server";
import type { HandlersFor } from "../router.server";

const deps = (ctx: AppContext): AssistantDeps => ({ db: ctx.db, vectors: ctx.vectors, languageModel: ctx.languageModel, log: ctx.log });

export const assistantHandlers: HandlersFor<typeof assistantEndpoints> = {
  agentConversationsCreate: async ({ ctx, auth, input }) => {
    if (!auth.user) throw unauthenticated();
    return createConversation(ctx.db, auth.user, { title: input.body.title });
  },
  agentConversationsListActive: async ({ ctx, auth, input }) => {
    if (!auth.user) throw unauthenticated();
    return listActiveConversations(ctx.db, auth.user, input.query);
  },
  agentConversationsRecentOrCreate: async ({ ctx, auth }) => {
    if (!auth.user) throw unauthenticated();
    return recentOrCreateConversation(ctx.db, auth.user);
  },
  agentConversationsGet: async ({ ctx, auth, input }) => {
    if (!auth.user) throw unauthenticated();
    return getConversation(ctx.db, auth.user, input.params.id);
  },
  agentConversationsMessages: async ({ ctx, auth, input }) => {
    if (!auth.user) throw unauthenticated();
    return listConversationMessages(ctx.db, auth.user, input.params.id, input.query);
  },
  agentConversationsSendMessage: async ({ ctx, auth, input, log }) => {
    if (!auth.user) throw unauthenticated();
    return sendMessage({ ...deps(ctx), log }, auth.user, input.params.id, input.body);
  },
  agentConversationsClose: async ({ ctx, auth, input }) => {
    if (!auth.user) throw unauthenticated();
    return closeConversation(ctx.db, auth.user, input.params.id);
  },
  agentNluQuery: async ({ ctx, auth, input }) => {
    if (!auth.user) throw unauthenticated();
    let product = null;
    if (input.body.product_id) {
      const card = (await getProductCards(ctx.db, [toProductGid(input.body.product_id)]))[0];
      if (!card) throw notFound(ASSISTANT_PRODUCT_NOT_FOUND);
      product = { id: card.id, title: card.title.slice(0, 300), productType: card.productType.slice(0, 120) };
    }
    return ctx.languageModel.understand({ message: input.body.query, product });
  },
  userCollectionsGeneratePersonalized: async ({ ctx, auth, input, log }) => {
    if (!auth.user) throw unauthenticated();
    return { data: await generatePersonalizedCollection({ ...deps(ctx), log }, auth.user, input.body.prompt) };
  },
  usersGeneratePersonalizedCollection: async ({ ctx, auth, input, log }) => {
    if (!auth.user) throw unauthenticated();
    return generatePersonalizedCollection({ ...deps(ctx), log }, auth.user, input.body.prompt);
  },
};
