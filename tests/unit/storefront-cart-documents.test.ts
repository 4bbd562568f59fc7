/**
 * The cart documents (issue 15: Storefront API cart → Shopify checkout) are valid against the real
 * 2025-07 Storefront schema and use no deprecated field, so Shopify accepts them as written.
 */
import { describe, expect, it } from "vitest";
import { NoDeprecatedCustomRule, parse, specifiedRules, validate } from "graphql";
import { getStorefrontSchema } from "../../app/storefront-api/schema.server";
import { CART_DOCUMENTS, CART_FIELDS_FRAGMENT } from "../../app/storefront-api/cart-documents";

const schema = getStorefrontSchema();
const errorsOf = (source: string) => validate(schema, parse(source), [...specifiedRules, NoDeprecatedCustomRule]).map((e) => e.message);

describe("Storefront cart documents (2025-07)", () => {
  for (const [name, source] of Object.entries(CART_DOCUMENTS)) {
    it(`${name} is valid against the Storefront schema, without deprecated fields`, () => {
      expect(source.trimStart().startsWith("#graphql")).toBe(true);
      const op = parse(source).definitions.find((d) => d.kind === "OperationDefinition");
      expect(op && "name" in op ? op.name?.value : undefined).toBe(name);
      expect(errorsOf(source)).toEqual([]);
    });
  }

  it("reads what a cart page and refresh-cart need: checkout URL, costs, availability, buyer and discounts", () => {
    for (const field of ["checkoutUrl", "totalQuantity", "subtotalAmount", "totalAmount", "availableForSale", "quantityAvailable", "compareAtAmountPerQuantity", "discountCodes", "buyerIdentity", "selectedOptions"]) {
      expect(CART_FIELDS_FRAGMENT).toContain(field);
    }
  });

  it("a wrong input type or a deprecated field is caught", () => {
    const wrong = CART_DOCUMENTS.CartLinesAdd.replace("[CartLineInput!]!", "[CartLineUpdateInput!]!");
    expect(errorsOf(wrong).join("\n")).toMatch(/CartLineUpdateInput/);
    const deprecated = `#graphql
      query Q($id: ID!) { cart(id: $id) { cost { totalTaxAmount { amount } } } }`;
    expect(errorsOf(deprecated).join("\n")).toMatch(/deprecated/);
  });
});
