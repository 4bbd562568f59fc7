/**
 * The product ad state machine (app/lib/product-ad-status.ts, docs/product-ads.md): every status ×
 * move × actor against a table written out by hand, the exact reasons of refused moves, and the
 * edit / delete / complete rules.
 */
import { describe, expect, it } from "vitest";
import {
  PRODUCT_AD_ACTORS,
  PRODUCT_AD_MOVES,
  PRODUCT_AD_STATUSES,
  allowedMoves,
  checkMove,
  deleteRefusal,
  editRefusal,
  missingForComplete,
  type ProductAdActor,
  type ProductAdMove,
  type ProductAdStatusValue,
} from "../../app/lib/product-ad-status";

/** The docs' table: where a move leads, per status; absent = refused with 409. */
const TO: Record<ProductAdStatusValue, Partial<Record<ProductAdMove, ProductAdStatusValue>>> = {
  PENDING: { complete: "COMPLETED" },
  COMPLETED: { feedback: "FEEDBACK_PENDING", approve: "APPROVED" },
  FEEDBACK_PENDING: { complete: "COMPLETED" },
  APPROVED: { publish: "LIVE" },
  LIVE: { unpublish: "INACTIVE" },
  INACTIVE: { publish: "LIVE" },
};
/** Who may make each move, whatever the status. */
const WHO: Record<ProductAdMove, ProductAdActor[]> = {
  complete: ["team"],
  feedback: ["team", "vendor"],
  approve: ["team", "vendor"],
  publish: ["team"],
  unpublish: ["team", "vendor"],
};

describe("moves", () => {
  const cases = PRODUCT_AD_STATUSES.flatMap((s) => PRODUCT_AD_MOVES.flatMap((m) => [...PRODUCT_AD_ACTORS, null].map((a) => [s, m, a] as const)));

  it("covers 6 statuses × 5 moves × 3 callers", () => {
    expect(cases).toHaveLength(90);
  });

  it.each(cases)("%s --%s--> by %s", (status, move, actor) => {
    const r = checkMove(status, move, actor);
    if (!actor || !WHO[move].includes(actor)) {
      expect(r).toMatchObject({ ok: false, kind: "forbidden" });
      return;
    }
    const to = TO[status][move];
    if (to) expect(r).toEqual({ ok: true, to });
    else expect(r).toMatchObject({ ok: false, kind: "conflict" });
  });
});

describe("refusals say why", () => {
  const conflict = (s: ProductAdStatusValue, m: ProductAdMove) => {
    const r = checkMove(s, m, "team");
    if (r.ok) throw new Error(`${s} ${m} was allowed`);
    expect(r.kind).toBe("conflict");
    return r.message;
  };

  it("names the status and what to do, as the docs' example", () => {
    expect(conflict("PENDING", "approve")).toBe("An ad that is PENDING cannot be approved: complete it first");
    expect(conflict("PENDING", "publish")).toBe("An ad that is PENDING cannot be published: complete it first");
    expect(conflict("PENDING", "feedback")).toBe("An ad that is PENDING cannot get feedback: complete it first");
    expect(conflict("PENDING", "unpublish")).toBe("An ad that is PENDING cannot be unpublished: complete it first");
    expect(conflict("COMPLETED", "publish")).toBe("An ad that is COMPLETED cannot be published: approve it first");
    expect(conflict("COMPLETED", "unpublish")).toBe("An ad that is COMPLETED cannot be unpublished: it is not live");
    expect(conflict("APPROVED", "unpublish")).toBe("An ad that is APPROVED cannot be unpublished: publish it first");
    expect(conflict("APPROVED", "complete")).toMatch(/^An ad that is APPROVED cannot be completed: .*publish it/);
    expect(conflict("APPROVED", "feedback")).toMatch(/^An ad that is APPROVED cannot get feedback/);
    expect(conflict("LIVE", "approve")).toMatch(/^An ad that is LIVE cannot be approved: .*unpublish it/);
    expect(conflict("INACTIVE", "complete")).toMatch(/^An ad that is INACTIVE cannot be completed: .*publish it again/);
    expect(conflict("FEEDBACK_PENDING", "approve")).toMatch(/^An ad that is FEEDBACK_PENDING cannot be approved: .*completes it again/);
  });

  it("a move repeated in the status it leads to is 'already'", () => {
    expect(conflict("COMPLETED", "complete")).toBe("This ad is already completed: the vendor is reviewing it");
    expect(conflict("FEEDBACK_PENDING", "feedback")).toBe("Feedback was already sent: the ads team is working on it");
    expect(conflict("APPROVED", "approve")).toBe("This ad is already approved");
    expect(conflict("LIVE", "publish")).toBe("This ad is already live");
    expect(conflict("INACTIVE", "unpublish")).toBe("This ad is already unpublished (INACTIVE)");
  });

  it("a vendor hears who may, whatever the status", () => {
    for (const s of PRODUCT_AD_STATUSES) {
      expect(checkMove(s, "publish", "vendor")).toEqual({ ok: false, kind: "forbidden", message: "Only the ads team can publish ads" });
      expect(checkMove(s, "complete", "vendor")).toEqual({ ok: false, kind: "forbidden", message: "Only the ads team can complete ads" });
    }
    expect(checkMove("COMPLETED", "approve", null)).toMatchObject({ ok: false, kind: "forbidden" });
  });
});

describe("allowedMoves", () => {
  it("the team's buttons per status", () => {
    expect(allowedMoves("PENDING", "team")).toEqual(["complete"]);
    expect(allowedMoves("COMPLETED", "team")).toEqual(["feedback", "approve"]);
    expect(allowedMoves("FEEDBACK_PENDING", "team")).toEqual(["complete"]);
    expect(allowedMoves("APPROVED", "team")).toEqual(["publish"]);
    expect(allowedMoves("LIVE", "team")).toEqual(["unpublish"]);
    expect(allowedMoves("INACTIVE", "team")).toEqual(["publish"]);
  });
  it("the vendor's buttons per status", () => {
    expect(allowedMoves("PENDING", "vendor")).toEqual([]);
    expect(allowedMoves("COMPLETED", "vendor")).toEqual(["feedback", "approve"]);
    expect(allowedMoves("FEEDBACK_PENDING", "vendor")).toEqual([]);
    expect(allowedMoves("APPROVED", "vendor")).toEqual([]);
    expect(allowedMoves("LIVE", "vendor")).toEqual(["unpublish"]);
    expect(allowedMoves("INACTIVE", "vendor")).toEqual([]);
  });
  it("nothing for a caller who may make no move", () => {
    for (const s of PRODUCT_AD_STATUSES) expect(allowedMoves(s, null)).toEqual([]);
  });
});

describe("edits, deletes, completing", () => {
  it("edits only before approval", () => {
    expect(PRODUCT_AD_STATUSES.filter((s) => editRefusal(s) === null)).toEqual(["PENDING", "COMPLETED", "FEEDBACK_PENDING"]);
    for (const s of ["APPROVED", "LIVE", "INACTIVE"] as const) expect(editRefusal(s)).toBe("An approved ad cannot be edited");
  });
  it("deletes in every status but LIVE", () => {
    expect(PRODUCT_AD_STATUSES.filter((s) => deleteRefusal(s) !== null)).toEqual(["LIVE"]);
    expect(deleteRefusal("LIVE")).toBe("Unpublish the ad before deleting it");
  });
  it("complete needs a headline, a primary text and a creative", () => {
    expect(missingForComplete({ headline: "Hi", primaryText: "Text", creativeUrls: ["/a.jpg"] })).toEqual([]);
    expect(missingForComplete({ headline: "  ", primaryText: null, creativeUrls: [] })).toEqual(["headline", "primary_text", "creative_urls"]);
    expect(missingForComplete({ headline: "Hi", primaryText: "Text", creativeUrls: [] })).toEqual(["creative_urls"]);
  });
});
