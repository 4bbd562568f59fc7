/**
 * The error catalogue of SPEC §8, as named messages. Server and clients return and show these
 * exact strings; nothing else spells them.
 */
export const Messages = {
  FAILED_TO_FETCH_PRODUCTS: "Failed to fetch products",
  FAILED_TO_FETCH_PRODUCT: "Failed to fetch product",
  FAILED_TO_DELETE_PRODUCT: "Failed to delete product",
  FAILED_TO_UPDATE_ALL_INVENTORIES: "Failed to update all product inventories",
  FAILED_TO_UPDATE_OUT_OF_STOCK_INVENTORIES: "Failed to update out of stock product inventories",
  FAILED_TO_SET_MEDIA_ORDER: "Failed to set media order",
  FAILED_TO_APPEND_VARIANT_MEDIA: "Failed to append media to variant",
  FAILED_TO_CREATE_REVIEW: "Failed to create review",
  FAILED_TO_UPDATE_VISION_ENTRY: "Failed to update vision search entry",
  INVALID_USER_ID: "Invalid user ID provided",
  FAILED_TO_FETCH_FAVORITE_STORES: "Failed to fetch user favorite stores",
  FAILED_TO_CREATE_FAVORITE_STORE: "Failed to create user favorite store",
  FAILED_TO_DELETE_FAVORITE_STORE: "Failed to delete user favorite store",
  FAILED_TO_FETCH_FAVORITE_STORE: "Failed to fetch user favorite store",
  USER_NOT_AUTHENTICATED: "User is not authenticated",
  SEARCH_ID_REQUIRED: "searchId is required",
  USER_ID_REQUIRED: "User ID is required",
  NO_PRODUCT_ID: "No product ID provided",
  SEARCH_ENTRY_CREATE_LOGIN: "You cannot create a search entry without being logged in",
  SEARCH_ENTRY_UPDATE_LOGIN: "You cannot update a search entry without being logged in",
  // Ours (the spec leaves these open)
  FORBIDDEN: "You do not have permission to do this",
  NOT_FOUND: "Not found",
  INVALID_CREDENTIALS: "Email or password is incorrect",
  EMAIL_TAKEN: "An account with this email already exists",
  WRONG_OLD_PASSWORD: "The current password is incorrect",
  TOO_MANY_REQUESTS: "Too many attempts, please wait and try again",
  DEMO_ACCOUNTS_DISABLED: "Demo accounts are available in local mode only",
  INTERNAL: "Something went wrong on our side",
} as const;

export type MessageKey = keyof typeof Messages;

export const ErrorCodes = {
  400: "bad_request",
  401: "unauthenticated",
  403: "forbidden",
  404: "not_found",
  409: "conflict",
  413: "payload_too_large",
  415: "unsupported_media_type",
  422: "unprocessable",
  429: "rate_limited",
  500: "internal",
  501: "not_implemented",
  502: "bad_gateway",
  503: "unavailable",
} as const;

export type ErrorStatus = keyof typeof ErrorCodes;
