/**
 * Opaque keyset cursors for lists shown newest first: (created_at desc, id desc). A page ends
 * with the cursor of its last row; the next page is the rows after it, so inserts between pages
 * neither repeat nor skip rows.
 */
import { invalid } from "./domain-errors";

export interface NewestFirstCursor {
  created: Date;
  id: string;
}

export function encodeNewestFirstCursor(created: Date, id: string): string {
  return Buffer.from(JSON.stringify([created.toISOString(), id])).toString("base64url");
}

/** The cursor's position, null for the first page; a cursor that is not ours → invalid (400). */
export function decodeNewestFirstCursor(cursor: string | undefined): NewestFirstCursor | null {
  if (!cursor) return null;
  try {
    const v = JSON.parse(Buffer.from(cursor, "base64url").toString()) as unknown;
    if (Array.isArray(v) && v.length === 2 && typeof v[0] === "string" && typeof v[1] === "string") {
      const created = new Date(v[0]);
      if (!Number.isNaN(created.getTime())) return { created, id: v[1] };
    }
  } catch {
    /* fall through */
  }
  throw invalid("cursor is invalid: pass the nextCursor of the previous page");
}

/** A Prisma where for the rows after the cursor in (created_at desc, id desc) order. */
export const rowsAfterCursor = (c: NewestFirstCursor | null) => (c ? { OR: [{ created_at: { lt: c.created } }, { created_at: c.created, id: { lt: c.id } }] } : {});
