/** The admin ads screens' pure helpers (app/lib/ads-admin-view.ts): tabs read from the URL, money, ratios. */
import { describe, expect, it } from "vitest";
import { adTabOf, countText, isAdMove, moneyText, pctText, ratios, requestTabOf, roasText } from "../../app/lib/ads-admin-view";

describe("ads admin view", () => {
  it("reads the tabs from the URL, falling back on a value it does not know", () => {
    expect(adTabOf("LIVE")).toBe("LIVE");
    expect(adTabOf("live")).toBe("all");
    expect(adTabOf(null)).toBe("all");
    expect(requestTabOf("completed")).toBe("completed");
    expect(requestTabOf("nope")).toBe("open");
  });

  it("knows the five moves only", () => {
    expect(["complete", "feedback", "approve", "publish", "unpublish"].every(isAdMove)).toBe(true);
    expect(isAdMove("delete")).toBe(false);
    expect(isAdMove(null)).toBe(false);
  });

  it("formats money in dollars or with the currency code, and counts", () => {
    expect(moneyText({ amount: "12.5", currencyCode: "USD" })).toBe("$12.50");
    expect(moneyText(3, "EUR")).toBe("EUR 3.00");
    expect(moneyText(null)).toBe("—");
    expect(countText(12345)).toBe("12,345");
  });

  it("computes CTR and ROAS as the doc defines them, null when the divisor is 0", () => {
    expect(ratios({ impressions: 2000, clicks: 30, spend: 40, purchase_value: 130 })).toEqual({ ctr: 0.015, roas: 3.25 });
    expect(ratios({ impressions: 0, clicks: 0, spend: 0, purchase_value: 0 })).toEqual({ ctr: null, roas: null });
    expect(pctText(0.015)).toBe("1.50%");
    expect(pctText(null)).toBe("—");
    expect(roasText(3.25)).toBe("3.25×");
    expect(roasText(null)).toBe("—");
  });
});
