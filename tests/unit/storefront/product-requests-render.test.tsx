/**
 * The Request a product page and the account's requests section, server-rendered: guests are
 * asked for an email and signed-in shoppers are not, `?garment=` prefills the form, the form's own
 * checks use the server's §5 messages, and the account lists the shopper's requests with the
 * product once sourced. Effects do not run; the API client fails if called.
 */
import { describe, expect, it } from "vitest";
import type { OwnProductRequest } from "~/contract/product-requests";
import { RequestProduct, checkRequestForm } from "../../../storefront/src/pages/RequestProduct";
import { MyProductRequests } from "../../../storefront/src/components/MyProductRequests";
import { MY_PRODUCT_REQUESTS_KEY, requestProductHref } from "../../../storefront/src/lib/product-requests";
import { renderWithSession } from "../../helpers/storefront-render";
import { shopper } from "../../helpers/storefront-user";

const guest = shopper({ auth_provider: "guest", email: null });

describe("Request a product (server render)", () => {
  it("guests see brand, garment, link, photo (file or address) and email", () => {
    const html = renderWithSession("/request-a-product", <RequestProduct />, () => undefined, guest);
    expect(html).toContain('data-testid="request-product-form"');
    for (const name of ["brand", "garment", "link", "image", "image_url", "email"]) expect(html).toContain(`name="${name}"`);
    expect(html).toContain('accept="image/jpeg,image/png,image/webp"');
  });

  it("signed-in shoppers are not asked for an email; ?garment= prefills the garment", () => {
    const html = renderWithSession("/request-a-product?garment=linen%20overshirt", <RequestProduct />, () => undefined, shopper());
    expect(html).not.toContain('name="email"');
    expect(html).toMatch(/name="garment"[^>]*value="linen overshirt"/);
    expect(requestProductHref(" linen overshirt ")).toBe("/request-a-product?garment=linen%20overshirt");
    expect(requestProductHref("")).toBe("/request-a-product");
  });

  it.each([
    [{ brand: " ", garment: "Scarf" }, "Brand is required"],
    [{ brand: "Acne", garment: "" }, "Garment is required"],
    [{ brand: "Acne", garment: "Scarf", link: "acne.com" }, "Link must be a web address (https://…) or left empty"],
    [{ brand: "Acne", garment: "Scarf", imageUrl: "photo.jpg" }, "Image must be an uploaded photo or a web address (https://…)"],
    [{ brand: "Acne", garment: "Scarf", needsEmail: true }, "Email is required so we can tell you when we find it"],
    [{ brand: "Acne", garment: "Scarf", link: "https://acne.com/scarf", needsEmail: true, email: "a@b.c" }, null],
  ])("checks %j", (f, message) => {
    const blank = { link: "", imageUrl: "", email: "", needsEmail: false };
    expect(checkRequestForm({ ...blank, ...f })).toBe(message);
  });
});

describe("the account's product requests", () => {
  const base = { link: null, image_url: null, created_at: "2026-11-20T10:00:00.000Z", updated_at: "2026-11-21T10:00:00.000Z" };
  const requests: OwnProductRequest[] = [
    { ...base, id: "r1", brand: "Acne Studios", garment: "Wool scarf", status: "sourced", product: { id: "gid://shopify/Product/7201", title: "Found Scarf", handle: "found-scarf" } },
    { ...base, id: "r2", brand: "Lemaire", garment: "Twisted shirt", status: "in_review", product: null },
  ];

  it("lists each request with its status, and the product once sourced", () => {
    const html = renderWithSession("/account", <MyProductRequests />, (qc) => qc.setQueryData(MY_PRODUCT_REQUESTS_KEY, { requests }), shopper());
    expect(html.split('data-testid="my-product-request"').length - 1).toBe(2);
    expect(html).toContain('data-status="sourced"');
    expect(html).toContain('href="/products/7201/found-scarf"');
    expect(html).toContain("We are looking");
    expect(html).toContain('href="/request-a-product"');
  });

  it("says so when there is none", () => {
    const html = renderWithSession("/account", <MyProductRequests />, (qc) => qc.setQueryData(MY_PRODUCT_REQUESTS_KEY, { requests: [] }), shopper());
    expect(html).toContain("You have not asked us to find a product yet.");
  });
});
