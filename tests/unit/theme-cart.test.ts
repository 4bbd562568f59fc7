/**
 * The theme's own cart from the client library (app/client/theme-cart.ts): the Ajax Cart API
 * requests the add-to-cart block sends, Shopify's refusals as messages, and how the theme hears
 * of the change (count bubble, cart:refresh). No network: a recorded fetch.
 */
import { describe, expect, it } from "vitest";
import { addToThemeCart, announceThemeCart, getThemeCart, numericVariantId, ThemeCartError } from "~/client";

function recorder(answers: Record<string, { status: number; body: unknown }>) {
  const calls: { url: string; init?: RequestInit }[] = [];
  const f = (async (url: string, init?: RequestInit) => {
    calls.push({ url, init });
    const a = answers[url];
    if (!a) return new Response("{}", { status: 404 });
    return new Response(JSON.stringify(a.body), { status: a.status, headers: { "content-type": "application/json" } });
  }) as unknown as typeof fetch;
  return { f, calls };
}

describe("theme cart (Ajax Cart API)", () => {
  it("reads numeric variant ids from GIDs and numbers only", () => {
    expect(numericVariantId("gid://shopify/ProductVariant/123")).toBe(123);
    expect(numericVariantId("456")).toBe(456);
    expect(numericVariantId(789)).toBe(789);
    expect(numericVariantId("gid://shopify/Product/1")).toBeNull();
    expect(numericVariantId("")).toBeNull();
    expect(numericVariantId("0")).toBeNull();
  });

  it("posts { items: [{ id, quantity }] } to the theme's cart_add_url + .js, then reads cart_url + .js", async () => {
    const { f, calls } = recorder({
      "/fr/cart/add.js": { status: 200, body: { items: [{ id: 42, quantity: 2 }] } },
      "/fr/cart.js": { status: 200, body: { token: "t", item_count: 3, items: [{ id: 42, quantity: 2 }, { id: 7, quantity: 1 }] } },
    });
    const cart = await addToThemeCart("gid://shopify/ProductVariant/42", 2, { cartAddUrl: "/fr/cart/add", cartUrl: "/fr/cart", fetch: f });
    expect(cart.item_count).toBe(3);
    expect(calls[0].url).toBe("/fr/cart/add.js");
    expect(calls[0].init?.method).toBe("POST");
    expect(JSON.parse(String(calls[0].init?.body))).toEqual({ items: [{ id: 42, quantity: 2 }] });
    expect(calls[1].url).toBe("/fr/cart.js");
  });

  it("uses /cart/add.js and /cart.js by default and keeps quantities within 1…99", async () => {
    const { f, calls } = recorder({ "/cart/add.js": { status: 200, body: {} }, "/cart.js": { status: 200, body: { item_count: 99 } } });
    const cart = await addToThemeCart(5, 500, { fetch: f });
    expect(JSON.parse(String(calls[0].init?.body))).toEqual({ items: [{ id: 5, quantity: 99 }] });
    expect(cart).toMatchObject({ item_count: 99, items: [] });
  });

  it("turns Shopify's 422 into a ThemeCartError with its description; a bad variant id never leaves the page", async () => {
    const { f, calls } = recorder({ "/cart/add.js": { status: 422, body: { status: 422, message: "Cart Error", description: "All 2 Wool scarf - Grey are in your cart." } } });
    const err = await addToThemeCart(1, 1, { fetch: f }).catch((e) => e);
    expect(err).toBeInstanceOf(ThemeCartError);
    expect(err).toMatchObject({ status: 422, message: "All 2 Wool scarf - Grey are in your cart." });
    await expect(addToThemeCart("gid://shopify/Product/1", 1, { fetch: f })).rejects.toMatchObject({ status: 400 });
    expect(calls).toHaveLength(1);
    const down = recorder({});
    await expect(getThemeCart({ fetch: down.f })).rejects.toMatchObject({ status: 404 });
  });

  it("tells the theme: the count bubble shows the count and cart:refresh / cart:updated carry the cart", () => {
    const bubble = { textContent: "1" as string | null, hidden: true };
    const events: Event[] = [];
    const doc = { querySelectorAll: () => [bubble], dispatchEvent: (e: Event) => (events.push(e), true) };
    announceThemeCart({ item_count: 4, items: [] }, doc);
    expect(bubble).toMatchObject({ textContent: "4", hidden: false });
    expect(events.map((e) => e.type)).toEqual(["cart:refresh", "cart:updated"]);
    expect((events[0] as CustomEvent).detail.cart.item_count).toBe(4);
  });
});
