/**
 * SQL fragments shared by the recommendation queries (raw SQL: the hot lists join popularity or
 * co-occurrence rows to products and must walk their score indexes).
 */
import { Prisma } from "@prisma/client";
import type { TargetGender } from "~/contract/common";

/** A timestamp parameter as `timestamp` (Prisma stores DateTime as UTC without a zone). */
export const ts = (d: Date) => Prisma.sql`${d.toISOString()}::timestamp`;

/** visibleProductWhere() of ../visibility.ts over the alias `p`: active and published by `now`. */
export const visibleSql = (now: Date) => Prisma.sql`p.status = 'active' AND p."publishedAt" IS NOT NULL AND p."publishedAt" <= ${ts(now)}`;

/** Products of these genders (compared as the enum, so the planner uses the column statistics). */
export const genderSql = (genders: TargetGender[]) => Prisma.sql`p.target_gender = ANY(${genders}::"TargetGender"[])`;
