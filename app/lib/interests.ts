/**
 * Interests (SPEC §3: `metadata.interests`, a comma-separated string) and the gender preference
 * they carry (SPEC §4: exactly one of "menswear" / "womenswear" among them means that gender,
 * otherwise both). Pure: used by the style-preferences service and the storefront's Account page.
 * The recommendation engine reads the same string (app/services/recommendations/scoring.ts).
 */
export type InterestGender = "menswear" | "womenswear" | "both";

export const GENDER_INTERESTS = ["menswear", "womenswear"] as const;
/** Words that describe gender rather than taste (not offered as suggestions). */
const GENDER_WORDS = new Set(["menswear", "womenswear", "both", "unisex"]);

/** A light plural stemmer (as the search's): "t-shirts" → "t-shirt", "dresses" → "dress", "hoodies" → "hoodie". */
function singularOf(w: string): string {
  if (w.length > 4 && /(sses|xes|ches|shes|zes)$/.test(w)) return w.slice(0, -2);
  if (w.length > 4 && w.endsWith("ies") && !/(hoodies|cookies|movies|ties)$/.test(w)) return `${w.slice(0, -3)}y`;
  if (w.length > 3 && w.endsWith("s") && !/(ss|us|is)$/.test(w)) return w.slice(0, -1);
  return w;
}

/**
 * What makes two interests the same (issue 20: "t-shirt" / "t-shirts" / "T Shirt" / "tshirts"):
 * case, spaces, hyphens and underscores, and the plural of the last word don't count. The
 * migration 20261128031500_merge_duplicate_interests applies the same rule to stored interests.
 */
export function interestKey(t: string): string {
  return singularOf(t.trim().toLowerCase().replace(/[\s_-]+/g, ""));
}

/**
 * `" Menswear, streetwear ,,Street-wear"` → `["menswear", "streetwear"]`: trimmed, lower-case, in
 * order, each interest once (the first spelling of the same interest kept, see interestKey).
 */
export function parseInterests(raw: string | readonly string[] | null | undefined): string[] {
  const parts = typeof raw === "string" ? raw.split(",") : raw ?? [];
  const out: string[] = [];
  const seen = new Set<string>();
  for (const p of parts) {
    // A comma inside one list entry would split it when the list is stored as text.
    for (const piece of String(p).split(",")) {
      const t = piece.trim().toLowerCase().replace(/\s+/g, " ");
      const key = interestKey(t);
      if (t && key && !seen.has(key)) {
        seen.add(key);
        out.push(t);
      }
    }
  }
  return out;
}

/** The stored form: comma-separated. */
export function formatInterests(list: readonly string[]): string {
  return parseInterests(list).join(",");
}

/** SPEC §4: exactly one of the two genders means that gender, otherwise both. */
export function genderOfInterests(raw: string | readonly string[] | null | undefined): InterestGender {
  const list = parseInterests(raw);
  const men = list.includes("menswear");
  const women = list.includes("womenswear");
  return men && !women ? "menswear" : women && !men ? "womenswear" : "both";
}

/**
 * The interests with a gender set: menswear or womenswear goes first and the other is taken out;
 * both takes both out (the other interests keep their order).
 */
export function withGender(raw: string | readonly string[] | null | undefined, gender: InterestGender): string[] {
  const rest = parseInterests(raw).filter((t) => t !== "menswear" && t !== "womenswear");
  return gender === "both" ? rest : [gender, ...rest];
}

/** The interests that describe taste (gender words left out). */
export function tasteInterests(raw: string | readonly string[] | null | undefined): string[] {
  return parseInterests(raw).filter((t) => !GENDER_WORDS.has(t));
}

/** Whether a word is a gender word rather than a taste (not shown as a suggestion). */
export const isGenderWord = (t: string) => GENDER_WORDS.has(t.trim().toLowerCase());
