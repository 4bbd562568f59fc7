/**
 * The theme's own cart in the local theme preview (issue 15): the add-to-cart block on the
 * preview's product page, and the preview's stand-in for the Online Store's Ajax Cart API
 * (`POST /theme-preview/cart/add.js`, `GET /theme-preview/cart.js`) over a local Storefront cart
 * named by a cookie — stock checked, refusals answered 422 as Shopify does, bad input 400.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { createTestApp, type TestApp } from "../helpers/app";
import { setAppContext } from "../../app/context.server";
import { setPrisma } from "../../app/db.server";
import { resetConfigCache } from "../../app/config.server";

type RouteFn = (args: LoaderFunctionArgs) => Promise<Response> | Response;
type RouteModule = { loader: RouteFn; action?: RouteFn };

const ORIGIN = "http://localhost";
let app: TestApp;
let add: RouteModule;
let get: RouteModule;
let page: RouteModule;

async function call(fn: RouteFn, request: Request, params: Record<string, string> = {}): Promise<Response> {
  try {
    return await fn({ request, params, context: {} } as LoaderFunctionArgs);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

const post = (body: unknown, cookie?: string) =>
  new Request(`${ORIGIN}/theme-preview/cart/add.js`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(cookie ? { cookie } : {}) },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
const cartJs = (cookie?: string) => new Request(`${ORIGIN}/theme-preview/cart.js`, { headers: cookie ? { cookie } : {} });
const cookieOf = (res: Response) => (res.headers.get("set-cookie") ?? "").split(";")[0];

beforeAll(async () => {
  app = await createTestApp();
  setAppContext(app.ctx);
  setPrisma(app.database.db);
  resetConfigCache();
  add = (await import("../../app/routes/theme-preview.cart.add[.]js")) as unknown as RouteModule;
  get = (await import("../../app/routes/theme-preview.cart[.]js")) as unknown as RouteModule;
  page = (await import("../../app/routes/theme-preview.products.$id")) as unknown as RouteModule;
  await app.database.db.product.create({
    data: {
      id: "gid://shopify/Product/7101",
      title: "Wool scarf",
      handle: "wool-scarf",
      vendor: "Studio North",
      availableForSale: true,
      priceMin: 40,
      priceMax: 40,
      currencyCode: "EUR",
      status: "active",
      variants: {
        create: [
          { id: "gid://shopify/ProductVariant/7111", title: "Grey", price: 40, currencyCode: "EUR", inventory_quantity: 2, availableForSale: true, selectedOptions: [{ name: "Colour", value: "Grey" }], position: 0 },
          { id: "gid://shopify/ProductVariant/7112", title: "Red", price: 40, currencyCode: "EUR", inventory_quantity: 0, availableForSale: false, selectedOptions: [{ name: "Colour", value: "Red" }], position: 1 },
        ],
      },
    },
  });
}, 120_000);

afterAll(async () => {
  await app?.close();
});

describe("theme preview: add to cart with the theme's own cart", () => {
  it("renders the add-to-cart block on the product page with the first available variant and the theme's cart routes", async () => {
    const res = await call(page.loader, new Request(`${ORIGIN}/theme-preview/products/7101`), { id: "7101" });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/<div\s+class="fd-add-to-cart"/);
    expect(html).toContain('data-variant-id="7111"');
    expect(html).toContain('data-available="true"');
    expect(html).toContain('data-cart-add-url="/theme-preview/cart/add"');
    expect(html).toContain('data-cart-url="/theme-preview/cart"');
    expect(html).toContain('<script src="/theme-preview/assets/fd-add-to-cart.js" defer></script>');
  });

  it("an empty cart before anything is added", async () => {
    const res = await call(get.loader, cartJs());
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ item_count: 0, items: [] });
  });

  it("adds a variant (Ajax Cart shape), remembers the cart in a cookie, and /cart.js counts it", async () => {
    const res = await call(add.action!, post({ items: [{ id: 7111, quantity: 1 }] }));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.items).toEqual([expect.objectContaining({ id: 7111, variant_id: 7111, quantity: 1, price: 4000, product_title: "Wool scarf", variant_title: "Grey" })]);
    const cookie = cookieOf(res);
    expect(cookie).toMatch(/^fd_preview_cart=/);
    expect(res.headers.get("set-cookie")).toMatch(/HttpOnly/);

    // The same cart again: a second add takes the last unit, no new cookie.
    const again = await call(add.action!, post({ id: "7111", quantity: 1 }, cookie));
    expect(again.status).toBe(200);
    expect(again.headers.get("set-cookie")).toBeNull();
    const cart = await (await call(get.loader, cartJs(cookie))).json();
    expect(cart).toMatchObject({ item_count: 2, total_price: 8000, currency: "EUR" });
    expect(cart.items).toHaveLength(1);
  });

  it("refuses a sold-out variant with 422 and a description, as Shopify does", async () => {
    const res = await call(add.action!, post({ items: [{ id: 7112, quantity: 1 }] }));
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ status: 422, message: "Cart Error", description: expect.any(String) });
  });

  it("answers 400 to a body without items, with a bad id or quantity, or not JSON; GET on add.js is 404", async () => {
    for (const body of [{}, { items: [] }, { items: [{ id: "abc" }] }, { items: [{ id: 7111, quantity: 0 }] }, "not json"]) {
      const res = await call(add.action!, post(body));
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await res.json()).toMatchObject({ message: "Cart Error" });
    }
    expect((await call(add.loader, new Request(`${ORIGIN}/theme-preview/cart/add.js`))).status).toBe(404);
  });

  it("a forged cart cookie is a new, empty cart", async () => {
    const res = await call(get.loader, cartJs("fd_preview_cart=gid%3A%2F%2Fshopify%2FCart%2Fforged"));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ item_count: 0 });
  });
});
