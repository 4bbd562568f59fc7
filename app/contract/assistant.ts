/**
 * The shopping assistant (SPEC §7 "agent conversations: create, list active, send message with
 * content and product_id, recent-or-create, nlu-query") and the personalised collections built
 * from a prompt (SPEC §7 user collections "generate-personalized-collection", users
 * "personalised collection generation").
 *
 * Access: any signed-in user, guests included (`access.user`): a guest gets a session on first
 * visit and may chat at once; their conversations and collections move into the account when they
 * sign in (merge-guest-into-me). Conversations are per user: another shopper's conversation
 * answers 404 "Conversation not found", the same as one that does not exist.
 *
 * Paths (the spec leaves them open):
 *   POST /agent/conversations                      create (201)
 *   GET  /agent/conversations/active               the caller's active conversations, latest activity first (cursor)
 *   POST /agent/conversations/recent-or-create     the latest active conversation of the last 7 days, else a new one
 *   GET  /agent/conversations/{id}                 one conversation with its latest 50 messages
 *   GET  /agent/conversations/{id}/messages        older messages (cursor)
 *   POST /agent/conversations/{id}/messages        {content, product_id?} → the shopper's message and the assistant's reply (201)
 *   POST /agent/conversations/{id}/close           close it (idempotent); a closed conversation takes no messages (409)
 *   POST /agent/nlu-query                          {query, product_id?} → intent and slots
 */
import { z } from "zod";
import { access, endpoint } from "./endpoint";
import { IsoDate, TargetGender, intParam } from "./common";
import { ProductCardSchema } from "./products";
import { UserCollectionSchema } from "./user-collections";
import { KnowledgeCitationSchema } from "./knowledge";
import { toProductGid } from "../lib/gid";

export const AGENT_INTENTS = ["find_products", "similar_products", "complete_the_look", "size_help", "order_status", "advice", "greeting", "help", "unknown"] as const;
export const AgentIntent = z.enum(AGENT_INTENTS);
export const AGENT_MESSAGE_MAX = 1000;
/** Messages in one conversation (both sides); a full conversation takes no more (409). */
export const AGENT_CONVERSATION_MAX_MESSAGES = 400;
/** Messages in GET /agent/conversations/{id}. */
export const AGENT_CONVERSATION_MESSAGES = 50;
/** recent-or-create continues an active conversation with activity in this many days. */
export const AGENT_RECENT_DAYS = 7;
export const PERSONALIZED_PROMPT_MAX = 300;

const ConversationIdParams = z.object({ id: z.string().trim().min(1).max(100) });

/** A product id with a message: GID or bare numeric id; blank is "none". */
const OptionalProductId = z
  .string()
  .trim()
  .max(200)
  .nullable()
  .optional()
  .transform((v) => (v && v !== "undefined" && v !== "null" ? toProductGid(v) : null));

export const AgentSlotsSchema = z.object({
  colors: z.array(z.string()),
  materials: z.array(z.string()),
  productTypes: z.array(z.string()),
  sizes: z.array(z.string()),
  priceMin: z.number().nullable(),
  priceMax: z.number().nullable(),
  target_gender: TargetGender.nullable(),
  storeIds: z.array(z.string()),
  text: z.string(),
  product_id: z.string().nullable(),
});

export const AgentLinkSchema = z.object({ label: z.string(), href: z.string() });

export const AgentMessageSchema = z.object({
  id: z.string(),
  conversation_id: z.string(),
  role: z.enum(["user", "assistant"]),
  content: z.string(),
  /** The product a shopper's message was about. */
  product_id: z.string().nullable(),
  created_at: IsoDate,
  /** Assistant messages: what the message was understood as. */
  intent: AgentIntent.nullable(),
  /** Assistant messages: the products of the answer (those still shown to shoppers). */
  products: z.array(ProductCardSchema),
  /** Assistant messages: where to go next ("See all results", "My orders"). */
  links: z.array(AgentLinkSchema),
  /** Assistant messages: follow-up messages to send with one tap. */
  suggestions: z.array(z.string()),
  /** Assistant messages: the knowledge entries the answer quotes (GET /knowledge/{id} reads one in full). */
  citations: z.array(KnowledgeCitationSchema),
});
export type AgentMessage = z.output<typeof AgentMessageSchema>;

export const AgentConversationSchema = z.object({
  id: z.string(),
  title: z.string().nullable(),
  status: z.enum(["active", "closed"]),
  created_at: IsoDate,
  updated_at: IsoDate,
  last_message_at: IsoDate.nullable(),
  messageCount: z.number().int(),
  /** The latest message, shortened (lists). */
  preview: z.string().nullable(),
});
export type AgentConversation = z.output<typeof AgentConversationSchema>;

export const AgentConversationWithMessagesSchema = AgentConversationSchema.extend({
  /** The latest messages, oldest first. */
  messages: z.array(AgentMessageSchema),
  /** Older messages exist (GET …/messages with `cursor` = messagesCursor). */
  messagesCursor: z.string().nullable(),
});

export const NluQueryResultSchema = z.object({
  intent: AgentIntent,
  confidence: z.number(),
  slots: AgentSlotsSchema,
  /** The search phrase the discovery engine runs. */
  query: z.string(),
  /** Which language model understood it (`local` also when the hosted one failed or answered invalid JSON). */
  provider: z.enum(["local", "openai"]),
});

export const PersonalizedCollectionSchema = UserCollectionSchema.extend({
  /** The collection's products, in its order. */
  products: z.array(ProductCardSchema),
});

const PromptBody = z.object({
  prompt: z
    .string()
    .trim()
    .min(3, 'needs a few words, e.g. "linen shirts for summer"')
    .max(PERSONALIZED_PROMPT_MAX, `must be at most ${PERSONALIZED_PROMPT_MAX} characters`),
});

export const assistantEndpoints = {
  agentConversationsCreate: endpoint({
    method: "POST",
    path: "/agent/conversations",
    summary: "Start a conversation with the shopping assistant",
    tags: ["Assistant"],
    access: access.user,
    body: z.object({ title: z.string().trim().min(1).max(120).optional() }),
    response: AgentConversationWithMessagesSchema,
    status: 201,
  }),
  agentConversationsListActive: endpoint({
    method: "GET",
    path: "/agent/conversations/active",
    summary: "The caller's active conversations, latest activity first",
    tags: ["Assistant"],
    access: access.user,
    query: z.object({ cursor: z.string().trim().max(500).optional(), limit: intParam(20, 1, 50) }),
    response: z.object({ items: z.array(AgentConversationSchema), nextCursor: z.string().nullable() }),
  }),
  agentConversationsRecentOrCreate: endpoint({
    method: "POST",
    path: "/agent/conversations/recent-or-create",
    summary: `The caller's latest active conversation with activity in the last ${AGENT_RECENT_DAYS} days (with its messages), else a new one`,
    tags: ["Assistant"],
    access: access.user,
    response: AgentConversationWithMessagesSchema.extend({ created: z.boolean() }),
  }),
  agentConversationsGet: endpoint({
    method: "GET",
    path: "/agent/conversations/{id}",
    summary: `One of the caller's conversations with its latest ${AGENT_CONVERSATION_MESSAGES} messages`,
    tags: ["Assistant"],
    access: access.user,
    params: ConversationIdParams,
    response: AgentConversationWithMessagesSchema,
  }),
  agentConversationsMessages: endpoint({
    method: "GET",
    path: "/agent/conversations/{id}/messages",
    summary: "Messages of a conversation, newest page first (each page oldest first); `nextCursor` reads older ones",
    tags: ["Assistant"],
    access: access.user,
    params: ConversationIdParams,
    query: z.object({ cursor: z.string().trim().max(500).optional(), limit: intParam(AGENT_CONVERSATION_MESSAGES, 1, 100) }),
    response: z.object({ items: z.array(AgentMessageSchema), nextCursor: z.string().nullable() }),
  }),
  agentConversationsSendMessage: endpoint({
    method: "POST",
    path: "/agent/conversations/{id}/messages",
    summary: "Send a message (content, optional product_id); answers the stored message and the assistant's reply with products",
    tags: ["Assistant"],
    access: access.user,
    rateLimit: "language",
    params: ConversationIdParams,
    body: z.object({
      content: z.string().trim().min(1, "must not be empty").max(AGENT_MESSAGE_MAX, `must be at most ${AGENT_MESSAGE_MAX} characters`),
      product_id: OptionalProductId,
    }),
    response: z.object({ conversation: AgentConversationSchema, message: AgentMessageSchema, reply: AgentMessageSchema }),
    status: 201,
  }),
  agentConversationsClose: endpoint({
    method: "POST",
    path: "/agent/conversations/{id}/close",
    summary: "Close (archive) a conversation; it stays readable",
    tags: ["Assistant"],
    access: access.user,
    params: ConversationIdParams,
    response: AgentConversationSchema,
  }),
  agentNluQuery: endpoint({
    method: "POST",
    path: "/agent/nlu-query",
    summary: "What a message means to the assistant: intent, slots (colours, types, sizes, prices, gender, stores, words) and the search phrase",
    tags: ["Assistant"],
    access: access.user,
    rateLimit: "language",
    body: z.object({
      query: z.string().trim().min(1, "must not be empty").max(AGENT_MESSAGE_MAX, `must be at most ${AGENT_MESSAGE_MAX} characters`),
      product_id: OptionalProductId,
    }),
    response: NluQueryResultSchema,
  }),
  userCollectionsGeneratePersonalized: endpoint({
    method: "POST",
    path: "/user-collections/generate-personalized-collection",
    summary:
      "Create an AI-generated collection (is_ai_generated, prompt) from a prompt, ranked by the discovery engine with the caller's gender and interests; 422 when nothing matches",
    tags: ["User collections"],
    access: access.user,
    rateLimit: "language",
    body: PromptBody,
    response: z.object({ data: PersonalizedCollectionSchema }),
    status: 201,
  }),
  usersGeneratePersonalizedCollection: endpoint({
    method: "POST",
    path: "/users/personalized-collection",
    summary: "The users' variant of generate-personalized-collection (same collection, not wrapped in data)",
    tags: ["User collections"],
    access: access.user,
    rateLimit: "language",
    body: PromptBody,
    response: PersonalizedCollectionSchema,
    status: 201,
  }),
};
