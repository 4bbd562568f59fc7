/**
 * The Storefront API cart documents (API 2025-07) for issue 15's checkout: the cart lives in
 * Shopify and checkout is Shopify's own (`checkoutUrl`); in local mode the local Storefront endpoint
 * answers them from its own cart store. Isomorphic plain strings, kept apart from STOREFRONT_DOCUMENTS
 * (the catalogue reads). `quantityAvailable` needs the unauthenticated_read_product_inventory
 * scope (the app requests it): the cart shows "only N left" and caps quantities. Each is validated
 * against the real 2025-07 Storefront schema, deprecated fields refused, in
 * tests/unit/storefront-cart-documents.test.ts.
 */

/**
 * Lines read per request: Shopify's carts hold up to 500 lines; a shopper's cart is far smaller,
 * and the client reads any further pages with CartLinesPage.
 */
export const CART_LINES_PAGE_SIZE = 100;

export const CART_LINE_FIELDS_FRAGMENT = `#graphql
  fragment CartLineFields on BaseCartLine {
    id
    quantity
    attributes {
      key
      value
    }
    cost {
      amountPerQuantity {
        amount
        currencyCode
      }
      compareAtAmountPerQuantity {
        amount
        currencyCode
      }
      totalAmount {
        amount
        currencyCode
      }
    }
    merchandise {
      ... on ProductVariant {
        id
        title
        sku
        availableForSale
        currentlyNotInStock
        quantityAvailable
        price {
          amount
          currencyCode
        }
        image {
          url
          altText
        }
        selectedOptions {
          name
          value
        }
        product {
          id
          title
          handle
          vendor
        }
      }
    }
  }
`;

export const CART_FIELDS_FRAGMENT = `#graphql
  fragment CartFields on Cart {
    id
    checkoutUrl
    totalQuantity
    createdAt
    updatedAt
    note
    buyerIdentity {
      email
      countryCode
      customer {
        id
      }
    }
    discountCodes {
      code
      applicable
    }
    cost {
      subtotalAmount {
        amount
        currencyCode
      }
      totalAmount {
        amount
        currencyCode
      }
      checkoutChargeAmount {
        amount
        currencyCode
      }
    }
    lines(first: ${CART_LINES_PAGE_SIZE}) {
      nodes {
        ...CartLineFields
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
  ${CART_LINE_FIELDS_FRAGMENT}`;

const USER_ERRORS = `
    userErrors {
      field
      message
      code
    }
    warnings {
      code
      message
      target
    }`;

const mutation = (name: string, variables: string, field: string, args: string) => `#graphql
  mutation ${name}(${variables}) {
    ${field}(${args}) {
      cart {
        ...CartFields
      }${USER_ERRORS}
    }
  }
  ${CART_FIELDS_FRAGMENT}`;

export const CART_DOCUMENTS = {
  CartById: `#graphql
  query CartById($id: ID!) {
    cart(id: $id) {
      ...CartFields
    }
  }
  ${CART_FIELDS_FRAGMENT}`,
  CartLinesPage: `#graphql
  query CartLinesPage($id: ID!, $after: String) {
    cart(id: $id) {
      lines(first: ${CART_LINES_PAGE_SIZE}, after: $after) {
        nodes {
          ...CartLineFields
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
  ${CART_LINE_FIELDS_FRAGMENT}`,
  CartCreate: mutation("CartCreate", "$input: CartInput!", "cartCreate", "input: $input"),
  CartLinesAdd: mutation("CartLinesAdd", "$cartId: ID!, $lines: [CartLineInput!]!", "cartLinesAdd", "cartId: $cartId, lines: $lines"),
  CartLinesUpdate: mutation("CartLinesUpdate", "$cartId: ID!, $lines: [CartLineUpdateInput!]!", "cartLinesUpdate", "cartId: $cartId, lines: $lines"),
  CartLinesRemove: mutation("CartLinesRemove", "$cartId: ID!, $lineIds: [ID!]!", "cartLinesRemove", "cartId: $cartId, lineIds: $lineIds"),
  CartDiscountCodesUpdate: mutation("CartDiscountCodesUpdate", "$cartId: ID!, $discountCodes: [String!]!", "cartDiscountCodesUpdate", "cartId: $cartId, discountCodes: $discountCodes"),
  CartBuyerIdentityUpdate: mutation("CartBuyerIdentityUpdate", "$cartId: ID!, $buyerIdentity: CartBuyerIdentityInput!", "cartBuyerIdentityUpdate", "cartId: $cartId, buyerIdentity: $buyerIdentity"),
} as const;

export type CartDocumentName = keyof typeof CART_DOCUMENTS;
