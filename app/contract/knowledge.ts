/**
 * The knowledge base behind the shopping assistant (SPEC §7 "knowledge", payloads not shown;
 * issue 19): short articles on fit and sizing, garment care, materials, style and the store's
 * policies. Admins with `knowledge.manage` write them; the assistant retrieves them (full text +
 * word vectors) and cites them in its answers, and anyone may open one it cited.
 *
 * Paths (the spec leaves them open):
 *   GET    /knowledge                 admin list: search (title, content, tags), tag filter, skip/take + total, tag counts
 *   POST   /knowledge                 create (201)
 *   GET    /knowledge/{id}            one entry (public: the assistant's citations link to it)
 *   PATCH  /knowledge/{id}            edit any of title, content, tags, source
 *   DELETE /knowledge/{id}            delete
 *   POST   /knowledge/search          admin: the entries the assistant would cite for a question (with scores)
 */
import { z } from "zod";
import { access, endpoint } from "./endpoint";
import { IsoDate, intParam } from "./common";

export const KNOWLEDGE_TITLE_MAX = 160;
export const KNOWLEDGE_CONTENT_MAX = 8000;
export const KNOWLEDGE_TAGS_MAX = 20;
export const KNOWLEDGE_TAG_MAX = 40;
export const KNOWLEDGE_SOURCE_MAX = 500;
export const KNOWLEDGE_PAGE = 20;
export const KNOWLEDGE_QUESTION_MAX = 1000;

export const KnowledgeMessages = {
  NOT_FOUND: "Knowledge entry not found",
  DUPLICATE_TITLE: "A knowledge entry with this title already exists",
} as const;

const Id = z
  .string()
  .trim()
  .min(1, "An id is required")
  .max(100, "must be at most 100 characters")
  .refine((v) => v !== "undefined" && v !== "null", "An id is required");
const IdParams = z.object({ id: Id });

/** Tags are kept lower case and hyphenated ("Dry clean" → "dry-clean"), so filters and retrieval match them exactly. */
export const normaliseKnowledgeTag = (t: string) =>
  t
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, "-")
    .replace(/[^a-z0-9-]+/g, "")
    .replace(/-{2,}/g, "-")
    .replace(/^-+|-+$/g, "");

const Tags = z
  .array(z.string().max(KNOWLEDGE_TAG_MAX, `a tag must be at most ${KNOWLEDGE_TAG_MAX} characters`))
  .max(KNOWLEDGE_TAGS_MAX, `at most ${KNOWLEDGE_TAGS_MAX} tags`)
  .transform((tags) => [...new Set(tags.map(normaliseKnowledgeTag).filter(Boolean))]);

const Title = z.string().trim().min(1, "must not be empty").max(KNOWLEDGE_TITLE_MAX, `must be at most ${KNOWLEDGE_TITLE_MAX} characters`);
const Content = z.string().trim().min(1, "must not be empty").max(KNOWLEDGE_CONTENT_MAX, `must be at most ${KNOWLEDGE_CONTENT_MAX} characters`);
/** Where the advice comes from (a policy page, a mill's care label); blank is none. */
const Source = z
  .string()
  .trim()
  .max(KNOWLEDGE_SOURCE_MAX, `must be at most ${KNOWLEDGE_SOURCE_MAX} characters`)
  .nullable()
  .optional()
  .transform((v) => (v ? v : null));

export const KnowledgeEntrySchema = z.object({
  id: z.string(),
  title: z.string(),
  content: z.string(),
  tags: z.array(z.string()),
  source: z.string().nullable(),
  created_at: IsoDate,
  updated_at: IsoDate,
});
export type KnowledgeEntry = z.output<typeof KnowledgeEntrySchema>;

export const KnowledgeCreateBody = z.object({ title: Title, content: Content, tags: Tags.default([]), source: Source });
/** In an edit, a missing source keeps the entry's; null or "" clears it. */
const SourceEdit = z
  .string()
  .trim()
  .max(KNOWLEDGE_SOURCE_MAX, `must be at most ${KNOWLEDGE_SOURCE_MAX} characters`)
  .nullable()
  .optional()
  .transform((v) => (v === undefined ? undefined : v || null));
export const KnowledgeUpdateBody = z
  .object({ title: Title.optional(), content: Content.optional(), tags: Tags.optional(), source: SourceEdit })
  .refine((b) => b.title !== undefined || b.content !== undefined || b.tags !== undefined || b.source !== undefined, "Nothing to change: send title, content, tags or source");

export const KnowledgeListQuery = z.object({
  /** Words of the title, content or tags. */
  q: z.string().trim().max(200).optional(),
  tag: z
    .string()
    .max(KNOWLEDGE_TAG_MAX)
    .transform(normaliseKnowledgeTag)
    .optional()
    .transform((v) => v || undefined),
  skip: intParam(0, 0, 100_000),
  take: intParam(KNOWLEDGE_PAGE, 1, 100),
});

export const KnowledgeListSchema = z.object({
  items: z.array(KnowledgeEntrySchema),
  total: z.number().int(),
  skip: z.number().int(),
  take: z.number().int(),
  /** Every tag in use with its number of entries, most used first (the list's tag filter). */
  tags: z.array(z.object({ tag: z.string(), count: z.number().int() })),
});

export const KnowledgeSearchBody = z.object({
  question: z.string().trim().min(1, "must not be empty").max(KNOWLEDGE_QUESTION_MAX, `must be at most ${KNOWLEDGE_QUESTION_MAX} characters`),
  /** Material and garment words of the product the question is about ("linen", "shirts"). */
  context_tags: z.array(z.string().max(KNOWLEDGE_TAG_MAX)).max(KNOWLEDGE_TAGS_MAX).default([]),
  limit: z.number().int().min(1).max(20).default(5),
});

export const KnowledgeHitSchema = z.object({
  entry: KnowledgeEntrySchema,
  score: z.number(),
  /** The parts of the score: full-text rank (normalised), word-vector cosine, tag matches. */
  lexical: z.number(),
  semantic: z.number(),
  tags: z.number(),
  /** Whether the assistant would cite it (score at or above its threshold). */
  cited: z.boolean(),
});

/** A cited entry in an assistant message. */
export const KnowledgeCitationSchema = z.object({
  id: z.string(),
  title: z.string(),
  source: z.string().nullable(),
  /** The passage the answer used. */
  excerpt: z.string(),
});
export type KnowledgeCitation = z.output<typeof KnowledgeCitationSchema>;

const adminAccess = access.admin("knowledge.manage");

export const knowledgeEndpoints = {
  knowledgeList: endpoint({
    method: "GET",
    path: "/knowledge",
    summary: "Knowledge entries, newest first: search by words, filter by tag, skip/take with total and the tags in use",
    tags: ["Knowledge"],
    access: adminAccess,
    query: KnowledgeListQuery,
    response: KnowledgeListSchema,
  }),
  knowledgeCreate: endpoint({
    method: "POST",
    path: "/knowledge",
    summary: "Create a knowledge entry (title, content, tags, source); tags are stored lower case and hyphenated",
    tags: ["Knowledge"],
    access: adminAccess,
    body: KnowledgeCreateBody,
    response: KnowledgeEntrySchema,
    status: 201,
  }),
  knowledgeGet: endpoint({
    method: "GET",
    path: "/knowledge/{id}",
    summary: "One knowledge entry (public: the assistant's answers cite entries by id)",
    tags: ["Knowledge"],
    access: access.public,
    params: IdParams,
    response: KnowledgeEntrySchema,
  }),
  knowledgeUpdate: endpoint({
    method: "PATCH",
    path: "/knowledge/{id}",
    summary: "Edit a knowledge entry",
    tags: ["Knowledge"],
    access: adminAccess,
    params: IdParams,
    body: KnowledgeUpdateBody,
    response: KnowledgeEntrySchema,
  }),
  knowledgeDelete: endpoint({
    method: "DELETE",
    path: "/knowledge/{id}",
    summary: "Delete a knowledge entry (answers already given keep their citation's title)",
    tags: ["Knowledge"],
    access: adminAccess,
    params: IdParams,
    response: z.object({ id: z.string(), deleted: z.literal(true) }),
  }),
  knowledgeSearch: endpoint({
    method: "POST",
    path: "/knowledge/search",
    summary: "The entries the assistant retrieves for a question, best first, with their scores (to check what it would cite)",
    tags: ["Knowledge"],
    access: adminAccess,
    body: KnowledgeSearchBody,
    response: z.object({ items: z.array(KnowledgeHitSchema) }),
  }),
};
