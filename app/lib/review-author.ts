/**
 * The name shown on a review (SPEC §5): the author's first name, else the part of their email
 * before the at-sign, else "Anonymous". Pure; used by the review services and tested in
 * tests/unit/review-author.test.ts.
 */
export const ANONYMOUS_AUTHOR = "Anonymous";

export function reviewAuthorName(author: { first_name?: string | null; email?: string | null } | null | undefined): string {
  const first = author?.first_name?.trim();
  if (first) return first.slice(0, 100);
  const local = (author?.email ?? "").trim().split("@")[0].trim();
  if (local) return local.slice(0, 100);
  return ANONYMOUS_AUTHOR;
}
