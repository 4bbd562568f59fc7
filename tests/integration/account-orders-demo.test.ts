/**
 * The demo shopper (shopper@demo.local) on the demo data: orders in several states (one cancelled,
 * one still cancellable, delivered ones with and without returns), returns at three points of
 * their timeline, and back-in-stock requests — what the storefront's screens show in local mode.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueToken } from "../../app/services/tokens.server";
import type { TestApp } from "../helpers/app";
import { createDemoTestApp } from "../helpers/demo-template";

let app: TestApp;
let token: string;

beforeAll(async () => {
  app = await createDemoTestApp();
  const shopper = await app.database.db.user.findUniqueOrThrow({ where: { email: "shopper@demo.local" } });
  token = await issueToken(app.database.db, shopper.id);
}, 180_000);
afterAll(() => app?.close());

describe("the demo shopper", () => {
  it("has orders in several states, 10 on the first page, newest first", async () => {
    const first = await app.api("GET", "/users/orders", { token });
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(10);
    expect(first.body.nextCursor).not.toBeNull();
    const rest = await app.api("GET", "/users/orders", { token, query: { cursor: first.body.nextCursor } });
    const all = [...first.body.items, ...rest.body.items];
    const stages = new Set(all.map((o: { stage: string }) => o.stage));
    for (const s of ["cancelled", "delivered", "shipped", "fulfilled", "unfulfilled"]) expect(stages, s).toContain(s);
    expect(all.some((o: { can_cancel: boolean }) => o.can_cancel)).toBe(true);
    expect(all.find((o: { name: string }) => o.name === "#2001")).toMatchObject({ status: "cancelled", stage: "cancelled" });

    // Delivered orders: at least one still returnable, and one with tracking links.
    let returnable = 0;
    let tracked = 0;
    for (const o of all.filter((x: { stage: string }) => x.stage === "delivered")) {
      const d = await app.api("GET", `/users/orders/${encodeURIComponent(o.id)}`, { token });
      if (d.body.can_return) returnable++;
      if (d.body.items.some((i: { tracking: { tracking_url: string | null } | null }) => i.tracking?.tracking_url)) tracked++;
    }
    expect(returnable).toBeGreaterThanOrEqual(1);
    expect(tracked).toBeGreaterThanOrEqual(1);
  });

  it("has returns at three points of their timeline", async () => {
    const res = await app.api("GET", "/users/returns", { token });
    expect(res.status).toBe(200);
    const byStatus = Object.fromEntries(res.body.items.map((e: { status: string; return_status: string; timeline: { key: string; state: string }[] }) => [e.status, e]));
    expect(Object.keys(byStatus).sort()).toEqual(["CLOSED", "OPEN", "REQUESTED"]);
    const current = (e: { timeline: { key: string; state: string }[] }) => e.timeline.find((s) => s.state === "current")?.key;
    expect(current(byStatus.REQUESTED)).toBe("requested");
    expect(current(byStatus.OPEN)).toBe("in_transit");
    expect(current(byStatus.CLOSED)).toBe("refunded");
    expect(byStatus.CLOSED.refund).toEqual({ amount: expect.any(String), currencyCode: "USD" });
  });

  it("waits for two products to be back in stock", async () => {
    const res = await app.api("GET", "/users/notification-requests", { token });
    expect(res.body.items).toHaveLength(2);
    for (const r of res.body.items) expect(r).toMatchObject({ kind: "back_in_stock", status: "active", email: "shopper@demo.local" });
    expect(res.body.items.some((r: { variant: unknown }) => r.variant !== null)).toBe(true);
  });
});
