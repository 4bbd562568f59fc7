/**
 * Web security of the built server as a browser and an attacker meet it: the security headers on
 * the storefront, the admin and the API; pages that work under the Content-Security-Policy (no
 * violation reported by Chromium); a cross-site action on an admin page refused; no stack trace in
 * error answers.
 */
import { afterAll, beforeAll, describe, expect, it, inject } from "vitest";
import type { Page } from "playwright-core";
import { DEMO_ADMIN, DEMO_PASSWORD, apiGet, launchBrowser, productPath, screenshot, signInAsStaff } from "../helpers/browser";

const base = inject("e2eBaseUrl");

/** Chromium's console reports of blocked loads and scripts (the CSP's violations). */
function recordViolations(page: Page): string[] {
  const seen: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to (load|execute|apply|connect|frame)/i.test(m.text())) seen.push(`${page.url()}: ${m.text()}`);
  });
  return seen;
}

async function sessionCookie(): Promise<string> {
  const res = await fetch(`${base}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: DEMO_ADMIN, password: DEMO_PASSWORD }) });
  expect(res.status).toBe(200);
  const cookie = res.headers.get("set-cookie") ?? "";
  return cookie.split(";")[0];
}

describe("security headers and CSP (Chromium, built server)", () => {
  let page: Page;
  let close: () => Promise<void>;
  let violations: string[];
  beforeAll(async () => {
    ({ page, close } = await launchBrowser());
    violations = recordViolations(page);
  });
  afterAll(() => close?.());

  it("the storefront, the admin and the API answer with the security headers", async () => {
    for (const path of ["/", "/mens", "/app/login", "/api/health", "/api/docs", "/theme-preview"]) {
      const res = await fetch(`${base}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(res.headers.get("x-frame-options"), path).toBe("DENY");
      expect(res.headers.get("referrer-policy"), path).toBe("strict-origin-when-cross-origin");
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).toMatch(/script-src 'self' 'nonce-/);
      expect(res.headers.get("strict-transport-security"), path).toBeNull();
    }
  });

  it("storefront pages work under the policy: products with images, no violation", async () => {
    await page.goto(`${base}/`);
    const cards = page.getByTestId("product-card");
    await cards.first().waitFor({ timeout: 30_000 });
    const img = cards.first().locator("img");
    await page.waitForFunction((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0, await img.elementHandle(), { timeout: 15_000 });
    const { products } = await apiGet<{ products: { id: string; handle: string }[] }>(base, "/products?limit=1");
    await page.goto(`${base}${productPath(products[0])}`);
    await page.getByRole("heading", { level: 1 }).first().waitFor({ timeout: 20_000 });
    await page.goto(`${base}/search?q=shirt`);
    await page.waitForLoadState("networkidle");
    await screenshot(page, "security-storefront");
    expect(violations).toEqual([]);
  });

  it("the API docs run their inline script (allowed by its hash) and the theme preview loads its blocks", async () => {
    await page.goto(`${base}/api/docs`);
    await page.locator("details").first().waitFor({ timeout: 15_000 });
    await page.goto(`${base}/theme-preview`);
    await page.waitForLoadState("networkidle");
    expect(violations).toEqual([]);
  });

  it("admin pages (Remix, Polaris) hydrate under the nonce policy: navigation and a form work, no violation", async () => {
    await signInAsStaff(page, base, { next: "/app/styles" });
    await page.getByRole("link", { name: "Products" }).first().click();
    await page.waitForURL((u) => u.pathname === "/app/products");
    await page.goto(`${base}/app/media`);
    await page.waitForLoadState("networkidle");
    await screenshot(page, "security-admin");
    expect(violations).toEqual([]);
  });
});

describe("CSRF and error answers (built server)", () => {
  it("a cross-site admin action with the admin's cookie is refused with 403, nothing created", async () => {
    const cookie = await sessionCookie();
    const email = `csrf-${Date.now()}@evil.example`;
    const fields = new URLSearchParams({ intent: "create", email, first_name: "In", last_name: "Truder", role: "ADMIN", send_email: "false" });
    for (const path of ["/app/admins.data", "/app/admins?_data=routes%2Fapp.admins"]) {
      const res = await fetch(`${base}${path}`, { method: "POST", redirect: "manual", headers: { cookie, origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" }, body: fields });
      expect(res.status, path).toBe(403);
      expect((await res.json()).error.code).toBe("forbidden");
    }
    const list = await fetch(`${base}/app/admins.data`, { headers: { cookie } });
    expect(await list.text()).not.toContain(email);
    // The API: a cookie-authenticated write from a foreign origin, then the session still works.
    const logout = await fetch(`${base}/api/auth/logout`, { method: "POST", headers: { cookie, origin: "https://evil.example" } });
    expect(logout.status).toBe(403);
    expect((await fetch(`${base}/api/users/me`, { headers: { cookie } })).status).toBe(200);
  });

  it("no stack trace or file path in error answers (data requests, the upload endpoint, malformed paths)", async () => {
    const cookie = await sessionCookie();
    const answers = [
      await fetch(`${base}/app/media/upload`, { headers: { cookie } }),
      await fetch(`${base}/app/no-such-page.data`, { headers: { cookie } }),
      await fetch(`${base}/app/products/%E0%A4%A.data`, { headers: { cookie } }),
      await fetch(`${base}/uploads/%E0%A4%A`),
      await fetch(`${base}/webhooks/products`),
    ];
    for (const res of answers) {
      expect(res.status, res.url).toBeGreaterThanOrEqual(400);
      const text = await res.text();
      expect(text, res.url).not.toMatch(/node_modules|\/work\/|\bat \S+ \(|\.tsx?:\d+|\.js:\d+/);
    }
    expect(answers[0].status).toBe(405);
  });

  it("a file missing under /uploads or /sf-assets is a 404, never the storefront page (a GDPR export path included)", async () => {
    for (const p of ["/uploads/privacy/data-requests/1.json", "/uploads/images/no-such-image.jpg", "/sf-assets/no-such-file.js"]) {
      const res = await fetch(`${base}${p}`);
      expect(res.status, p).toBe(404);
      expect(await res.text(), p).not.toContain("<html");
    }
  });
});
