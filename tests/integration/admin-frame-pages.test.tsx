/**
 * The admin's problem pages keep the admin frame (issue 20, item 5), over real HTTP with the real
 * root, layout (app/routes/app.tsx) and pages (tests/helpers/web-server.ts):
 * - an unknown /app address answers 404 with a "Page not found" page inside the Polaris frame, the
 *   caller's navigation kept (the splat route app/routes/app.$.tsx), not Remix's bare 404;
 * - a page the staff member may not open (403, an admin without the permission, a vendor on an
 *   admin page) shows "No access" with the server's message inside the frame and navigation;
 * - a page's own 404 (an order that does not exist) is a not-found page inside the frame too;
 * - signed out, an unknown address still goes to the login first (nothing about the admin shows).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app";
import { startWebServer, type TestRoute, type WebServer } from "../helpers/web-server";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";

async function routes(): Promise<TestRoute[]> {
  return [
    { id: "routes/app", path: "app", module: await import("../../app/routes/app") },
    { id: "routes/app.$", parentId: "routes/app", path: "*", module: await import("../../app/routes/app.$") },
    { id: "routes/app.reviews", parentId: "routes/app", path: "reviews", module: await import("../../app/routes/app.reviews") },
    { id: "routes/app.orders_.$id", parentId: "routes/app", path: "orders/:id", module: await import("../../app/routes/app.orders_.$id") },
  ];
}

let app: TestApp;
let server: WebServer;
let moderator: { token: string };
let cataloguer: { token: string };
let vendorUser: { token: string };

const cookieOf = (token: string) => `fd_session=${encodeURIComponent(token)}`;
async function page(path: string, token: string | null): Promise<{ status: number; html: string; location: string | null }> {
  const res = await fetch(`${server.baseUrl}${path}`, { redirect: "manual", headers: token ? { cookie: cookieOf(token) } : {} });
  return { status: res.status, html: await res.text(), location: res.headers.get("location") };
}
/** The labels of the frame's navigation (Polaris Navigation items) in the page. */
const navLabels = (html: string) => [...html.matchAll(/<span class="Polaris-Navigation__Text[^"]*"[^>]*>(?:<[^>]+>)*([^<]+)</g)].map((m) => m[1].trim());
const text = (html: string) => html.replace(/<!-- -->/g, "");

beforeAll(async () => {
  app = await createTestApp();
  // The route modules load shopify.server, which needs the database.
  setPrisma(app.database.db);
  setAppContext(app.ctx);
  moderator = await app.createUser({ role: "ADMIN", permissions: ["reviews.moderate", "orders.manage"] });
  cataloguer = await app.createUser({ role: "ADMIN", permissions: ["catalog.edit"] });
  const vendor = await app.database.db.vendor.create({ data: { name: "Frame Vendor", handle: `frame-vendor-${Date.now()}` } });
  vendorUser = await app.createUser({ role: "VENDOR", vendorId: vendor.id });
  server = await startWebServer(app, { routes: await routes() });
});
afterAll(async () => {
  await server?.close();
  await app?.close();
});

describe("an unknown admin address", () => {
  it("answers 404 with a not-found page inside the frame, with the caller's navigation", async () => {
    const r = await page("/app/anything-unknown", moderator.token);
    expect(r.status).toBe(404);
    expect(r.html).not.toContain("Unhandled Thrown Response");
    expect(text(r.html)).toContain("Page not found");
    expect(text(r.html)).toContain("There is no admin page at /app/anything-unknown.");
    expect(r.html).toContain('data-testid="admin-not-found"');
    expect(r.html).toContain("Polaris-Frame");
    expect(navLabels(r.html)).toEqual(["Dashboard", "Orders", "Analytics", "Reviews"]);
    // The way back: the caller's home page.
    expect(r.html).toMatch(/<a[^>]+href="\/app"[^>]*>.*Go to the home page/s);
  });

  it("deeper unknown paths too; a vendor's home is the vendor home page", async () => {
    const r = await page("/app/vendors/no-such/thing/at-all", vendorUser.token);
    expect(r.status).toBe(404);
    expect(text(r.html)).toContain("There is no admin page at /app/vendors/no-such/thing/at-all.");
    expect(navLabels(r.html)).toEqual(["Home", "Products", "Stores", "Payouts", "Ads", "Socials"]);
    expect(r.html).toMatch(/<a[^>]+href="\/app\/vendor"[^>]*>.*Go to the home page/s);
  });

  it("signed out: the login first, nothing of the admin", async () => {
    const r = await page("/app/anything-unknown", null);
    expect(r.status).toBe(302);
    expect(r.location).toBe("/app/login?next=%2Fapp%2Fanything-unknown");
  });

  it("a page's own 404 (an order that does not exist) is a not-found page inside the frame", async () => {
    const r = await page(`/app/orders/${encodeURIComponent("gid://shopify/Order/999999999")}`, moderator.token);
    expect(r.status).toBe(404);
    expect(text(r.html)).toContain("Page not found");
    expect(r.html).toContain('data-testid="admin-not-found"');
    expect(navLabels(r.html)).toContain("Orders");
  });
});

describe("no access", () => {
  it("an admin without the permission gets 403 'No access' with the server's message, inside the frame with their navigation", async () => {
    const r = await page("/app/reviews", cataloguer.token);
    expect(r.status).toBe(403);
    expect(text(r.html)).toContain("No access");
    expect(text(r.html)).toContain("You do not have permission to see this page");
    expect(r.html).toContain('data-testid="admin-refusal"');
    expect(r.html).toContain("Polaris-Frame");
    const nav = navLabels(r.html);
    expect(nav).toContain("Products");
    expect(nav).not.toContain("Reviews");
  });

  it("a vendor on an admin page: 403 inside the frame with the vendor navigation", async () => {
    const r = await page("/app/reviews", vendorUser.token);
    expect(r.status).toBe(403);
    expect(text(r.html)).toContain("No access");
    expect(navLabels(r.html)).toEqual(["Home", "Products", "Stores", "Payouts", "Ads", "Socials"]);
  });

  it("the permitted admin gets the page itself", async () => {
    const r = await page("/app/reviews", moderator.token);
    expect(r.status).toBe(200);
    expect(text(r.html)).toContain("Moderate what shoppers write");
    expect(r.html).not.toContain('data-testid="admin-refusal"');
  });
});
