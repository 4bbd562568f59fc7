/**
 * The Storefront API documents the app sends (API version 2025-07). Isomorphic: plain strings.
 * Every document is validated against the real Storefront schema in
 * tests/unit/storefront-documents.test.ts, and the local endpoint (/api/storefront/graphql)
 * answers the same documents from the local catalogue.
 *
 * Product options select `optionValues { id name }`: `ProductOption.values` is deprecated in
 * 2025-07 ("Use `optionValues` instead").
 */

export const STOREFRONT_API_VERSION = "2025-07";

/** Storefront caps: images up to 50, variants up to 250 (SPEC §3), and `first` up to 250. */
export const STOREFRONT_MAX_IMAGES = 50;
export const STOREFRONT_MAX_VARIANTS = 250;
export const STOREFRONT_MAX_PAGE_SIZE = 250;

export const PRODUCT_FIELDS_FRAGMENT = `#graphql
  fragment StorefrontProductFields on Product {
    id
    title
    handle
    vendor
    availableForSale
    productType
    description
    descriptionHtml
    featuredImage {
      url
      altText
    }
    priceRange {
      minVariantPrice {
        amount
        currencyCode
      }
      maxVariantPrice {
        amount
        currencyCode
      }
    }
    options {
      id
      name
      optionValues {
        id
        name
      }
    }
    images(first: 50) {
      nodes {
        url
        altText
      }
    }
    variants(first: 250) {
      nodes {
        id
        title
        availableForSale
        image {
          url
          altText
        }
        price {
          amount
          currencyCode
        }
        compareAtPrice {
          amount
          currencyCode
        }
        selectedOptions {
          name
          value
        }
        product {
          handle
          title
        }
        colorHex: metafield(namespace: "custom", key: "color_hex") {
          value
        }
      }
    }
    targetGender: metafield(namespace: "custom", key: "target_gender") {
      value
    }
  }
`;

export const PRODUCTS_BY_IDS_QUERY = `#graphql
  query ProductsByIds($ids: [ID!]!) {
    nodes(ids: $ids) {
      ... on Product {
        ...StorefrontProductFields
      }
    }
  }
  ${PRODUCT_FIELDS_FRAGMENT}
`;

export const PRODUCT_BY_ID_QUERY = `#graphql
  query ProductById($id: ID!) {
    product(id: $id) {
      ...StorefrontProductFields
    }
  }
  ${PRODUCT_FIELDS_FRAGMENT}
`;

export const PRODUCTS_LIST_QUERY = `#graphql
  query ProductsList($first: Int!, $after: String, $query: String, $sortKey: ProductSortKeys, $reverse: Boolean) {
    products(first: $first, after: $after, query: $query, sortKey: $sortKey, reverse: $reverse) {
      nodes {
        ...StorefrontProductFields
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
  ${PRODUCT_FIELDS_FRAGMENT}
`;

/** Every operation the app sends, by operation name (the unit test validates each one). */
export const STOREFRONT_DOCUMENTS = {
  ProductsByIds: PRODUCTS_BY_IDS_QUERY,
  ProductById: PRODUCT_BY_ID_QUERY,
  ProductsList: PRODUCTS_LIST_QUERY,
} as const;

/** The Storefront `ProductSortKeys` enum (2025-07). */
export const PRODUCT_SORT_KEYS = ["BEST_SELLING", "CREATED_AT", "ID", "PRICE", "PRODUCT_TYPE", "RELEVANCE", "TITLE", "UPDATED_AT", "VENDOR"] as const;
export type ProductSortKey = (typeof PRODUCT_SORT_KEYS)[number];
