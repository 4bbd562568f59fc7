/**
 * The data service's GraphQL schema (SDL), its one copy (the README points here; clients can also
 * read it by introspection with a key). Resolvers: ./graphql.server.ts.
 */
export const DATA_SERVICE_MAX_PAGE_SIZE = 100;

export const DATA_SERVICE_SDL = `"""
The data service of Fashion Discovery, for trusted backend services: shoppers' saved products,
saved try-ons, followed (favourite) stores, vision-search entries and clone training jobs.

POST /api/graphql with the header \`x-api-key: <key>\` (admins create and revoke keys in the admin,
API keys). Requests without a valid key are refused with 401 and no data.

- Every operation names the shopper with \`userId\`. A missing or empty one answers the error
  "User ID is required"; one that is not a user's id answers "Invalid user ID provided".
- Lists by user are pages of at most 100 items (\`limit\`, default per list), newest first unless
  \`sortDirection: ASC\`; \`nextToken\` of a page asks for the next one and is null on the last.
- Product ids are Shopify GIDs (gid://shopify/Product/1001); the bare number is accepted too.
- Limits: query depth 8, query cost 5000 (each field 1, a list multiplies what is below it by its
  \`limit\`), 100 kB per request. Introspection is allowed (with a valid key).
- Errors carry \`extensions.code\`: BAD_USER_INPUT, NOT_FOUND, UNAUTHENTICATED, FORBIDDEN,
  INTERNAL_SERVER_ERROR (and for the request itself GRAPHQL_PARSE_FAILED,
  GRAPHQL_VALIDATION_FAILED, QUERY_TOO_DEEP, QUERY_TOO_COMPLEX).
"""
schema {
  query: Query
  mutation: Mutation
}

"An ISO 8601 date and time in UTC, e.g. 2026-11-23T10:15:00.000Z."
scalar DateTime

enum SortDirection {
  ASC
  DESC
}

enum TargetGender {
  both
  menswear
  womenswear
}

enum CloneTrainingStatus {
  queued
  preprocessing
  training
  completed
  failed
  cancelled
}

enum TryOnStatus {
  queued
  processing
  completed
  failed
}

type Query {
  "The user's saved products, newest first (20 per page unless \`limit\`)."
  savedProductsByUser(userId: ID, limit: Int = 20, nextToken: String, sortDirection: SortDirection = DESC): SavedProductConnection!
  "Whether the user saved the product."
  checkSavedProduct(userId: ID, productId: ID!): Boolean!
  "The user's saved try-ons, newest first (20 per page unless \`limit\`)."
  savedTryOnsByUser(userId: ID, limit: Int = 20, nextToken: String, sortDirection: SortDirection = DESC): SavedTryOnConnection!
  "Whether the user saved the try-on."
  checkSavedTryOn(userId: ID, tryonId: ID!): Boolean!
  "The stores the user follows, newest first (20 per page unless \`limit\`)."
  favoriteStoresByUser(userId: ID, limit: Int = 20, nextToken: String, sortDirection: SortDirection = DESC): UserFavoriteStoreConnection!
  "The user's follow of a store, or null when the user does not follow it."
  userFavoriteStore(userId: ID, storeId: ID!): UserFavoriteStore
  "The user's vision-search entries, newest first (10 per page unless \`limit\`)."
  visionSearchEntriesByUser(userId: ID, limit: Int = 10, nextToken: String, sortDirection: SortDirection = DESC): VisionSearchEntryConnection!
  "One of the user's vision-search entries, or null (unknown id, or another user's entry)."
  visionSearchEntry(userId: ID, id: ID!): VisionSearchEntry
  "The user's clone training jobs, newest first (20 per page unless \`limit\`)."
  cloneTrainingJobsByUser(userId: ID, limit: Int = 20, nextToken: String, sortDirection: SortDirection = DESC): CloneTrainingJobConnection!
  "One of the user's clone training jobs, or null (unknown id, or another user's job)."
  cloneTrainingJob(userId: ID, id: ID!): CloneTrainingJob
}

type Mutation {
  "Saves a product for the user (a visible product); saving it again answers the existing record."
  createSavedProduct(input: SavedProductInput!): SavedProduct!
  "Unsaves a product: answers the deleted record, or null when it was not saved."
  deleteSavedProduct(input: SavedProductInput!): SavedProduct
  "Saves one of the user's own try-ons; saving it again answers the existing record."
  createSavedTryOn(input: SavedTryOnInput!): SavedTryOn!
  "Unsaves a try-on: answers the deleted record, or null when it was not saved."
  deleteSavedTryOn(input: SavedTryOnInput!): SavedTryOn
  "Follows a store for the user; following it again answers the existing record."
  createUserFavoriteStore(input: UserFavoriteStoreInput!): UserFavoriteStore!
  "Unfollows a store: answers the deleted record, or null when the user did not follow it."
  deleteUserFavoriteStore(input: UserFavoriteStoreInput!): UserFavoriteStore
  "Stores a vision-search entry for a signed-up user (not a guest)."
  createVisionSearchEntry(input: CreateVisionSearchEntryInput!): VisionSearchEntry!
  "Changes the image or the result of one of the user's entries."
  updateVisionSearchEntry(input: UpdateVisionSearchEntryInput!): VisionSearchEntry!
}

input SavedProductInput {
  userId: ID
  "A product GID or its bare number."
  productId: ID!
}

input SavedTryOnInput {
  userId: ID
  tryonId: ID!
}

input UserFavoriteStoreInput {
  userId: ID
  storeId: ID!
}

input CreateVisionSearchEntryInput {
  userId: ID
  "An http(s) URL or one of the app's /uploads/ URLs."
  image_url: String!
  "The search result as JSON text (at most 200 kB)."
  result: String
}

input UpdateVisionSearchEntryInput {
  userId: ID
  id: ID!
  image_url: String
  "The search result as JSON text (at most 200 kB)."
  result: String
}

type SavedProduct {
  id: ID!
  user_id: ID!
  product_id: ID!
  createdAt: DateTime!
  "The product, or null when it is no longer in the visible catalogue."
  product: Product
}

type SavedProductConnection {
  items: [SavedProduct!]!
  nextToken: String
}

type SavedTryOn {
  id: ID!
  user_id: ID!
  tryon_id: ID!
  createdAt: DateTime!
  tryon: TryOn
}

type SavedTryOnConnection {
  items: [SavedTryOn!]!
  nextToken: String
}

type TryOn {
  id: ID!
  user_id: ID!
  clone_id: ID!
  product_id: ID!
  status: TryOnStatus!
  generated_images: [GeneratedImage!]!
  created_at: DateTime!
  completed_at: DateTime
  "The product tried on, or null when it is no longer in the visible catalogue."
  product: Product
}

type GeneratedImage {
  id: ID!
  image_url: String!
}

type UserFavoriteStore {
  id: ID!
  user_id: ID!
  store_id: ID!
  created_at: DateTime!
  store: Store
}

type UserFavoriteStoreConnection {
  items: [UserFavoriteStore!]!
  nextToken: String
}

type Store {
  id: ID!
  name: String!
  handle: String!
  description: String
  logo_url: String
  banner_url: String
  target_gender: TargetGender!
}

type VisionSearchEntry {
  id: ID!
  user_id: ID!
  image_url: String!
  "The search result as JSON text, or null."
  result: String
  is_temporary: Boolean!
  created_at: DateTime!
  updated_at: DateTime!
}

type VisionSearchEntryConnection {
  items: [VisionSearchEntry!]!
  nextToken: String
}

type CloneTrainingJob {
  id: ID!
  user_id: ID!
  status: CloneTrainingStatus!
  "0 to 100."
  progress: Int!
  clone_id: ID
  is_product_clone: Boolean!
  error: String
  completed_at: DateTime
  "Seconds the training took, once done."
  duration: Int
  created_at: DateTime!
  updated_at: DateTime!
}

type CloneTrainingJobConnection {
  items: [CloneTrainingJob!]!
  nextToken: String
}

type Product {
  id: ID!
  title: String!
  handle: String!
  vendor: String!
  productType: String!
  availableForSale: Boolean!
  featuredImage: Image
  priceRange: PriceRange!
  target_gender: TargetGender!
}

type Image {
  url: String!
  altText: String
}

type PriceRange {
  minVariantPrice: Money!
  maxVariantPrice: Money!
}

"Money as text with two decimals, e.g. 49.00, and its currency."
type Money {
  amount: String!
  currencyCode: String!
}
`;
