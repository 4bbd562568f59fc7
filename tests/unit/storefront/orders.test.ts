import { describe, expect, it } from "vitest";
import { coversVariant, formatDate, orderPath, returnStatusLabel, tone } from "../../../storefront/src/lib/orders";

describe("storefront orders helpers", () => {
  it("addresses an order by its number, other ids encoded", () => {
    expect(orderPath("gid://shopify/Order/5400004")).toBe("/account/orders/5400004");
    expect(orderPath("order/x y")).toBe("/account/orders/order%2Fx%20y");
  });

  it("shows the return's own status once the store moves it, else the request's", () => {
    expect(returnStatusLabel({ status: "REQUESTED", return_status: "REQUESTED" })).toBe("Requested");
    expect(returnStatusLabel({ status: "OPEN", return_status: "REQUESTED" })).toBe("Approved");
    expect(returnStatusLabel({ status: "OPEN", return_status: "IN_TRANSIT" })).toBe("On its way back");
    expect(returnStatusLabel({ status: "CLOSED", return_status: "REFUNDED" })).toBe("Refunded");
    expect(returnStatusLabel({ status: "DECLINED", return_status: "REQUESTED" })).toBe("Declined");
    expect(returnStatusLabel({ status: null, return_status: "LABEL_SENT" })).toBe("Label sent");
  });

  it("a product-wide back-in-stock request covers every variant; a variant's only its own; only active ones count", () => {
    const wide = { kind: "back_in_stock" as const, status: "active" as const, variant: null };
    const one = { kind: "back_in_stock" as const, status: "active" as const, variant: { id: "v1", title: "S", availableForSale: false } };
    expect(coversVariant(wide, "v2")).toBe(true);
    expect(coversVariant(wide, null)).toBe(true);
    expect(coversVariant(one, "v1")).toBe(true);
    expect(coversVariant(one, "v2")).toBe(false);
    expect(coversVariant(one, null)).toBe(false);
    expect(coversVariant({ ...wide, status: "sent" }, null)).toBe(false);
    expect(coversVariant({ ...wide, kind: "search" }, null)).toBe(false);
  });

  it("formats dates and tones", () => {
    expect(formatDate("2026-10-05T18:08:31.000Z")).toBe("5 Oct 2026");
    expect(formatDate(null)).toBe("");
    expect(formatDate("nonsense")).toBe("");
    expect(tone("delivered")).toBe("positive");
    expect(tone("cancelled")).toBe("negative");
    expect(tone("unfulfilled")).toBe("neutral");
  });
});
