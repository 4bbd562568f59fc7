/**
 * Partly sent lines (app/lib/order-quantities.ts) and the order stage they give
 * (app/services/account-orders-rules.ts orderStage): the sum of a line's fulfilment records, the
 * status standing for the whole line when there are none, nothing left of a cancelled or returned line.
 */
import { describe, expect, it } from "vitest";
import { partlySent, sentQuantity, unsentQuantity } from "../../app/lib/order-quantities";
import { orderStage } from "../../app/services/account-orders-rules";

describe("sent and unsent units of a line", () => {
  it("sums the fulfilment records, never above the line's quantity", () => {
    expect(sentQuantity({ status: "shipped", quantity: 3, fulfillments: [{ quantity: 2 }] })).toBe(2);
    expect(sentQuantity({ status: "shipped", quantity: 3, fulfillments: [{ quantity: 2 }, { quantity: 1 }] })).toBe(3);
    expect(sentQuantity({ status: "shipped", quantity: 3, fulfillments: [{ quantity: 2 }, { quantity: 2 }] })).toBe(3);
    expect(unsentQuantity({ status: "shipped", quantity: 3, fulfillments: [{ quantity: 2 }] })).toBe(1);
    expect(partlySent({ status: "shipped", quantity: 3, fulfillments: [{ quantity: 2 }] })).toBe(true);
  });
  it("without records the status stands for the whole line", () => {
    for (const status of ["fulfilled", "shipped", "delivered", "returned"] as const) expect(sentQuantity({ status, quantity: 2 })).toBe(2);
    expect(sentQuantity({ status: "unfulfilled", quantity: 2 })).toBe(0);
    expect(unsentQuantity({ status: "unfulfilled", quantity: 2 })).toBe(2);
    expect(partlySent({ status: "unfulfilled", quantity: 2 })).toBe(false);
    expect(partlySent({ status: "delivered", quantity: 2 })).toBe(false);
  });
  it("nothing is left to send of a cancelled or returned line", () => {
    expect(unsentQuantity({ status: "cancelled", quantity: 2 })).toBe(0);
    expect(unsentQuantity({ status: "returned", quantity: 3, fulfillments: [{ quantity: 1 }] })).toBe(0);
  });
});

describe("the order's stage with partly sent lines", () => {
  it("a line with units left makes the order partly fulfilled, whatever its sent units' status", () => {
    expect(orderStage({ status: "open", items: [{ status: "delivered", quantity: 3, fulfillments: [{ quantity: 2 }] }] })).toBe("partially_fulfilled");
    expect(orderStage({ status: "open", items: [{ status: "shipped", quantity: 3, fulfillments: [{ quantity: 3 }] }] })).toBe("shipped");
    // Without quantities (older callers) the statuses alone decide, as before.
    expect(orderStage({ status: "open", items: [{ status: "delivered" }] })).toBe("delivered");
    expect(orderStage({ status: "cancelled", items: [{ status: "shipped", quantity: 3, fulfillments: [{ quantity: 1 }] }] })).toBe("cancelled");
  });
});
