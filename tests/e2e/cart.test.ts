/**
 * Cart and checkout in Chromium against the real server with demo data (issue 15): a guest adds
 * two items — one on the product page, one in the product modal — sees the drawer and the header
 * count, signs in and keeps the cart (the guest's cart merged into the account's), checks out on
 * the local checkout with the test card and finds the order in their orders. Then the theme
 * block's add-to-cart on the theme preview, which uses the theme's own cart (/cart/add.js).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, inject } from "vitest";
import type { Page } from "playwright-core";
import { DEMO_PASSWORD, DEMO_SHOPPER, apiGet, launchBrowser, productPath, recordBrowserProblems, screenshot } from "../helpers/browser";

const base = inject("e2eBaseUrl");

type Card = { id: string; handle: string; title: string; availableForSale: boolean };
type Detail = Card & { variants: { id: string; availableForSale: boolean; quantityAvailable: number }[] };
const short = (id: string) => id.split("/").pop()!;

/** Products whose first variant for sale (the one the page selects) has a few units left. */
async function buyableProducts(count: number): Promise<Detail[]> {
  const { products } = await apiGet<{ products: Card[] }>(base, "/products?limit=40");
  const found: Detail[] = [];
  for (const p of products.filter((x) => x.availableForSale)) {
    const d = await apiGet<Detail>(base, `/products/${encodeURIComponent(p.id)}`);
    const first = d.variants.find((v) => v.availableForSale);
    if (first && first.quantityAvailable >= 3) found.push(d);
    if (found.length === count) break;
  }
  if (found.length < count) throw new Error("the demo catalogue has too few products in stock");
  return found;
}

const cartLabel = (page: Page) => page.getByTestId("cart-button").first().getAttribute("aria-label");

describe("cart and local checkout (Chromium, demo data)", () => {
  let page: Page;
  let close: () => Promise<void>;
  let problems: string[];
  let products: Detail[];

  beforeAll(async () => {
    ({ page, close } = await launchBrowser());
    problems = recordBrowserProblems(page);
    products = await buyableProducts(2);
  });
  afterAll(() => close?.());
  afterEach((ctx) => {
    if (ctx.task.result?.state === "fail") {
      void screenshot(page, `cart-failed-${ctx.task.name.slice(0, 40).replace(/\W+/g, "-")}`);
      console.error("page problems:", problems);
    }
  });

  it("a guest adds two items, signs in, keeps the cart, checks out locally and sees the order", async () => {
    const [a, b] = products;

    // 1. The product page: add the selected variant; the drawer opens with it and the count moves.
    await page.goto(`${base}${productPath(a)}`);
    await page.getByTestId("header-saved-link").first().waitFor({ state: "attached", timeout: 30_000 });
    const add = page.getByTestId("add-to-cart-button");
    await expect.poll(() => add.isEnabled(), { timeout: 20_000 }).toBe(true);
    expect(await add.textContent()).toBe("Add to cart");
    await add.click();
    const drawer = page.getByTestId("cart-drawer");
    await drawer.waitFor({ timeout: 20_000 });
    expect(await drawer.getAttribute("aria-modal")).toBe("true");
    await expect.poll(() => drawer.getByTestId("cart-line").count(), { timeout: 20_000 }).toBe(1);
    expect(await drawer.getByTestId("cart-line-title").textContent()).toBe(a.title);
    expect(await cartLabel(page)).toBe("Cart, 1 item");
    await screenshot(page, "cart-drawer");
    await page.keyboard.press("Escape");
    await drawer.waitFor({ state: "detached" });

    // 2. The product modal (the home feed's `?product=`): add, the drawer shows both.
    await page.goto(`${base}/?product=${short(b.id)}`);
    const modal = page.getByTestId("product-modal");
    await modal.waitFor({ timeout: 20_000 });
    const modalAdd = modal.getByTestId("add-to-cart-button");
    await expect.poll(() => modalAdd.isEnabled(), { timeout: 20_000 }).toBe(true);
    await modalAdd.click();
    await drawer.waitFor({ timeout: 20_000 });
    await expect.poll(() => drawer.getByTestId("cart-line").count(), { timeout: 20_000 }).toBe(2);
    await page.getByTestId("cart-drawer-close").click();
    await drawer.waitFor({ state: "detached" });
    expect(await cartLabel(page)).toBe("Cart, 2 items");

    // 3. Sign in: the guest's cart is kept (merged into the account's).
    await page.goto(`${base}/login`);
    await page.getByLabel("Email").fill(DEMO_SHOPPER);
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("button", { name: "Sign out" }).first().waitFor({ timeout: 20_000 });
    await page.goto(`${base}/cart`);
    const cartPage = page.getByTestId("cart-page");
    await cartPage.waitFor();
    await expect.poll(() => cartPage.getByTestId("cart-line").count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    const titles = await cartPage.getByTestId("cart-line-title").allTextContents();
    expect(titles).toEqual(expect.arrayContaining([a.title, b.title]));
    expect(await page.getByText("Taxes and shipping calculated at checkout").count()).toBe(1);
    await screenshot(page, "cart-page");

    // 4. Check out on the local checkout with the test card.
    const checkout = page.getByTestId("cart-checkout");
    await expect.poll(() => checkout.isEnabled(), { timeout: 10_000 }).toBe(true);
    await checkout.click();
    await page.waitForURL((u) => u.pathname === "/checkout", { timeout: 20_000 });
    const form = page.getByTestId("checkout-form");
    await form.waitFor({ timeout: 20_000 });
    const fill = async (label: string, value: string) => {
      const field = form.getByLabel(label, { exact: true });
      if (!(await field.inputValue())) await field.fill(value);
    };
    await fill("Email", DEMO_SHOPPER);
    await fill("First name", "Demo");
    await fill("Last name", "Shopper");
    await fill("Address", "1 Market Street");
    await fill("City", "San Francisco");
    await fill("Postal code", "94105");
    await form.getByLabel("Card number", { exact: true }).fill("4242 4242 4242 4242");
    await form.getByLabel("Expiry (MM/YY)", { exact: true }).fill("12/34");
    await form.getByLabel("Security code", { exact: true }).fill("123");
    await fill("Name on card", "Demo Shopper");
    await page.getByTestId("checkout-submit").click();
    const done = page.getByTestId("checkout-confirmation");
    await done.waitFor({ timeout: 30_000 });
    await screenshot(page, "checkout-confirmation");
    // The cart is spent: the header count goes back to 0.
    await expect.poll(() => cartLabel(page), { timeout: 20_000 }).toBe("Cart, 0 items");

    // 5. The order is in the shopper's orders.
    await page.getByTestId("checkout-order-link").click();
    await page.waitForURL((u) => u.pathname.startsWith("/account/orders/"), { timeout: 20_000 });
    const detail = page.getByTestId("order-detail");
    await detail.waitFor({ timeout: 20_000 });
    const heading = (await detail.getByRole("heading", { level: 1 }).textContent()) ?? "";
    const orderName = heading.replace(/^Order\s+/, "");
    expect(orderName).toMatch(/\S/);
    await page.goto(`${base}/account/orders`);
    await page.getByTestId("order-card").first().waitFor({ timeout: 20_000 });
    expect(await page.getByTestId("orders-page").or(page.locator("main")).first().textContent()).toContain(orderName);
  });

  it("the theme block adds to the theme's own cart on the theme preview", async () => {
    const [a] = products;
    await page.goto(`${base}/theme-preview/products/${short(a.id)}`);
    const block = page.locator(".fd-add-to-cart");
    await expect.poll(() => block.getAttribute("data-state"), { timeout: 20_000 }).toBe("ready");
    await block.locator("input.fd-add-to-cart__qty").fill("2");
    await block.getByRole("button", { name: "Add to cart" }).click();
    await expect.poll(() => block.getAttribute("data-state"), { timeout: 20_000 }).toBe("added");
    expect(await block.getAttribute("data-cart-count")).toBe("2");
    expect(await block.locator(".fd-add-to-cart__status").textContent()).toContain("2");
    const cart = await page.evaluate(async () => (await fetch("/theme-preview/cart.js")).json());
    expect(cart).toMatchObject({ item_count: 2, items: [expect.objectContaining({ variant_id: Number(short(a.variants.find((v) => v.availableForSale)!.id)), quantity: 2 })] });
  });
});
