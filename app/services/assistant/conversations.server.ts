/**
 * Assistant conversations, per user (SPEC §7 agent conversations). Every function takes the
 * caller and only reads or changes the caller's conversations: another shopper's conversation is
 * "Conversation not found" (404), as one that does not exist.
 *
 * A message turn stores the shopper's message and the assistant's reply together (one
 * transaction, the reply 1 ms after the message so the order is stable). The reply's products,
 * links, suggestions, intent and slots are kept in Message.metadata (product ids only: the cards
 * are read when the messages are, so a product that is hidden later drops out).
 */
import type { Conversation, Prisma, User } from "@prisma/client";
import type { AgentConversation, AgentMessage } from "~/contract/assistant";
import { AGENT_CONVERSATION_MAX_MESSAGES, AGENT_CONVERSATION_MESSAGES, AGENT_RECENT_DAYS } from "~/contract/assistant";
import type { ProductCard } from "~/contract/products";
import { conflictError, invalid, notFoundError } from "~/lib/domain-errors";
import { toProductGid } from "~/lib/gid";
import type { Db } from "~/db.server";
import { getProductCards } from "../catalog.server";
import { withMatchedVariants } from "../search/search.server";
import { answerMessage, readMetadata, type AssistantDeps, type HistoryMessage } from "./answer.server";

export const CONVERSATION_NOT_FOUND = "Conversation not found";
export const CONVERSATION_CLOSED = "This conversation is closed: start a new one";
export const CONVERSATION_FULL = "This conversation is full: start a new one";
export const ASSISTANT_PRODUCT_NOT_FOUND = "Product not found";
/** Earlier messages read to answer a new one. */
const CONTEXT_MESSAGES = 12;
const TITLE_MAX = 60;
const PREVIEW_MAX = 140;

type Caller = Pick<User, "id">;

const conversationInclude = {
  _count: { select: { messages: true } },
  messages: { orderBy: [{ created_at: "desc" }, { id: "desc" }], take: 1, select: { content: true } },
} satisfies Prisma.ConversationInclude;
type ConversationRow = Prisma.ConversationGetPayload<{ include: typeof conversationInclude }>;

const shorten = (s: string, max: number) => {
  const t = s.replace(/\s+/g, " ").trim();
  return t.length > max ? `${t.slice(0, max - 1).trimEnd()}…` : t;
};

export function toConversation(c: ConversationRow): AgentConversation {
  return {
    id: c.id,
    title: c.title,
    status: c.status,
    created_at: c.created_at.toISOString(),
    updated_at: c.updated_at.toISOString(),
    last_message_at: c.last_message_at?.toISOString() ?? null,
    messageCount: c._count.messages,
    preview: c.messages[0] ? shorten(c.messages[0].content, PREVIEW_MAX) : null,
  };
}

type MessageRow = { id: string; conversation_id: string; role: "user" | "assistant"; content: string; product_id: string | null; metadata: Prisma.JsonValue; created_at: Date };

/** Messages as the API shows them, with the products of assistant messages read in one query. */
export async function toMessages(db: Db, rows: MessageRow[]): Promise<AgentMessage[]> {
  const metas = rows.map((r) => (r.role === "assistant" ? readMetadata(r.metadata) : null));
  const ids = [...new Set(metas.flatMap((m) => m?.productIds ?? []))];
  const cards = new Map<string, ProductCard>((ids.length ? await getProductCards(db, ids) : []).map((c) => [c.id, c]));
  // A colour asked for: each card shows its variant of that colour (as the search's cards do).
  const shown = await Promise.all(
    metas.map((meta) => {
      const list = (meta?.productIds ?? []).flatMap((id) => (cards.has(id) ? [cards.get(id)!] : []));
      return meta?.matchColours?.length ? withMatchedVariants(db, list, meta.matchColours) : list;
    }),
  );
  return rows.map((r, i) => {
    const meta = metas[i];
    return {
      id: r.id,
      conversation_id: r.conversation_id,
      role: r.role,
      content: r.content,
      product_id: r.product_id,
      created_at: r.created_at.toISOString(),
      intent: meta?.intent ?? null,
      products: shown[i],
      links: meta?.links ?? [],
      suggestions: meta?.suggestions ?? [],
      citations: meta?.citations ?? [],
    };
  });
}

// --- cursors (keyset: newest first) -------------------------------------------------------------

export function encodeKeyset(at: Date, id: string): string {
  return Buffer.from(JSON.stringify({ t: at.toISOString(), i: id })).toString("base64url");
}

export function decodeKeyset(cursor: string | undefined): { at: Date; id: string } | null {
  if (!cursor) return null;
  try {
    const v = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as { t?: unknown; i?: unknown };
    if (typeof v.t === "string" && typeof v.i === "string") {
      const at = new Date(v.t);
      if (!Number.isNaN(at.getTime())) return { at, id: v.i };
    }
  } catch {
    /* below */
  }
  throw invalid("cursor is invalid");
}

// --- reads ----------------------------------------------------------------------------------------

async function ownConversation(db: Db, caller: Caller, id: string): Promise<ConversationRow> {
  const c = await db.conversation.findFirst({ where: { id, user_id: caller.id }, include: conversationInclude });
  if (!c) throw notFoundError(CONVERSATION_NOT_FOUND);
  return c;
}

/** A page of messages, newest page first; each page oldest first. */
async function messagePage(db: Db, conversationId: string, q: { cursor?: string; limit: number }) {
  const before = decodeKeyset(q.cursor);
  const rows = await db.message.findMany({
    where: {
      conversation_id: conversationId,
      ...(before ? { OR: [{ created_at: { lt: before.at } }, { created_at: before.at, id: { lt: before.id } }] } : {}),
    },
    orderBy: [{ created_at: "desc" }, { id: "desc" }],
    take: q.limit + 1,
    select: { id: true, conversation_id: true, role: true, content: true, product_id: true, metadata: true, created_at: true },
  });
  const page = rows.slice(0, q.limit);
  const oldest = page[page.length - 1];
  return { items: await toMessages(db, page.reverse()), nextCursor: rows.length > q.limit && oldest ? encodeKeyset(oldest.created_at, oldest.id) : null };
}

async function withMessages(db: Db, c: ConversationRow) {
  const page = await messagePage(db, c.id, { limit: AGENT_CONVERSATION_MESSAGES });
  return { ...toConversation(c), messages: page.items, messagesCursor: page.nextCursor };
}

export async function createConversation(db: Db, caller: Caller, input: { title?: string }) {
  const c = await db.conversation.create({ data: { user_id: caller.id, title: input.title ? shorten(input.title, 120) : null }, include: conversationInclude });
  return withMessages(db, c);
}

export async function listActiveConversations(db: Db, caller: Caller, q: { cursor?: string; limit: number }) {
  const after = decodeKeyset(q.cursor);
  const rows = await db.conversation.findMany({
    where: {
      user_id: caller.id,
      status: "active",
      ...(after ? { OR: [{ updated_at: { lt: after.at } }, { updated_at: after.at, id: { lt: after.id } }] } : {}),
    },
    orderBy: [{ updated_at: "desc" }, { id: "desc" }],
    take: q.limit + 1,
    include: conversationInclude,
  });
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  return { items: page.map(toConversation), nextCursor: rows.length > q.limit && last ? encodeKeyset(last.updated_at, last.id) : null };
}

/** The latest active conversation with activity in the last AGENT_RECENT_DAYS days, else a new one. */
export async function recentOrCreateConversation(db: Db, caller: Caller, now = new Date()) {
  const since = new Date(now.getTime() - AGENT_RECENT_DAYS * 86_400_000);
  const recent = await db.conversation.findFirst({
    where: { user_id: caller.id, status: "active", updated_at: { gte: since } },
    orderBy: [{ updated_at: "desc" }, { id: "desc" }],
    include: conversationInclude,
  });
  if (recent) return { ...(await withMessages(db, recent)), created: false };
  return { ...(await createConversation(db, caller, {})), created: true };
}

export async function getConversation(db: Db, caller: Caller, id: string) {
  return withMessages(db, await ownConversation(db, caller, id));
}

export async function listConversationMessages(db: Db, caller: Caller, id: string, q: { cursor?: string; limit: number }) {
  const c = await ownConversation(db, caller, id);
  return messagePage(db, c.id, q);
}

export async function closeConversation(db: Db, caller: Caller, id: string): Promise<AgentConversation> {
  const c = await ownConversation(db, caller, id);
  if (c.status === "closed") return toConversation(c);
  const updated = await db.conversation.update({ where: { id: c.id }, data: { status: "closed" }, include: conversationInclude });
  return toConversation(updated);
}

// --- a message turn -------------------------------------------------------------------------------

export async function sendMessage(deps: AssistantDeps, caller: User, id: string, input: { content: string; product_id?: string | null }) {
  const { db } = deps;
  const c: Conversation & { _count: { messages: number } } = await ownConversation(db, caller, id);
  if (c.status === "closed") throw conflictError(CONVERSATION_CLOSED);
  if (c._count.messages + 2 > AGENT_CONVERSATION_MAX_MESSAGES) throw conflictError(CONVERSATION_FULL);

  let product: ProductCard | null = null;
  if (input.product_id) {
    product = (await getProductCards(db, [toProductGid(input.product_id)]))[0] ?? null;
    if (!product) throw notFoundError(ASSISTANT_PRODUCT_NOT_FOUND);
  }

  const history: HistoryMessage[] = (
    await db.message.findMany({
      where: { conversation_id: c.id },
      orderBy: [{ created_at: "desc" }, { id: "desc" }],
      take: CONTEXT_MESSAGES,
      select: { role: true, content: true, product_id: true, metadata: true },
    })
  ).reverse();

  const answer = await answerMessage(deps, { user: caller, message: input.content, product, history });

  const at = new Date();
  const replyAt = new Date(at.getTime() + 1);
  const select = { id: true, conversation_id: true, role: true, content: true, product_id: true, metadata: true, created_at: true } as const;
  const [message, reply] = await db.$transaction(async (tx) => {
    const m = await tx.message.create({ data: { conversation_id: c.id, role: "user", content: input.content, product_id: product?.id ?? null, created_at: at }, select });
    const r = await tx.message.create({
      data: { conversation_id: c.id, role: "assistant", content: answer.text, metadata: answer.metadata as unknown as Prisma.InputJsonObject, created_at: replyAt },
      select,
    });
    await tx.conversation.update({ where: { id: c.id }, data: { last_message_at: replyAt, ...(c.title ? {} : { title: shorten(input.content, TITLE_MAX) }) } });
    return [m, r];
  });
  const [messageDto, replyDto] = await toMessages(db, [message, reply]);
  deps.log.info({ conversationId: c.id, intent: answer.metadata.intent, products: answer.products.length, citations: answer.citations.length, provider: answer.metadata.provider }, "assistant answered");
  return { conversation: toConversation(await ownConversation(db, caller, c.id)), message: messageDto, reply: replyDto };
}
