/**
 * The product ad's workflow as a state machine (docs/product-ads.md "Product ads and their moves").
 * Pure: the service asks it before every move, edit and delete (under the ad's row lock), the API
 * answers `allowedMoves` from it, the screens show buttons from that, and
 * tests/unit/product-ad-status.test.ts walks every status × move × actor.
 *
 *              complete               approve              publish
 *   PENDING ───────────▶ COMPLETED ───────────▶ APPROVED ───────────▶ LIVE
 *                   ▲        │                                       │  ▲
 *          complete │        │ feedback                    unpublish │  │ publish
 *                   │        ▼                                       ▼  │
 *              FEEDBACK_PENDING                                    INACTIVE
 *
 * Who: the team (an admin with `ads.manage`) may make every move; the ad's vendor may approve,
 * send feedback and unpublish (stop spending). The caller is checked before the status: a vendor
 * asking to publish hears "only the team" whatever the ad's status, rather than a status reason
 * that suggests the move would work later.
 */

export const PRODUCT_AD_STATUSES = ["PENDING", "COMPLETED", "FEEDBACK_PENDING", "APPROVED", "LIVE", "INACTIVE"] as const;
export type ProductAdStatusValue = (typeof PRODUCT_AD_STATUSES)[number];

export const PRODUCT_AD_MOVES = ["complete", "feedback", "approve", "publish", "unpublish"] as const;
export type ProductAdMove = (typeof PRODUCT_AD_MOVES)[number];

/** `team`: an admin with ads.manage; `vendor`: a user of the ad's vendor. */
export const PRODUCT_AD_ACTORS = ["team", "vendor"] as const;
export type ProductAdActor = (typeof PRODUCT_AD_ACTORS)[number];

export interface MoveRule {
  from: readonly ProductAdStatusValue[];
  to: ProductAdStatusValue;
  who: readonly ProductAdActor[];
}

export const PRODUCT_AD_MOVE_RULES: Readonly<Record<ProductAdMove, MoveRule>> = {
  complete: { from: ["PENDING", "FEEDBACK_PENDING"], to: "COMPLETED", who: ["team"] },
  feedback: { from: ["COMPLETED"], to: "FEEDBACK_PENDING", who: ["team", "vendor"] },
  approve: { from: ["COMPLETED"], to: "APPROVED", who: ["team", "vendor"] },
  publish: { from: ["APPROVED", "INACTIVE"], to: "LIVE", who: ["team"] },
  unpublish: { from: ["LIVE"], to: "INACTIVE", who: ["team", "vendor"] },
};

export type MoveCheck =
  | { ok: true; to: ProductAdStatusValue }
  /** forbidden → 403, conflict → 409; `message` is meant for people. */
  | { ok: false; kind: "forbidden" | "conflict"; message: string };

/** "be approved", for "An ad that is PENDING cannot be approved". */
const PASSIVE: Record<ProductAdMove, string> = {
  complete: "be completed",
  feedback: "get feedback",
  approve: "be approved",
  publish: "be published",
  unpublish: "be unpublished",
};

const FORBIDDEN: Record<ProductAdMove, string> = {
  complete: "Only the ads team can complete ads",
  feedback: "Only the ads team or the ad's vendor can send feedback on ads",
  approve: "Only the ads team or the ad's vendor can approve ads",
  publish: "Only the ads team can publish ads",
  unpublish: "Only the ads team or the ad's vendor can unpublish ads",
};

/** The move asked for again in the status it leads to (a double click): said plainly. */
const ALREADY: Partial<Record<ProductAdMove, string>> = {
  complete: "This ad is already completed: the vendor is reviewing it",
  feedback: "Feedback was already sent: the ads team is working on it",
  approve: "This ad is already approved",
  publish: "This ad is already live",
  unpublish: "This ad is already unpublished (INACTIVE)",
};

/** What is possible from `status`, for the 409's reason. */
function hint(status: ProductAdStatusValue, move: ProductAdMove): string {
  switch (status) {
    case "PENDING":
      return "complete it first";
    case "FEEDBACK_PENDING":
      return "the ads team is working on the vendor's feedback and completes it again first";
    case "COMPLETED":
      return move === "publish" ? "approve it first" : "it is not live";
    case "APPROVED":
      return move === "unpublish" ? "publish it first" : "it is approved already; publish it next";
    case "LIVE":
      return "it is running; unpublish it to stop it";
    case "INACTIVE":
      return "it was published before; publish it again to resume it";
  }
}

/** Whether `actor` may make `move` on an ad in `status`, and where it leads. */
export function checkMove(status: ProductAdStatusValue, move: ProductAdMove, actor: ProductAdActor | null): MoveCheck {
  const rule = PRODUCT_AD_MOVE_RULES[move];
  if (!actor || !rule.who.includes(actor)) return { ok: false, kind: "forbidden", message: FORBIDDEN[move] };
  if (rule.from.includes(status)) return { ok: true, to: rule.to };
  if (status === rule.to && ALREADY[move]) return { ok: false, kind: "conflict", message: ALREADY[move]! };
  return { ok: false, kind: "conflict", message: `An ad that is ${status} cannot ${PASSIVE[move]}: ${hint(status, move)}` };
}

/** The moves `actor` may make now (the API's `allowedMoves`, the screens' buttons). */
export function allowedMoves(status: ProductAdStatusValue, actor: ProductAdActor | null): ProductAdMove[] {
  return PRODUCT_AD_MOVES.filter((m) => checkMove(status, m, actor).ok);
}

/** Statuses in which the team may still change the ad's content (headline, text, creatives, budget…). */
export const EDITABLE_AD_STATUSES: readonly ProductAdStatusValue[] = ["PENDING", "COMPLETED", "FEEDBACK_PENDING"];

export const ProductAdStatusMessages = {
  NOT_EDITABLE: "An approved ad cannot be edited",
  DELETE_LIVE: "Unpublish the ad before deleting it",
  COMPLETE_NEEDS_CONTENT: "Write a headline and a primary text and choose at least one creative before completing the ad",
} as const;

/** null when the ad may be edited, else why not (409). */
export function editRefusal(status: ProductAdStatusValue): string | null {
  return EDITABLE_AD_STATUSES.includes(status) ? null : ProductAdStatusMessages.NOT_EDITABLE;
}

/** null when the ad may be deleted, else why not (409): a LIVE ad spends money until it is paused. */
export function deleteRefusal(status: ProductAdStatusValue): string | null {
  return status === "LIVE" ? ProductAdStatusMessages.DELETE_LIVE : null;
}

/** What `complete` needs besides the status: the content the vendor is asked to review (422 otherwise). */
export function missingForComplete(ad: { headline: string | null; primaryText: string | null; creativeUrls: readonly string[] }): string[] {
  const missing: string[] = [];
  if (!ad.headline?.trim()) missing.push("headline");
  if (!ad.primaryText?.trim()) missing.push("primary_text");
  if (ad.creativeUrls.length === 0) missing.push("creative_urls");
  return missing;
}
