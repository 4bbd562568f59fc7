/**
 * Knowledge entries (app/contract/knowledge.ts): the admins' CRUD and the public read of one entry.
 * Titles are unique regardless of case: an answer cites an entry by its title, and two entries
 * with one title would be indistinguishable to the shopper.
 */
import { Prisma, type KnowledgeEntry as KnowledgeRow } from "@prisma/client";
import { KnowledgeMessages, type KnowledgeEntry } from "~/contract/knowledge";
import { conflictError, notFoundError } from "~/lib/domain-errors";
import type { Db } from "~/db.server";

export const toKnowledgeEntry = (r: KnowledgeRow): KnowledgeEntry => ({
  id: r.id,
  title: r.title,
  content: r.content,
  tags: r.tags,
  source: r.source,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
});

export interface KnowledgeListQuery {
  q?: string;
  tag?: string;
  skip: number;
  take: number;
}

/** Entries matching every word of `q` (title, content or tag) and the tag, newest first, with the tags in use. */
export async function listKnowledge(db: Db, query: KnowledgeListQuery) {
  const words = (query.q ?? "").split(/\s+/).filter(Boolean).slice(0, 10);
  const where: Prisma.KnowledgeEntryWhereInput = {
    AND: [
      ...words.map((w) => ({
        OR: [{ title: { contains: w, mode: "insensitive" as const } }, { content: { contains: w, mode: "insensitive" as const } }, { tags: { has: w.toLowerCase() } }],
      })),
      ...(query.tag ? [{ tags: { has: query.tag } }] : []),
    ],
  };
  const [rows, total, tags] = await Promise.all([
    db.knowledgeEntry.findMany({ where, orderBy: [{ created_at: "desc" }, { id: "asc" }], skip: query.skip, take: query.take }),
    db.knowledgeEntry.count({ where }),
    db.$queryRaw<{ tag: string; count: number }[]>`SELECT tag, COUNT(*)::int AS count FROM knowledge_entries, unnest(tags) AS tag GROUP BY tag ORDER BY count DESC, tag ASC LIMIT 200`,
  ]);
  return { items: rows.map(toKnowledgeEntry), total, skip: query.skip, take: query.take, tags };
}

export async function getKnowledge(db: Db, id: string): Promise<KnowledgeEntry> {
  const row = await db.knowledgeEntry.findUnique({ where: { id } });
  if (!row) throw notFoundError(KnowledgeMessages.NOT_FOUND);
  return toKnowledgeEntry(row);
}

async function assertTitleFree(db: Db, title: string, exceptId?: string) {
  const same = await db.knowledgeEntry.findFirst({ where: { title: { equals: title, mode: "insensitive" }, ...(exceptId ? { id: { not: exceptId } } : {}) }, select: { id: true } });
  if (same) throw conflictError(KnowledgeMessages.DUPLICATE_TITLE, { id: same.id });
}

export async function createKnowledge(db: Db, input: { title: string; content: string; tags: string[]; source: string | null }): Promise<KnowledgeEntry> {
  await assertTitleFree(db, input.title);
  return toKnowledgeEntry(await db.knowledgeEntry.create({ data: input }));
}

export async function updateKnowledge(db: Db, id: string, input: { title?: string; content?: string; tags?: string[]; source?: string | null }): Promise<KnowledgeEntry> {
  const existing = await db.knowledgeEntry.findUnique({ where: { id }, select: { id: true } });
  if (!existing) throw notFoundError(KnowledgeMessages.NOT_FOUND);
  if (input.title !== undefined) await assertTitleFree(db, input.title, id);
  const data: Prisma.KnowledgeEntryUpdateInput = {};
  if (input.title !== undefined) data.title = input.title;
  if (input.content !== undefined) data.content = input.content;
  if (input.tags !== undefined) data.tags = input.tags;
  if (input.source !== undefined) data.source = input.source;
  return toKnowledgeEntry(await db.knowledgeEntry.update({ where: { id }, data }));
}

export async function deleteKnowledge(db: Db, id: string): Promise<{ id: string; deleted: true }> {
  const { count } = await db.knowledgeEntry.deleteMany({ where: { id } });
  if (count === 0) throw notFoundError(KnowledgeMessages.NOT_FOUND);
  return { id, deleted: true };
}
