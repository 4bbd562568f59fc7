/**
 * Pure parts of the vendor payouts (app/services/vendors/payouts.server.ts): month arithmetic,
 * commission rounding and the CSV's quoting.
 */
import { Prisma } from "@prisma/client";
import { describe, expect, it } from "vitest";
import { addMonths, nextMonth, payoutAmounts, payoutsCsv } from "../../app/services/vendors/payouts.server";
import { monthsBetween, type VendorPayouts } from "../../app/contract/vendors";

describe("months", () => {
  it("steps across years both ways and counts inclusive ranges", () => {
    expect(nextMonth("2026-12")).toBe("2027-01");
    expect(addMonths("2026-01", -1)).toBe("2025-12");
    expect(addMonths("2026-11", -11)).toBe("2025-12");
    expect(addMonths("2026-05", 36)).toBe("2029-05");
    expect(monthsBetween("2025-12", "2026-11")).toBe(12);
    expect(monthsBetween("2026-03", "2026-02")).toBe(0);
  });
});

describe("payoutAmounts", () => {
  it("takes the rate of gross − refunds, half a cent up, and leaves the rest as net", () => {
    const D = (v: string) => new Prisma.Decimal(v);
    expect(Object.values(payoutAmounts({ gross: D("5.38"), refunds: D("0") }, D("10"))).map((d) => d.toFixed(2))).toEqual(["0.54", "4.84"]);
    expect(Object.values(payoutAmounts({ gross: D("100.00"), refunds: D("20.00") }, D("12.5"))).map((d) => d.toFixed(2))).toEqual(["10.00", "70.00"]);
    expect(Object.values(payoutAmounts({ gross: D("0.10"), refunds: D("0") }, D("15"))).map((d) => d.toFixed(2))).toEqual(["0.02", "0.08"]);
    expect(Object.values(payoutAmounts({ gross: D("80.00"), refunds: D("80.00") }, D("20"))).map((d) => d.toFixed(2))).toEqual(["0.00", "0.00"]);
  });
});

describe("payoutsCsv", () => {
  it("quotes commas and quotes, and defuses a reference a spreadsheet would run as a formula", () => {
    const row = {
      id: "p1",
      period: "2026-09",
      period_start: "2026-09-01T00:00:00.000Z",
      period_end: "2026-10-01T00:00:00.000Z",
      status: "paid" as const,
      gross: "10.00",
      refunds: "0.00",
      returns: "0.00",
      returnedUnits: 0,
      units: 1,
      commissionRate: "15.00",
      commission: "1.50",
      net: "8.50",
      currencyCode: "USD",
      paid_at: "2026-10-05T10:00:00.000Z",
      reference: 'Wire "A", 12',
    };
    const p: VendorPayouts = { vendorId: "v", timeZone: "UTC", from: "2026-09", to: "2026-09", currencyCode: "USD", items: [row, { ...row, reference: "=HYPERLINK(1)", net: "-4.30" }], totals: { gross: "0", refunds: "0", commission: "0", net: "0", paid: "0", pending: "0" } };
    const lines = payoutsCsv(p).split("\r\n");
    expect(lines[1].endsWith(',USD,2026-10-05T10:00:00.000Z,"Wire ""A"", 12"')).toBe(true);
    expect(lines[2].endsWith(",-4.30,USD,2026-10-05T10:00:00.000Z,'=HYPERLINK(1)")).toBe(true);
    expect(lines[3]).toBe("");
  });
});
