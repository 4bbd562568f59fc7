/**
 * Every Admin GraphQL document the Shopify commerce adapter sends, one named `#graphql` document
 * per operation. tests/unit/shopify-documents.test.ts validates each of them against the Admin
 * schema of the pinned API version (ADMIN_API_VERSION in app/shopify.server.ts), so a typo'd
 * field fails a test instead of a production request.
 *
 * Metafields: `custom.target_gender` on products, `custom.color_hex` on variants.
 */

export const METAFIELD_NAMESPACE = "custom";
export const TARGET_GENDER_KEY = "target_gender";
export const COLOR_HEX_KEY = "color_hex";

const PRODUCT_FIELDS = `#graphql
  fragment ProductFields on Product {
    id
    title
    handle
    vendor
    productType
    description
    descriptionHtml
    status
    tags
    publishedAt
    createdAt
    updatedAt
    priceRangeV2 { minVariantPrice { currencyCode } }
    targetGender: metafield(namespace: "custom", key: "target_gender") { value }
    options { id name position optionValues { id name } }
    media(first: 100) {
      nodes { ...MediaFields }
    }
    variants(first: 100) {
      nodes { ...VariantFields }
    }
  }
  fragment MediaFields on Media {
    id
    mediaContentType
    ... on MediaImage { image { url altText width height } }
  }
  fragment VariantFields on ProductVariant {
    id
    title
    sku
    price
    compareAtPrice
    availableForSale
    inventoryQuantity
    position
    selectedOptions { name value }
    colorHex: metafield(namespace: "custom", key: "color_hex") { value }
    media(first: 1) { nodes { ... on MediaImage { image { url } } } }
  }
`;

const ORDER_FIELDS = `#graphql
  fragment OrderFields on Order {
    id
    name
    email
    createdAt
    cancelledAt
    cancelReason
    displayFinancialStatus
    displayFulfillmentStatus
    customer { id }
    totalPriceSet { shopMoney { amount currencyCode } }
    lineItems(first: 100) {
      nodes {
        id
        title
        variantTitle
        quantity
        product { id }
        variant { id }
        originalUnitPriceSet { shopMoney { amount } }
      }
    }
  }
`;

const USER_ERRORS = "userErrors { field message }";

// ---------------------------------------------------------------------------------------------
// Products
// ---------------------------------------------------------------------------------------------

export const PRODUCT_GET = `#graphql
  query ProductGet($id: ID!) {
    product(id: $id) { ...ProductFields }
  }
  ${PRODUCT_FIELDS}
`;

export const PRODUCTS_LIST = `#graphql
  query ProductsList($first: Int!, $after: String, $query: String) {
    products(first: $first, after: $after, query: $query, sortKey: ID) {
      nodes { ...ProductFields }
      pageInfo { hasNextPage endCursor }
    }
  }
  ${PRODUCT_FIELDS}
`;

/** productSet creates a product with its options, variants, files and metafields in one call. */
export const PRODUCT_SET = `#graphql
  mutation ProductSet($input: ProductSetInput!) {
    productSet(input: $input, synchronous: true) {
      product { ...ProductFields }
      userErrors { field message code }
    }
  }
  ${PRODUCT_FIELDS}
`;

export const PRODUCT_UPDATE = `#graphql
  mutation ProductUpdate($product: ProductUpdateInput!) {
    productUpdate(product: $product) {
      product { ...ProductFields }
      ${USER_ERRORS}
    }
  }
  ${PRODUCT_FIELDS}
`;

export const PRODUCT_ADD_MEDIA = `#graphql
  mutation ProductAddMedia($product: ProductUpdateInput!, $media: [CreateMediaInput!]) {
    productUpdate(product: $product, media: $media) {
      product {
        id
        mediaCount { count }
        media(last: 1) { nodes { ...MediaFields } }
      }
      ${USER_ERRORS}
    }
  }
  fragment MediaFields on Media {
    id
    mediaContentType
    ... on MediaImage { image { url altText width height } }
  }
`;

export const PRODUCT_DELETE = `#graphql
  mutation ProductDelete($id: ID!) {
    productDelete(input: { id: $id }, synchronous: true) {
      deletedProductId
      ${USER_ERRORS}
    }
  }
`;

export const METAFIELDS_SET = `#graphql
  mutation MetafieldsSet($metafields: [MetafieldsSetInput!]!) {
    metafieldsSet(metafields: $metafields) {
      metafields { id key namespace }
      userErrors { field message code }
    }
  }
`;

export const METAFIELDS_DELETE = `#graphql
  mutation MetafieldsDelete($metafields: [MetafieldIdentifierInput!]!) {
    metafieldsDelete(metafields: $metafields) {
      deletedMetafields { key namespace ownerId }
      ${USER_ERRORS}
    }
  }
`;

export const PRODUCT_OPTION_UPDATE = `#graphql
  mutation ProductOptionUpdate($productId: ID!, $option: OptionUpdateInput!, $optionValuesToUpdate: [OptionValueUpdateInput!], $optionValuesToDelete: [ID!]) {
    productOptionUpdate(productId: $productId, option: $option, optionValuesToUpdate: $optionValuesToUpdate, optionValuesToDelete: $optionValuesToDelete) {
      product { id }
      userErrors { field message code }
    }
  }
`;

export const PRODUCT_VARIANTS_DELETE = `#graphql
  mutation ProductVariantsDelete($productId: ID!, $variantsIds: [ID!]!) {
    productVariantsBulkDelete(productId: $productId, variantsIds: $variantsIds) {
      product { id }
      userErrors { field message code }
    }
  }
`;

/** New variants on an existing product (values an option does not have yet are created with them). */
export const PRODUCT_VARIANTS_CREATE = `#graphql
  mutation ProductVariantsCreate($productId: ID!, $variants: [ProductVariantsBulkInput!]!) {
    productVariantsBulkCreate(productId: $productId, variants: $variants) {
      productVariants { id }
      userErrors { field message code }
    }
  }
`;

/** Price, compare-at price and SKU of existing variants. */
export const PRODUCT_VARIANTS_UPDATE = `#graphql
  mutation ProductVariantsUpdate($productId: ID!, $variants: [ProductVariantsBulkInput!]!) {
    productVariantsBulkUpdate(productId: $productId, variants: $variants) {
      productVariants { id }
      userErrors { field message code }
    }
  }
`;

// ---------------------------------------------------------------------------------------------
// Media
// ---------------------------------------------------------------------------------------------

export const PRODUCT_REORDER_MEDIA = `#graphql
  mutation ProductReorderMedia($id: ID!, $moves: [MoveInput!]!) {
    productReorderMedia(id: $id, moves: $moves) {
      job { id done }
      mediaUserErrors { field message code }
    }
  }
`;

export const PRODUCT_VARIANT_APPEND_MEDIA = `#graphql
  mutation ProductVariantAppendMedia($productId: ID!, $variantMedia: [ProductVariantAppendMediaInput!]!) {
    productVariantAppendMedia(productId: $productId, variantMedia: $variantMedia) {
      productVariants { id }
      userErrors { field message code }
    }
  }
`;

/** A variant's product and the media attached to it (setVariantImage: what to detach first). */
export const VARIANT_MEDIA = `#graphql
  query VariantMedia($id: ID!) {
    productVariant(id: $id) {
      id
      product { id }
      media(first: 10) { nodes { id } }
    }
  }
`;

export const PRODUCT_VARIANT_DETACH_MEDIA = `#graphql
  mutation ProductVariantDetachMedia($productId: ID!, $variantMedia: [ProductVariantDetachMediaInput!]!) {
    productVariantDetachMedia(productId: $productId, variantMedia: $variantMedia) {
      productVariants { id }
      userErrors { field message code }
    }
  }
`;

/**
 * Removes media from a product: `fileUpdate` with `referencesToRemove` (the 2026-10 replacement of
 * the deprecated productDeleteMedia). The file stays in the shop's Files; the product's gallery
 * and the variants that showed it lose it.
 */
export const PRODUCT_REMOVE_MEDIA = `#graphql
  mutation ProductRemoveMedia($files: [FileUpdateInput!]!) {
    fileUpdate(files: $files) {
      files { id }
      userErrors { field message code }
    }
  }
`;

/**
 * Creates an image from a URL on the product and attaches it to a variant in one call
 * (`media` + the variant's `mediaSrc`): Shopify attaches it once the image is processed.
 */
export const PRODUCT_VARIANT_SET_IMAGE = `#graphql
  mutation ProductVariantSetImage($productId: ID!, $media: [CreateMediaInput!], $variants: [ProductVariantsBulkInput!]!) {
    productVariantsBulkUpdate(productId: $productId, media: $media, variants: $variants) {
      productVariants {
        id
        media(first: 1) { nodes { id ... on MediaImage { image { url } } } }
      }
      userErrors { field message code }
    }
  }
`;

// ---------------------------------------------------------------------------------------------
// Inventory
// ---------------------------------------------------------------------------------------------

export const INVENTORY_LEVELS = `#graphql
  query InventoryLevels($first: Int!, $after: String, $query: String) {
    productVariants(first: $first, after: $after, query: $query) {
      nodes {
        id
        inventoryQuantity
        product { id }
      }
      pageInfo { hasNextPage endCursor }
    }
  }
`;

export const VARIANT_INVENTORY_ITEMS = `#graphql
  query VariantInventoryItems($ids: [ID!]!) {
    nodes(ids: $ids) {
      ... on ProductVariant {
        id
        product { id }
        inventoryItem { id }
      }
    }
  }
`;

export const INVENTORY_ITEM_PRODUCT = `#graphql
  query InventoryItemProduct($id: ID!) {
    inventoryItem(id: $id) {
      id
      variants(first: 1) { nodes { id product { id } } }
    }
  }
`;

export const INVENTORY_LOCATIONS = `#graphql
  query InventoryLocations {
    locations(first: 10) {
      nodes { id name isActive shipsInventory fulfillsOnlineOrders }
    }
  }
`;

export const INVENTORY_SET_QUANTITIES = `#graphql
  mutation InventorySetQuantities($input: InventorySetQuantitiesInput!) {
    inventorySetQuantities(input: $input) {
      inventoryAdjustmentGroup { id }
      userErrors { field message code }
    }
  }
`;

// ---------------------------------------------------------------------------------------------
// Publishing
// ---------------------------------------------------------------------------------------------

export const PUBLICATIONS = `#graphql
  query Publications {
    publications(first: 50) {
      nodes {
        id
        supportsFuturePublishing
        catalog { title }
      }
    }
  }
`;

export const PUBLISHABLE_PUBLISH = `#graphql
  mutation PublishablePublish($id: ID!, $input: [PublicationInput!]!) {
    publishablePublish(id: $id, input: $input) {
      ${USER_ERRORS}
    }
  }
`;

export const PUBLISHABLE_UNPUBLISH = `#graphql
  mutation PublishableUnpublish($id: ID!, $input: [PublicationInput!]!) {
    publishableUnpublish(id: $id, input: $input) {
      ${USER_ERRORS}
    }
  }
`;

// ---------------------------------------------------------------------------------------------
// Whole-catalogue export (bulk operation)
// ---------------------------------------------------------------------------------------------

/**
 * The query run by the bulk operation. Bulk queries allow at most five connections nested at
 * most two levels deep (products → variants / media), so a variant's image is read from its
 * `image` field here rather than from its `media` connection (a third level).
 */
export function bulkProductsQuery(search?: string): string {
  const args = search ? `(query: ${JSON.stringify(search)})` : "";
  return `#graphql
  query BulkProducts {
    products${args} {
      edges {
        node {
          id
          title
          handle
          vendor
          productType
          description
          descriptionHtml
          status
          tags
          publishedAt
          createdAt
          updatedAt
          priceRangeV2 { minVariantPrice { currencyCode } }
          targetGender: metafield(namespace: "custom", key: "target_gender") { value }
          options { id name position optionValues { id name } }
          media {
            edges {
              node {
                id
                mediaContentType
                ... on MediaImage { image { url altText width height } }
              }
            }
          }
          variants {
            edges {
              node {
                id
                title
                sku
                price
                compareAtPrice
                availableForSale
                inventoryQuantity
                position
                selectedOptions { name value }
                colorHex: metafield(namespace: "custom", key: "color_hex") { value }
                image { url }
              }
            }
          }
        }
      }
    }
  }
`;
}

export const PRODUCTS_COUNT = `#graphql
  query ProductsCount($query: String) {
    productsCount(query: $query, limit: null) { count precision }
  }
`;

export const BULK_OPERATION_RUN_QUERY = `#graphql
  mutation BulkOperationRunQuery($query: String!) {
    bulkOperationRunQuery(query: $query, groupObjects: false) {
      bulkOperation { id status }
      userErrors { field message code }
    }
  }
`;

export const BULK_OPERATION_STATUS = `#graphql
  query BulkOperationStatus($id: ID!) {
    bulkOperation(id: $id) {
      id
      status
      errorCode
      objectCount
      rootObjectCount
      url
      partialDataUrl
    }
  }
`;

// ---------------------------------------------------------------------------------------------
// Orders, fulfilment, returns
// ---------------------------------------------------------------------------------------------

export const ORDER_GET = `#graphql
  query OrderGet($id: ID!) {
    order(id: $id) { ...OrderFields }
  }
  ${ORDER_FIELDS}
`;

export const ORDERS_LIST = `#graphql
  query OrdersList($first: Int!, $after: String, $query: String) {
    orders(first: $first, after: $after, query: $query, sortKey: CREATED_AT, reverse: true) {
      nodes { ...OrderFields }
      pageInfo { hasNextPage endCursor }
    }
  }
  ${ORDER_FIELDS}
`;

export const ORDER_CANCEL = `#graphql
  mutation OrderCancel($orderId: ID!, $reason: OrderCancelReason!, $refundMethod: OrderCancelRefundMethodInput, $restock: Boolean!, $staffNote: String, $notifyCustomer: Boolean) {
    orderCancel(orderId: $orderId, reason: $reason, refundMethod: $refundMethod, restock: $restock, staffNote: $staffNote, notifyCustomer: $notifyCustomer) {
      job { id done }
      orderCancelUserErrors { field message code }
    }
  }
`;

export const ORDER_UPDATE = `#graphql
  mutation OrderUpdate($input: OrderInput!) {
    orderUpdate(input: $input) {
      order { id }
      ${USER_ERRORS}
    }
  }
`;

export const ORDER_FULFILLMENT_ORDERS = `#graphql
  query OrderFulfillmentOrders($id: ID!) {
    order(id: $id) {
      id
      fulfillmentOrders(first: 20) {
        nodes {
          id
          status
          lineItems(first: 100) {
            nodes {
              id
              remainingQuantity
              lineItem { id }
            }
          }
        }
      }
    }
  }
`;

export const FULFILLMENT_CREATE = `#graphql
  mutation FulfillmentCreate($fulfillment: FulfillmentInput!) {
    fulfillmentCreate(fulfillment: $fulfillment) {
      fulfillment { id status }
      ${USER_ERRORS}
    }
  }
`;

export const FULFILLMENT_TRACKING_UPDATE = `#graphql
  mutation FulfillmentTrackingUpdate($fulfillmentId: ID!, $trackingInfoInput: FulfillmentTrackingInput!, $notifyCustomer: Boolean) {
    fulfillmentTrackingInfoUpdate(fulfillmentId: $fulfillmentId, trackingInfoInput: $trackingInfoInput, notifyCustomer: $notifyCustomer) {
      fulfillment { id }
      ${USER_ERRORS}
    }
  }
`;

export const ORDER_FULFILLMENT_LINES = `#graphql
  query OrderFulfillmentLines($id: ID!) {
    order(id: $id) {
      id
      fulfillments(first: 50) {
        id
        fulfillmentLineItems(first: 100) {
          nodes {
            id
            quantity
            lineItem { id }
          }
        }
      }
    }
  }
`;

export const RETURN_REQUEST = `#graphql
  mutation ReturnRequest($input: ReturnRequestInput!) {
    returnRequest(input: $input) {
      return { id status }
      userErrors { field message code }
    }
  }
`;

// Returns, the merchant's side (issue 16): approve, decline, cancel, and the refund through
// returnProcess (its line items and the order's sale transactions are read first).
export const RETURN_APPROVE_REQUEST = `#graphql
  mutation ReturnApproveRequest($input: ReturnApproveRequestInput!) {
    returnApproveRequest(input: $input) {
      return { id status }
      userErrors { field message code }
    }
  }
`;

export const RETURN_DECLINE_REQUEST = `#graphql
  mutation ReturnDeclineRequest($input: ReturnDeclineRequestInput!) {
    returnDeclineRequest(input: $input) {
      return { id status }
      userErrors { field message code }
    }
  }
`;

export const RETURN_CANCEL = `#graphql
  mutation ReturnCancel($id: ID!, $notifyCustomer: Boolean) {
    returnCancel(id: $id, notifyCustomer: $notifyCustomer) {
      return { id status }
      userErrors { field message code }
    }
  }
`;

// The reverse fulfilment orders of a return with their lines (which order line each one returns)
// and reverse deliveries: the label and tracking go to the deliveries, dispositions to the lines.
export const RETURN_REVERSE_FULFILLMENT_ORDERS = `#graphql
  query ReturnReverseFulfillmentOrders($id: ID!) {
    return(id: $id) {
      id
      reverseFulfillmentOrders(first: 10) {
        nodes {
          id
          lineItems(first: 100) { nodes { id totalQuantity fulfillmentLineItem { lineItem { id } } dispositions { quantity } } }
          reverseDeliveries(first: 10) { nodes { id } }
        }
      }
    }
  }
`;

export const REVERSE_DELIVERY_SHIPPING_UPDATE = `#graphql
  mutation ReverseDeliveryShippingUpdate($reverseDeliveryId: ID!, $trackingInput: ReverseDeliveryTrackingInput, $labelInput: ReverseDeliveryLabelInput, $notifyCustomer: Boolean) {
    reverseDeliveryShippingUpdate(reverseDeliveryId: $reverseDeliveryId, trackingInput: $trackingInput, labelInput: $labelInput, notifyCustomer: $notifyCustomer) {
      reverseDelivery { id }
      userErrors { field message code }
    }
  }
`;

export const REVERSE_FULFILLMENT_ORDER_DISPOSE = `#graphql
  mutation ReverseFulfillmentOrderDispose($dispositionInputs: [ReverseFulfillmentOrderDisposeInput!]!) {
    reverseFulfillmentOrderDispose(dispositionInputs: $dispositionInputs) {
      reverseFulfillmentOrderLineItems { id }
      userErrors { field message code }
    }
  }
`;

export const RETURN_CLOSE = `#graphql
  mutation ReturnClose($id: ID!) {
    returnClose(id: $id) {
      return { id status }
      userErrors { field message code }
    }
  }
`;

/** A return as the returns webhooks need it: its order, status and lines (which order line, how many, why). */
export const RETURN_GET = `#graphql
  query ReturnGet($id: ID!) {
    return(id: $id) {
      id
      name
      status
      order { id }
      decline { reason note }
      returnLineItems(first: 100) {
        nodes {
          id
          quantity
          customerNote
          returnReasonNote
          returnReasonDefinition { handle }
          ... on ReturnLineItem { fulfillmentLineItem { lineItem { id } } }
        }
      }
    }
  }
`;

export const REVERSE_DELIVERY_CREATE_WITH_SHIPPING = `#graphql
  mutation ReverseDeliveryCreateWithShipping(
    $reverseFulfillmentOrderId: ID!
    $reverseDeliveryLineItems: [ReverseDeliveryLineItemInput!]!
    $trackingInput: ReverseDeliveryTrackingInput
    $labelInput: ReverseDeliveryLabelInput
    $notifyCustomer: Boolean
  ) {
    reverseDeliveryCreateWithShipping(
      reverseFulfillmentOrderId: $reverseFulfillmentOrderId
      reverseDeliveryLineItems: $reverseDeliveryLineItems
      trackingInput: $trackingInput
      labelInput: $labelInput
      notifyCustomer: $notifyCustomer
    ) {
      reverseDelivery { id }
      userErrors { field message code }
    }
  }
`;

export const RETURN_REFUND_CONTEXT = `#graphql
  query ReturnRefundContext($id: ID!) {
    return(id: $id) {
      id
      status
      order {
        id
        transactions(first: 50) { id kind status gateway }
      }
      returnLineItems(first: 100) {
        nodes {
          id
          quantity
          processableQuantity
          ... on ReturnLineItem { fulfillmentLineItem { lineItem { id } } }
        }
      }
    }
  }
`;

export const RETURN_PROCESS = `#graphql
  mutation ReturnProcess($input: ReturnProcessInput!) {
    returnProcess(input: $input) {
      return { id status }
      userErrors { field message code }
    }
  }
`;

/** Every document the adapter sends, by operation name (the schema test walks this list). */
export const ADMIN_DOCUMENTS: Record<string, string> = {
  ProductGet: PRODUCT_GET,
  ProductsList: PRODUCTS_LIST,
  ProductSet: PRODUCT_SET,
  ProductUpdate: PRODUCT_UPDATE,
  ProductAddMedia: PRODUCT_ADD_MEDIA,
  ProductDelete: PRODUCT_DELETE,
  MetafieldsSet: METAFIELDS_SET,
  MetafieldsDelete: METAFIELDS_DELETE,
  ProductOptionUpdate: PRODUCT_OPTION_UPDATE,
  ProductVariantsDelete: PRODUCT_VARIANTS_DELETE,
  ProductVariantsCreate: PRODUCT_VARIANTS_CREATE,
  ProductVariantsUpdate: PRODUCT_VARIANTS_UPDATE,
  ProductReorderMedia: PRODUCT_REORDER_MEDIA,
  ProductVariantAppendMedia: PRODUCT_VARIANT_APPEND_MEDIA,
  VariantMedia: VARIANT_MEDIA,
  ProductVariantDetachMedia: PRODUCT_VARIANT_DETACH_MEDIA,
  ProductVariantSetImage: PRODUCT_VARIANT_SET_IMAGE,
  ProductRemoveMedia: PRODUCT_REMOVE_MEDIA,
  InventoryLevels: INVENTORY_LEVELS,
  VariantInventoryItems: VARIANT_INVENTORY_ITEMS,
  InventoryItemProduct: INVENTORY_ITEM_PRODUCT,
  InventoryLocations: INVENTORY_LOCATIONS,
  InventorySetQuantities: INVENTORY_SET_QUANTITIES,
  Publications: PUBLICATIONS,
  PublishablePublish: PUBLISHABLE_PUBLISH,
  PublishableUnpublish: PUBLISHABLE_UNPUBLISH,
  BulkProducts: bulkProductsQuery("vendor:'Northwind Atelier'"),
  ProductsCount: PRODUCTS_COUNT,
  BulkOperationRunQuery: BULK_OPERATION_RUN_QUERY,
  BulkOperationStatus: BULK_OPERATION_STATUS,
  OrderGet: ORDER_GET,
  OrdersList: ORDERS_LIST,
  OrderCancel: ORDER_CANCEL,
  OrderUpdate: ORDER_UPDATE,
  OrderFulfillmentOrders: ORDER_FULFILLMENT_ORDERS,
  FulfillmentCreate: FULFILLMENT_CREATE,
  FulfillmentTrackingUpdate: FULFILLMENT_TRACKING_UPDATE,
  OrderFulfillmentLines: ORDER_FULFILLMENT_LINES,
  ReturnRequest: RETURN_REQUEST,
  ReturnApproveRequest: RETURN_APPROVE_REQUEST,
  ReturnDeclineRequest: RETURN_DECLINE_REQUEST,
  ReturnCancel: RETURN_CANCEL,
  ReturnRefundContext: RETURN_REFUND_CONTEXT,
  ReturnReverseFulfillmentOrders: RETURN_REVERSE_FULFILLMENT_ORDERS,
  ReverseDeliveryCreateWithShipping: REVERSE_DELIVERY_CREATE_WITH_SHIPPING,
  ReturnProcess: RETURN_PROCESS,
  ReverseDeliveryShippingUpdate: REVERSE_DELIVERY_SHIPPING_UPDATE,
  ReverseFulfillmentOrderDispose: REVERSE_FULFILLMENT_ORDER_DISPOSE,
  ReturnClose: RETURN_CLOSE,
  ReturnGet: RETURN_GET,
};
