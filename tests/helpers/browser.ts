/**
 * Debian's Chromium through playwright-core (STACK.md: downloads of browser builds fail here).
 * Requests to Shopify's CDN are refused, as on these machines, so pages are proven to work
 * without the App Bridge script.
 */
import fs from "node:fs";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Locator, type Page } from "playwright-core";

export const ARTEFACTS_DIR = path.resolve("test-results", "e2e");

/** The demo accounts the server seeds on first start (README: "Demo accounts"). */
export const DEMO_SHOPPER = "shopper@demo.local";
export const DEMO_ADMIN = "admin@demo.local";
export const DEMO_PASSWORD = "demo-password";

export interface LaunchedBrowser {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<LaunchedBrowser> {
  // playwright gives each launch a fresh, temporary profile (the "fresh user-data dir" of STACK.md).
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  const { context, page } = await newSession(browser);
  return {
    browser,
    context,
    page,
    async close() {
      await browser.close();
    },
  };
}

/**
 * Another browser session in the same browser (own cookies and storage: another visitor), set up
 * as launchBrowser sets its own. The caller closes the context.
 */
export async function newSession(browser: Browser, options: BrowserContextOptions = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  await context.route(/cdn\.shopify\.com/, (route) => route.abort());
  return { context, page: await context.newPage() };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(ARTEFACTS_DIR, { recursive: true });
  const file = path.join(ARTEFACTS_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}

/** The phone and laptop sizes issue 20's screenshots are taken at. */
export const SCREENSHOT_SIZES = [
  { width: 390, height: 844 },
  { width: 1366, height: 900 },
] as const;

/**
 * `{name}-390x844.png` and `{name}-1366x900.png` of the page as it is, with `show` scrolled into
 * view at each size (the page reflows); the window's size is put back after.
 */
export async function screenshotAtSizes(page: Page, name: string, show?: Locator): Promise<void> {
  const before = page.viewportSize();
  for (const { width, height } of SCREENSHOT_SIZES) {
    await page.setViewportSize({ width, height });
    await show?.scrollIntoViewIfNeeded();
    await screenshot(page, `${name}-${width}x${height}`);
  }
  if (before) await page.setViewportSize(before);
}

/** Signs in on the local admin login (demo accounts) and waits until `next` is shown. */
export async function signInAsStaff(page: Page, baseUrl: string, opts: { email?: string; next?: string } = {}): Promise<void> {
  const next = opts.next ?? "/app";
  await page.goto(`${baseUrl}/app/login?next=${encodeURIComponent(next)}`);
  await page.getByLabel("Email").fill(opts.email ?? DEMO_ADMIN);
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  const target = next.split("?")[0];
  await page.waitForURL((u) => u.pathname === target);
}

/**
 * Launches a browser already signed in on the admin at `next` (the usual start of an admin screen's
 * file), recording the page's problems from the start (sign-in included) for reportFailedTest.
 */
export async function launchStaffBrowser(baseUrl: string, opts: { email?: string; next?: string } = {}): Promise<LaunchedBrowser & { problems: string[] }> {
  const b = await launchBrowser();
  const problems = recordBrowserProblems(b.page);
  try {
    await signInAsStaff(b.page, baseUrl, opts);
  } catch (error) {
    await b.close();
    throw error;
  }
  return { ...b, problems };
}

/** Fills and sends the storefront's sign-in form without waiting for the outcome (for a refused sign-in). */
export async function submitShopperSignIn(page: Page, baseUrl: string, email: string, password: string, opts: { alreadyOnLogin?: boolean } = {}): Promise<void> {
  if (!opts.alreadyOnLogin) await page.goto(`${baseUrl}/login`);
  // A new visitor's session is still being resolved (getMe, a retry 1 s later, then a new guest):
  // a sign-in sent meanwhile can be overwritten by that guest, so wait until the session exists
  // (the header's Saved link is rendered for any user, guest or not).
  await page.getByTestId("header-saved-link").first().waitFor({ state: "attached", timeout: 30_000 });
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** Signs in on the storefront's /login (the demo shopper unless told) and waits for the header's Sign out. */
export async function signInShopper(page: Page, baseUrl: string, opts: { email?: string; password?: string } = {}): Promise<void> {
  await submitShopperSignIn(page, baseUrl, opts.email ?? DEMO_SHOPPER, opts.password ?? DEMO_PASSWORD);
  // The sign-in page shows its own "Sign out" before it sends the shopper home: wait for that
  // navigation too, or a click made meanwhile (the account menu) is undone by it.
  await page.waitForURL((u) => u.pathname !== "/login", { timeout: 20_000 });
  await page.getByRole("button", { name: "Sign out" }).first().waitFor({ timeout: 20_000 });
  // The home page it lands on settles first: a menu opened while it loads has been seen to close (README's open items).
  await page.waitForLoadState("networkidle").catch(() => undefined);
}

/** The storefront path of a product card (`/products/{numeric id}/{handle}`). */
export const productPath = (p: { id: string; handle: string }): string => `/products/${p.id.split("/").pop()}/${p.handle}`;

/** A JSON call to the server's API from the test process (not the browser): its status and body, whatever the status. */
export async function apiCall<T>(
  baseUrl: string,
  method: string,
  apiPath: string,
  opts: { token?: string | null; body?: unknown } = {}
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${baseUrl}/api${apiPath}`, {
    method,
    headers: {
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      ...(opts.body !== undefined ? { "content-type": "application/json" } : {}),
    },
    body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as T };
}

/** A public GET of the API that must succeed (e.g. the demo catalogue a test starts from). */
export async function apiGet<T>(baseUrl: string, apiPath: string): Promise<T> {
  const res = await fetch(`${baseUrl}/api${apiPath}`);
  if (!res.ok) throw new Error(`${apiPath}: ${res.status}`);
  return (await res.json()) as T;
}

/** Signs a demo account in through the API: its bearer token (a session apart from any browser's) and user id. */
export async function apiSignIn(baseUrl: string, email: string, password = DEMO_PASSWORD): Promise<{ token: string; userId: string }> {
  const res = await apiCall<{ token: string; user: { id: string } }>(baseUrl, "POST", "/auth/login", { body: { email, password } });
  if (res.status !== 200) throw new Error(`sign-in of ${email}: ${res.status}`);
  return { token: res.body.token, userId: res.body.user.id };
}

/** Starts recording what goes wrong in the page (script errors, 5xx answers), for the report of a failed test. */
export function recordBrowserProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("response", (r) => {
    if (r.status() >= 500) problems.push(`${r.status()} ${r.request().method()} ${r.url()}`);
  });
  return problems;
}

/**
 * For an afterEach: when the test failed, a screenshot named after it and, on stderr, the problems
 * recorded and the start of the page's text (what the failure looked like, not only where it threw).
 */
export async function reportFailedTest(
  t: { task: { name: string; result?: { state?: string; errors?: unknown[] } } },
  page: Page,
  opts: { name: string; problems: string[]; textChars?: number }
): Promise<void> {
  if (!t.task.result?.errors?.length && t.task.result?.state !== "fail") return;
  await screenshot(page, `${opts.name}-failure-${t.task.name.slice(0, 20).replace(/\W+/g, "-")}`);
  const text = (await page.locator("body").innerText()).slice(0, opts.textChars ?? 2000);
  console.error(`problems seen by the browser:\n${opts.problems.join("\n") || "(none)"}\npage text:\n${text}`);
}

/** What `route.fulfill` needs to answer like the API's error body (`{"error": {code, message}}`). */
export const apiErrorAnswer = (status: number, code: string, message: string) => ({
  status,
  contentType: "application/json",
  body: JSON.stringify({ error: { code, message } }),
});

/**
 * Answers the page's requests to `url` with a 500, each only once release() is called: the
 * optimistic state shows while the request is on its way, then the rollback. Unroute when done.
 */
export async function failRequestsOnRelease(page: Page, url: string): Promise<() => void> {
  let release: () => void = () => undefined;
  const held = new Promise<void>((r) => (release = r));
  await page.route(url, async (route) => {
    await held;
    await route.fulfill(apiErrorAnswer(500, "internal", "Something went wrong on our side"));
  });
  return release;
}

/**
 * Pages answer without the API answers the server embeds in their HTML (app/lib/storefront-
 * prefetch.server.ts), so a test that makes an API call fail in the browser sees the page make it.
 */
export async function withoutEmbeddedAnswers(page: Page): Promise<void> {
  await page.route(
    () => true,
    async (route) => {
      if (route.request().resourceType() !== "document") return route.fallback();
      const res = await route.fetch();
      const body = (await res.text()).replace(/<script type="application\/json" id="fd-bootstrap">[\s\S]*?<\/script>/, "");
      await route.fulfill({ response: res, body });
    },
  );
}

/**
 * Opens the header's account menu and makes sure it stays open. Right after a sign-in the menu has
 * been seen to close again on its own now and then (CI, 2 of 3 runs of orders.test.ts; cause not
 * found yet: see the README's open items), so a click that did not leave it open is made again.
 */
export async function openAccountMenu(page: Page): Promise<void> {
  const button = page.getByTestId("account-menu-button");
  const menu = page.getByTestId("account-menu");
  for (let attempt = 0; attempt < 3; attempt++) {
    if (!(await menu.isVisible())) await button.click();
    await page.waitForTimeout(500);
    if (await menu.isVisible()) return;
  }
  await menu.waitFor({ state: "visible", timeout: 5_000 });
}
