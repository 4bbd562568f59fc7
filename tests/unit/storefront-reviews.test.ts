/** Pure helpers of the storefront's review screens (storefront/src/lib/reviews.ts). */
import { describe, expect, it } from "vitest";
import { checkReviewPhotos, distributionRows, formatAverage, formatReviewDate, hasMoreReviews, reviewCountLabel, reviewKeys, starFill, starsLabel } from "../../storefront/src/lib/reviews";

describe("storefront review helpers", () => {
  it("turns a summary into distribution rows, 5 stars first, with shares", () => {
    const rows = distributionRows({ count: 8, distribution: { "1": 1, "2": 0, "3": 1, "4": 2, "5": 4 } });
    expect(rows.map((r) => [r.stars, r.count, r.percent])).toEqual([
      [5, 4, 50],
      [4, 2, 25],
      [3, 1, 13],
      [2, 0, 0],
      [1, 1, 13],
    ]);
    expect(distributionRows(null).every((r) => r.count === 0 && r.percent === 0)).toBe(true);
  });

  it("formats averages, counts, stars and dates", () => {
    expect(formatAverage(4.25)).toBe("4.3");
    expect(formatAverage(5)).toBe("5.0");
    expect(starFill(2.5)).toBe(50);
    expect(starFill(7)).toBe(100);
    expect(reviewCountLabel(1)).toBe("1 review");
    expect(reviewCountLabel(1200)).toBe("1,200 reviews");
    expect(starsLabel(1)).toBe("1 star");
    expect(starsLabel(4)).toBe("4 stars");
    expect(formatReviewDate("2026-03-05T10:00:00.000Z")).toBe("5 March 2026");
    expect(formatReviewDate("not a date")).toBe("");
  });

  it("checks photos before compressing them", () => {
    const jpeg = { name: "a.jpg", type: "image/jpeg", size: 1000 };
    expect(checkReviewPhotos([jpeg], 0)).toBeNull();
    expect(checkReviewPhotos([jpeg, jpeg], 4)).toBe("You can add up to 5 photos.");
    expect(checkReviewPhotos([{ name: "notes.pdf", type: "application/pdf", size: 10 }], 0)).toMatch(/not a photo we can read/);
  });

  it("knows when more reviews can be loaded, and keeps user data under the user key", () => {
    expect(hasMoreReviews(5, 12)).toBe(true);
    expect(hasMoreReviews(12, 12)).toBe(false);
    expect(reviewKeys.reviewableOrders()[0]).toBe("user");
    expect(reviewKeys.productList("gid://shopify/Product/1")).toEqual(["reviews", "product", "gid://shopify/Product/1"]);
  });
});
