/**
 * What shoppers may see of the catalogue, in one place: an active product that is published
 * (Shopify's meaning: `publishedAt` set, and not in the future — a future date is a scheduled
 * publication; `null` is unpublished).
 */
import type { Prisma } from "@prisma/client";

export function visibleProductWhere(now: Date = new Date()): Prisma.ProductWhereInput {
  return { status: "active", publishedAt: { not: null, lte: now } };
}
