import { describe, expect, it } from "vitest";
import { z } from "zod";
import { bulkOutcome, listParam, pageRange, parseListParams, rangeLabel, withParams } from "../../app/lib/admin-list";

const TABS = ["pending", "approved", "rejected", "all"] as const;
const shape = {
  status: listParam.oneOf(TABS, "pending"),
  q: listParam.text(10),
  page: listParam.page(),
  offset: listParam.page(0),
  source: listParam.optional(z.enum(["ai", "taobao"])),
};
const parse = (query: string) => parseListParams(new URLSearchParams(query), shape);

describe("parseListParams", () => {
  it("gives every default for an empty URL", () => {
    expect(parse("")).toEqual({ status: "pending", q: "", page: 1, offset: 0, source: undefined });
  });

  it("reads good values", () => {
    expect(parse("status=rejected&q=%20red%20dress%20&page=3&offset=40&source=ai")).toEqual({ status: "rejected", q: "red dress", page: 3, offset: 40, source: "ai" });
  });

  it("falls back per field instead of failing on values that do not fit", () => {
    expect(parse("status=deleted&page=abc&offset=-5&source=other")).toEqual({ status: "pending", q: "", page: 1, offset: 0, source: undefined });
    expect(parse("page=0").page).toBe(1);
    expect(parse("page=-2").page).toBe(1);
    expect(parse("page=").page).toBe(1);
  });

  it("reads page numbers like parseInt", () => {
    expect(parse("page=4abc").page).toBe(4);
    expect(parse("page=2.9").page).toBe(2);
    expect(parse("offset=0").offset).toBe(0);
  });

  it("trims, then cuts text to its maximum; no maximum keeps it whole", () => {
    expect(parse(`q=${encodeURIComponent("  abcdefghijklmnop  ")}`).q).toBe("abcdefghij");
    const long = "x".repeat(500);
    expect(parseListParams(new URLSearchParams({ q: long }), { q: listParam.text() }).q).toBe(long);
  });

  it("takes the first of repeated keys", () => {
    expect(parse("status=approved&status=rejected").status).toBe("approved");
  });
});

describe("withParams", () => {
  const base = new URLSearchParams("status=approved&q=shirt&page=4");

  it("sets and removes keys, and goes back to the first page", () => {
    expect(withParams(base, { q: "dress" }).toString()).toBe("status=approved&q=dress");
    expect(withParams(base, { status: "" }).toString()).toBe("q=shirt");
    expect(withParams(base, { status: null, q: undefined }).toString()).toBe("");
  });

  it("keeps the other keys and changes the page itself without resetting it", () => {
    expect(withParams(base, { page: "5" }).toString()).toBe("status=approved&q=shirt&page=5");
    expect(withParams(base, { page: "" }).toString()).toBe("status=approved&q=shirt");
  });

  it("resets another page key when told", () => {
    const p = new URLSearchParams("status=pending&skip=40");
    expect(withParams(p, { status: "all" }, { pageKey: "skip" }).toString()).toBe("status=all");
    expect(withParams(p, { skip: "60" }, { pageKey: "skip" }).toString()).toBe("status=pending&skip=60");
    expect(withParams(p, { status: "all" }).toString()).toBe("status=all&skip=40");
  });

  it("does not change the params it was given", () => {
    withParams(base, { q: "" });
    expect(base.toString()).toBe("status=approved&q=shirt&page=4");
  });
});

describe("pageRange and rangeLabel", () => {
  it("numbers the rows of a page from 1", () => {
    expect(pageRange(0, 20, 45)).toEqual({ from: 1, to: 20 });
    expect(pageRange(40, 20, 45)).toEqual({ from: 41, to: 45 });
    expect(pageRange(0, 20, 0)).toEqual({ from: 0, to: 0 });
  });

  it("labels the range with the total in English digits", () => {
    expect(rangeLabel(20, 20, 1234)).toBe("21–40 of 1,234");
    expect(rangeLabel(0, 20, 0)).toBe("0–0 of 0");
    expect(rangeLabel(0, 20, 0, "0 products")).toBe("0 products");
    expect(rangeLabel(0, 20, 3, "0 products")).toBe("1–3 of 3");
  });
});

describe("bulkOutcome", () => {
  it("counts what went through and lists the failures with their reasons", () => {
    const r = bulkOutcome(
      { succeeded: 2, failed: 1, results: [{ id: "a", ok: true, error: null }, { id: "b", ok: false, error: { message: "Already approved" } }, { id: "c", ok: true, error: null }] },
      "approved",
      ["edit", "edits"],
    );
    expect(r).toEqual({ ok: true, message: "2 edits approved; 1 failed.", failures: [{ id: "b", message: "Already approved" }] });
  });

  it("uses the singular for one and says nothing of failures when there are none", () => {
    expect(bulkOutcome({ succeeded: 1, failed: 0, results: [{ id: "a", ok: true, error: null }] }, "rejected", ["proposal", "proposals"]).message).toBe("1 proposal rejected.");
    expect(bulkOutcome({ succeeded: 0, failed: 1, results: [{ id: "a", ok: false, error: null }] }, "rejected", ["proposal", "proposals"]).failures).toEqual([{ id: "a", message: "Failed" }]);
  });
});
