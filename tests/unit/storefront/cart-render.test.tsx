/**
 * Server renders of the cart in the storefront (issue 15): the header's cart button and count,
 * the product page's add to cart (a variant required, sold out disabled), the /cart page's lines,
 * issues, discount codes, summary and checkout rules, and the empty cart. The cart and products
 * are seeded in the query cache; the API client fails if called (effects do not run here).
 * Adding, editing and the drawer are exercised in Chromium (tests/e2e/cart.test.ts) and the
 * optimistic rules in cart-state.test.ts.
 */
import { describe, expect, it } from "vitest";
import type { ProductDetail } from "~/contract";
import type { Cart, CartLine } from "~/contract/cart";
import { renderStorefront, shopper } from "../../helpers/storefront-render";
import { cartKey } from "../../../storefront/src/lib/cart";
import { addToCartState } from "../../../storefront/src/components/AddToCart";
import { quickAddTarget } from "../../../storefront/src/components/AddToCartQuick";

const eur = (amount: string) => ({ amount, currencyCode: "EUR" });
const user = shopper();

function variant(id: number, size: string, over: Partial<ProductDetail["variants"][number]> = {}): ProductDetail["variants"][number] {
  return {
    id: `gid://shopify/ProductVariant/${id}`,
    title: size,
    sku: null,
    availableForSale: true,
    quantityAvailable: 10,
    image: null,
    price: eur("80.00"),
    compareAtPrice: null,
    selectedOptions: [{ name: "Size", value: size }],
    colorHex: null,
    product: { id: "gid://shopify/Product/77", handle: "linen-shirt", title: "Linen shirt" },
    ...over,
  };
}

function product(variants: ProductDetail["variants"], over: Partial<ProductDetail> = {}): ProductDetail {
  return {
    id: "gid://shopify/Product/77",
    title: "Linen shirt",
    handle: "linen-shirt",
    vendor: "Atelier Nord",
    productType: "Shirt",
    availableForSale: variants.some((v) => v.availableForSale),
    featuredImage: null,
    priceRange: { minVariantPrice: eur("80.00"), maxVariantPrice: eur("80.00") },
    target_gender: "menswear",
    colorHexes: [],
    storeId: null,
    description: "A shirt.",
    descriptionHtml: "<p>A shirt.</p>",
    tags: [],
    status: "active",
    publishedAt: "2026-01-01T00:00:00.000Z",
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    totalInventory: 20,
    options: [{ id: "o1", name: "Size", values: variants.map((v) => v.title) }],
    images: [],
    variants,
    ...over,
  } as ProductDetail;
}

function line(id: string, quantity: number, price: string, over: Partial<CartLine> = {}): CartLine {
  return {
    id: `gid://shopify/CartLine/${id}`,
    quantity,
    merchandise: {
      variantId: `gid://shopify/ProductVariant/${id}`,
      productId: `gid://shopify/Product/${id}`,
      productHandle: `product-${id}`,
      productTitle: `Product ${id}`,
      vendor: "Atelier Nord",
      variantTitle: "M / Black",
      sku: null,
      image: { url: `/uploads/images/${id}.jpg`, altText: null },
      selectedOptions: [{ name: "Size", value: "M" }],
      availableForSale: true,
      price: eur(price),
    },
    cost: { amountPerQuantity: eur(price), compareAtAmountPerQuantity: null, totalAmount: eur((Number(price) * quantity).toFixed(2)) },
    issue: null,
    ...over,
  };
}

function cartOf(lines: CartLine[], over: Partial<Cart> = {}): Cart {
  const sub = lines.reduce((n, l) => n + Number(l.cost.totalAmount.amount), 0).toFixed(2);
  return {
    id: "gid://shopify/Cart/c1",
    checkoutUrl: "http://localhost/checkout?cart=c1",
    totalQuantity: lines.reduce((n, l) => n + l.quantity, 0),
    lines,
    discountCodes: [],
    subtotal: lines.length ? eur(sub) : null,
    total: lines.length ? eur(sub) : null,
    warnings: [],
    ...over,
  };
}

const render = (path: string, seed: { cart?: Cart; product?: ProductDetail }) =>
  renderStorefront(
    path,
    (qc) => {
      if (seed.cart) qc.setQueryData(cartKey(user.id), seed.cart);
      if (seed.product) qc.setQueryData(["product", seed.product.id], seed.product);
    },
    user,
  );

const tag = (html: string, testId: string) => html.match(new RegExp(`<[^>]*data-testid="${testId}"[^>]*>`))?.[0] ?? "";

describe("header cart button", () => {
  it("shows the count and names it", () => {
    const html = render("/stores", { cart: cartOf([line("1", 2, "10.00"), line("2", 1, "5.00")]) });
    const button = tag(html, "cart-button");
    expect(button).toContain('aria-label="Cart, 3 items"');
    expect(html).toMatch(/data-testid="cart-count"[^>]*>3</);
  });

  it("has no count bubble for an empty cart (still a named button)", () => {
    const html = render("/stores", { cart: cartOf([]) });
    expect(tag(html, "cart-button")).toContain('aria-label="Cart, 0 items"');
    expect(html).not.toContain('data-testid="cart-count"');
  });
});

describe("add to cart on the product page", () => {
  it("adds the selected variant with a quantity", () => {
    const html = render("/products/77/linen-shirt", { product: product([variant(1, "S"), variant(2, "M")]), cart: cartOf([]) });
    expect(html).toContain('data-testid="add-to-cart"');
    const button = tag(html, "add-to-cart-button");
    expect(button).not.toContain("disabled");
    expect(html).toMatch(/data-testid="add-to-cart-button"[^>]*>Add to cart</);
    expect(tag(html, "add-to-cart-quantity")).toMatch(/max="10"/);
  });

  it("a sold-out product: the button says Sold out and is disabled, and back in stock stays", () => {
    const html = render("/products/77/linen-shirt", { product: product([variant(1, "S", { availableForSale: false, quantityAvailable: 0 })]), cart: cartOf([]) });
    expect(tag(html, "add-to-cart-button")).toContain("disabled");
    expect(html).toMatch(/data-testid="add-to-cart-button"[^>]*>Sold out</);
    expect(html).toMatch(/[Bb]ack in stock|[Nn]otify me/);
  });

  it("names the missing option until the choices name a variant, and refuses a sold-out variant", () => {
    const p = product([variant(1, "S"), variant(2, "M", { availableForSale: false })]);
    expect(addToCartState(p, {}, null)).toEqual({ label: "Select a size", enabled: false });
    expect(addToCartState(p, { Size: "S" }, p.variants[0])).toEqual({ label: "Add to cart", enabled: true });
    expect(addToCartState(p, { Size: "M" }, p.variants[1])).toEqual({ label: "Sold out", enabled: false });
    expect(addToCartState(p, { Size: "XL" }, null)).toEqual({ label: "Unavailable", enabled: false });
  });

  it("quick add (saved, assistant, try-on): one variant goes in, several ask to choose, none for sale is sold out", () => {
    expect(quickAddTarget(product([variant(1, "Default Title")], { options: [{ id: "o", name: "Title", values: ["Default Title"] }] }))).toEqual({
      kind: "add",
      variantId: "gid://shopify/ProductVariant/1",
    });
    expect(quickAddTarget(product([variant(1, "S"), variant(2, "M")]))).toEqual({ kind: "choose" });
    expect(quickAddTarget(product([variant(1, "S", { availableForSale: false })]))).toEqual({ kind: "sold-out" });
  });
});

describe("/cart page", () => {
  it("lists lines with image, title, variant, price, stepper and remove; subtotal; taxes at checkout; check out enabled", () => {
    const html = render("/cart", { cart: cartOf([line("1", 2, "10.00"), line("2", 1, "25.50")]) });
    expect(html).toContain('data-testid="cart-page"');
    expect(html.split('data-testid="cart-line"').length - 1).toBe(2);
    // A small variant of the line's image from the image route (app/client/images.ts).
    expect(html).toMatch(/<img[^>]*src="\/images\/1\.jpg\?w=\d+[^"]*"/);
    expect(html).toMatch(/data-testid="cart-line-title"[^>]*>Product 1</);
    expect(html).toMatch(/data-testid="cart-line-variant"[^>]*>M \/ Black</);
    expect(html).toContain("€10.00");
    expect(html).toMatch(/data-testid="cart-line-total"[^>]*>€20.00</);
    expect(tag(html, "cart-line-quantity")).toMatch(/value="2"/);
    expect(html).toContain('aria-label="Remove Product 1"');
    expect(html).toMatch(/data-testid="cart-subtotal"[^>]*>€45.50</);
    expect(html).toContain("Taxes and shipping calculated at checkout");
    expect(tag(html, "cart-checkout")).not.toContain("disabled");
  });

  it("shows line issues; a sold-out line disables check out", () => {
    const html = render("/cart", {
      cart: cartOf([
        line("1", 1, "10.00", { issue: { code: "PRICE_CHANGED", message: "Price changed from €8.00 to €10.00" } }),
        line("2", 2, "5.00", { issue: { code: "NOT_ENOUGH_STOCK", message: "Only 2 left" } }),
        line("3", 1, "7.00", { issue: { code: "SOLD_OUT", message: "Sold out" }, merchandise: { ...line("3", 1, "7.00").merchandise, availableForSale: false } }),
      ]),
    });
    expect(html).toMatch(/data-code="PRICE_CHANGED"[^>]*>Price changed from €8.00 to €10.00</);
    expect(html).toMatch(/data-code="NOT_ENOUGH_STOCK"[^>]*>Only 2 left</);
    expect(html).toMatch(/data-code="SOLD_OUT"/);
    expect(tag(html, "cart-checkout")).toContain("disabled");
    expect(html).toContain("Remove the sold-out items to check out.");
  });

  it("shows discount codes that apply and those that do not, and the total after discounts", () => {
    const html = render("/cart", {
      cart: cartOf([line("1", 2, "10.00")], {
        discountCodes: [
          { code: "WELCOME10", applicable: true },
          { code: "NOPE", applicable: false },
        ],
        subtotal: eur("20.00"),
        total: eur("18.00"),
      }),
    });
    expect(html).toContain('data-testid="cart-discount-form"');
    expect(html).toMatch(/data-applicable="true"[^>]*>.*WELCOME10.*Applied/);
    expect(html).toMatch(/data-applicable="false"[^>]*>.*NOPE.*does not apply/);
    expect(html).toMatch(/data-testid="cart-total"[^>]*>€18.00</);
  });

  it("an empty cart: a link back to the shop, no check out", () => {
    const html = render("/cart", { cart: cartOf([]) });
    expect(html).toContain('data-testid="cart-empty"');
    expect(html).toContain("Your cart is empty");
    expect(html).toMatch(/<a[^>]*href="\/[^"]*"[^>]*>Continue shopping</);
    expect(html).not.toContain('data-testid="cart-checkout"');
  });
});
