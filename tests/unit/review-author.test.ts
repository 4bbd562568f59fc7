/** SPEC §5: the review author name is the first name, else the part of the email before the at-sign, else Anonymous. */
import { describe, expect, it } from "vitest";
import { ANONYMOUS_AUTHOR, reviewAuthorName } from "../../app/lib/review-author";

describe("review author name", () => {
  it("uses the first name first", () => {
    expect(reviewAuthorName({ first_name: "Maya", email: "maya.k@example.com" })).toBe("Maya");
    expect(reviewAuthorName({ first_name: "  Léa  ", email: null })).toBe("Léa");
  });

  it("falls back to the part of the email before the at-sign", () => {
    expect(reviewAuthorName({ first_name: null, email: "sam.k@example.com" })).toBe("sam.k");
    expect(reviewAuthorName({ first_name: "   ", email: " jules@example.com " })).toBe("jules");
    expect(reviewAuthorName({ email: "no-at-sign" })).toBe("no-at-sign");
  });

  it("is Anonymous without either", () => {
    expect(ANONYMOUS_AUTHOR).toBe("Anonymous");
    expect(reviewAuthorName({ first_name: null, email: null })).toBe("Anonymous");
    expect(reviewAuthorName({ first_name: "", email: "@example.com" })).toBe("Anonymous");
    expect(reviewAuthorName({})).toBe("Anonymous");
    expect(reviewAuthorName(null)).toBe("Anonymous");
    expect(reviewAuthorName(undefined)).toBe("Anonymous");
  });

  it("keeps names to 100 characters", () => {
    expect(reviewAuthorName({ first_name: "x".repeat(150) })).toHaveLength(100);
  });
});
