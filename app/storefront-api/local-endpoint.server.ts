/**
 * The local Storefront API (local mode): POST /api/storefront/graphql answers the same documents
 * the app sends to Shopify's Storefront API, from the local catalogue (the product read model).
 *
 * Every document is parsed and validated against the real Storefront schema (2025-07,
 * schema.server.ts), then executed with graphql-js: the schema is a client schema (no resolvers),
 * so a custom field resolver reads plain objects built here from Prisma rows. What is supported:
 * `nodes(ids:)` / `node(id:)` (Product and ProductVariant), `product(id:|handle:)`,
 * `productByHandle`, and `products(first|last, after|before, query, sortKey, reverse)` with cursor
 * pagination; and the cart (issue 15): `cart(id:)` and the mutations `cartCreate`, `cartLinesAdd`,
 * `cartLinesUpdate`, `cartLinesRemove`, `cartDiscountCodesUpdate`, `cartBuyerIdentityUpdate`,
 * answered from the local cart store (local-cart.server.ts, which holds the cart rules). A cart's
 * `checkoutUrl` is the local checkout page, `<appUrl>/checkout?cart=<cart id>`. Other mutations
 * are refused (NOT_SUPPORTED). Fields the local catalogue does not have answer null (lists and connections answer
 * empty). Only active products whose publishedAt is in the past (or unset) are visible.
 *
 * Status codes: a document that does not parse or fails validation → 400 `{ errors }`; everything
 * else (including resolver errors such as `first` > 250) → 200 `{ data, errors }`, as Shopify does.
 */
import type { Prisma } from "@prisma/client";
import {
  GraphQLError,
  Kind,
  execute,
  getNamedType,
  getNullableType,
  getOperationAST,
  isListType,
  isNonNullType,
  parse,
  validate,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
  type GraphQLFieldResolver,
  type GraphQLFormattedError,
  type GraphQLResolveInfo,
  type GraphQLTypeResolver,
} from "graphql";
import type { Db } from "~/db.server";
import type { Logger } from "~/lib/logger.server";
import { unstorableGraphQLInput } from "~/lib/unstorable-graphql";
import { readText } from "~/lib/body-limit.server";
import { DomainError } from "~/lib/domain-errors";
import { getStorefrontSchema } from "./schema.server";
import { STOREFRONT_MAX_PAGE_SIZE, type ProductSortKey } from "./documents";
import { parseSearchQuery, plainWords, type SearchQuery, type SearchTerm } from "./search-query";
import { visibleProductWhere } from "~/lib/visibility";
import {
  addLocalCartLines,
  centsToAmount,
  createLocalCart,
  readLocalCart,
  removeLocalCartLines,
  updateLocalCartBuyerIdentity,
  updateLocalCartDiscountCodes,
  updateLocalCartLines,
  type LocalBuyerIdentityInput,
  type LocalCartCreateInput,
  type LocalCartLineInput,
  type LocalCartLineUpdateInput,
  type LocalCartOutcome,
  type LocalCartState,
} from "./local-cart.server";

const MAX_BODY_BYTES = 100_000;
const MAX_TOKENS = 10_000;
/**
 * The most objects one query may ask for (an upper bound from its `first`/`last` and id lists):
 * the app's largest document, 250 products × (250 variants × their objects + 50 images), about
 * 450 000, fits; cycles such as products → variants → product → variants (15 million) are refused.
 */
export const MAX_QUERY_OBJECTS = 1_000_000;

type Obj = Record<string, unknown>;
interface Ctx {
  db: Db;
  now: Date;
  /** Base of local carts' checkoutUrl (no trailing slash). */
  appUrl: string;
}

// ---------------------------------------------------------------------------------------------
// HTTP

const CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "POST, OPTIONS",
  "Access-Control-Allow-Headers": "Content-Type, Accept, X-Shopify-Storefront-Access-Token, X-SDK-Variant, X-SDK-Version, X-SDK-Variant-Source",
};

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json; charset=utf-8", ...CORS } });
}

const errorBody = (message: string, code: string, extra: Partial<GraphQLFormattedError> = {}) => ({ errors: [{ message, ...extra, extensions: { code, ...extra.extensions } }] });

interface GraphQLRequestBody {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

async function readBody(request: Request): Promise<GraphQLRequestBody | Response> {
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > MAX_BODY_BYTES) return json(errorBody(`The request body is larger than ${MAX_BODY_BYTES} bytes`, "PAYLOAD_TOO_LARGE"), 413);
  let text: string;
  try {
    // Counted while it streams in: reading stops at the limit instead of after the whole body.
    text = await readText(request, MAX_BODY_BYTES);
  } catch (e) {
    if (e instanceof DomainError && e.kind === "too_large") return json(errorBody(`The request body is larger than ${MAX_BODY_BYTES} bytes`, "PAYLOAD_TOO_LARGE"), 413);
    throw e;
  }
  const contentType = request.headers.get("content-type") ?? "";
  if (contentType.includes("application/graphql")) return { query: text };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return json(errorBody("The request body is not valid JSON", "BAD_REQUEST"), 400);
  }
  const b = body as Partial<GraphQLRequestBody> | null;
  if (!b || typeof b !== "object" || typeof b.query !== "string" || !b.query.trim()) return json(errorBody("The request body must have a `query` string", "BAD_REQUEST"), 400);
  if (b.variables != null && (typeof b.variables !== "object" || Array.isArray(b.variables))) return json(errorBody("`variables` must be an object", "BAD_REQUEST"), 400);
  return { query: b.query, variables: b.variables ?? undefined, operationName: b.operationName ?? undefined };
}

/**
 * Documents that parsed and validated, by text: the app sends the same few documents over and over
 * (the cart's on every add to cart), so they are checked once. Bounded, oldest out first, so
 * varied hostile documents cannot grow it.
 */
const validDocuments = new Map<string, DocumentNode>();
const MAX_CACHED_DOCUMENTS = 100;
const MAX_CACHED_DOCUMENT_LENGTH = 20_000;

function rememberDocument(query: string, document: DocumentNode) {
  if (query.length > MAX_CACHED_DOCUMENT_LENGTH) return;
  if (validDocuments.size >= MAX_CACHED_DOCUMENTS) validDocuments.delete(validDocuments.keys().next().value!);
  validDocuments.set(query, document);
}

/** Answers one HTTP request to the local Storefront endpoint. */
export interface StorefrontEndpointDeps {
  db: Db;
  log?: Logger;
  /** The app's public base URL: local carts' checkoutUrl points at its /checkout page (default: the request's origin). */
  appUrl?: string;
}

export async function handleStorefrontGraphQL(request: Request, deps: StorefrontEndpointDeps): Promise<Response> {
  if (request.method === "OPTIONS") return new Response(null, { status: 204, headers: CORS });
  if (request.method !== "POST") return json(errorBody("Use POST with a JSON body { query, variables }", "METHOD_NOT_ALLOWED"), 405);

  const body = await readBody(request);
  if (body instanceof Response) return body;

  let schema;
  try {
    schema = getStorefrontSchema();
  } catch (error) {
    deps.log?.error({ err: error }, "storefront schema unavailable");
    // The reason (a file path under node_modules, as a rule) is for the log, not the caller.
    return json(errorBody("The Storefront API schema is not available", "SERVICE_UNAVAILABLE"), 503);
  }

  const cached = validDocuments.get(body.query);
  let document: DocumentNode;
  if (cached) document = cached;
  else {
    try {
      document = parse(body.query, { maxTokens: MAX_TOKENS });
    } catch (error) {
      const e = error as GraphQLError;
      return json({ errors: [{ message: e.message, locations: e.locations, extensions: { code: "GRAPHQL_PARSE_FAILED" } }] }, 400);
    }
  }

  const unstorable = unstorableGraphQLInput(document, body.variables);
  if (unstorable) return json(errorBody(unstorable, "BAD_USER_INPUT"), 400);

  if (!cached) {
    const validationErrors = validate(schema, document);
    if (validationErrors.length) {
      return json({ errors: validationErrors.map((e) => ({ message: e.message, locations: e.locations, extensions: { code: "GRAPHQL_VALIDATION_FAILED" } })) }, 400);
    }
    rememberDocument(body.query, document);
  }

  const operation = getOperationAST(document, body.operationName ?? undefined);
  if (operation && operation.operation !== "query") {
    const unsupported = operation.operation === "mutation" ? unsupportedMutation(document, operation) : operation.operation;
    if (unsupported) return json(errorBody(`The local Storefront endpoint answers queries and the cart mutations only (got ${unsupported})`, "NOT_SUPPORTED"));
  }

  if (operation) {
    const objects = estimateObjects(document, operation, body.variables ?? {});
    if (objects > MAX_QUERY_OBJECTS) {
      return json(errorBody(`The query may return up to ${objects} objects, more than the limit of ${MAX_QUERY_OBJECTS}: ask for smaller pages`, "MAX_COST_EXCEEDED"));
    }
  }

  const ctx: Ctx = { db: deps.db, now: new Date(), appUrl: (deps.appUrl ?? new URL(request.url).origin).replace(/\/+$/, "") };
  const result = await execute({
    schema,
    document,
    variableValues: body.variables ?? undefined,
    operationName: body.operationName ?? undefined,
    rootValue: ROOT,
    contextValue: ctx,
    fieldResolver,
    typeResolver,
  });
  const errors = result.errors?.map((e) => {
    if (e.originalError && !(e.originalError instanceof GraphQLError)) {
      deps.log?.error({ err: e.originalError, path: e.path }, "storefront resolver failed");
      return { message: "Internal error", locations: e.locations, path: e.path, extensions: { code: "INTERNAL_SERVER_ERROR" } };
    }
    return e.toJSON();
  });
  return json({ ...(errors?.length ? { errors } : {}), ...("data" in result ? { data: result.data } : {}) });
}

/**
 * An upper bound of the objects a query can return: every field with a selection set counts once
 * per parent object, and a field with `first`/`last` (or an `ids`/`identifiers` list) multiplies
 * what is below it. Scalars are not counted.
 */
export function estimateObjects(document: DocumentNode, operation: OperationDefinitionNode, variables: Record<string, unknown>): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const argValue = (node: ValueNode): unknown => {
    if (node.kind === Kind.VARIABLE) return variables[node.name.value];
    if (node.kind === Kind.INT) return Number(node.value);
    if (node.kind === Kind.LIST) return node.values;
    return undefined;
  };
  const multiplier = (field: FieldNode): number => {
    let m = 1;
    for (const arg of field.arguments ?? []) {
      const v = argValue(arg.value);
      if ((arg.name.value === "first" || arg.name.value === "last") && typeof v === "number") m = Math.max(m, v);
      if ((arg.name.value === "ids" || arg.name.value === "identifiers") && Array.isArray(v)) m = Math.max(m, v.length);
    }
    return m;
  };
  const walk = (set: SelectionSetNode | undefined, depth: number): number => {
    if (!set || depth > 50) return 0;
    let total = 0;
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        if (sel.selectionSet) total += multiplier(sel) * (1 + walk(sel.selectionSet, depth + 1));
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        total += walk(sel.selectionSet, depth + 1);
      } else {
        total += walk(fragments.get(sel.name.value)?.selectionSet, depth + 1);
      }
      if (total > Number.MAX_SAFE_INTEGER / 1000) return total;
    }
    return total;
  };
  return walk(operation.selectionSet, 0);
}

// ---------------------------------------------------------------------------------------------
// Execution: a field resolver over plain objects

const ROOT: Obj = {
  cart: (args: { id: string }, ctx: Ctx) => resolveCart(ctx, args.id),
  cartCreate: async (args: { input?: LocalCartCreateInput | null }, ctx: Ctx) => cartPayload(ctx, "CartCreatePayload", await createLocalCart(ctx.db, args.input ?? {}, ctx.now)),
  cartLinesAdd: async (args: { cartId: string; lines: LocalCartLineInput[] }, ctx: Ctx) => cartPayload(ctx, "CartLinesAddPayload", await addLocalCartLines(ctx.db, args.cartId, args.lines, ctx.now)),
  cartLinesUpdate: async (args: { cartId: string; lines: LocalCartLineUpdateInput[] }, ctx: Ctx) =>
    cartPayload(ctx, "CartLinesUpdatePayload", await updateLocalCartLines(ctx.db, args.cartId, args.lines, ctx.now)),
  cartLinesRemove: async (args: { cartId: string; lineIds: string[] }, ctx: Ctx) => cartPayload(ctx, "CartLinesRemovePayload", await removeLocalCartLines(ctx.db, args.cartId, args.lineIds, ctx.now)),
  cartDiscountCodesUpdate: async (args: { cartId: string; discountCodes?: string[] | null }, ctx: Ctx) =>
    cartPayload(ctx, "CartDiscountCodesUpdatePayload", await updateLocalCartDiscountCodes(ctx.db, args.cartId, args.discountCodes ?? [], ctx.now)),
  cartBuyerIdentityUpdate: async (args: { cartId: string; buyerIdentity: LocalBuyerIdentityInput }, ctx: Ctx) =>
    cartPayload(ctx, "CartBuyerIdentityUpdatePayload", await updateLocalCartBuyerIdentity(ctx.db, args.cartId, args.buyerIdentity, ctx.now)),
  nodes: (args: { ids: string[] }, ctx: Ctx) => resolveNodes(ctx, args.ids),
  node: async (args: { id: string }, ctx: Ctx) => (await resolveNodes(ctx, [args.id]))[0],
  product: (args: { id?: string | null; handle?: string | null }, ctx: Ctx) => resolveProduct(ctx, args),
  productByHandle: (args: { handle: string }, ctx: Ctx) => resolveProduct(ctx, { handle: args.handle }),
  products: (args: ConnectionArgs & { query?: string | null; sortKey?: ProductSortKey | null }, ctx: Ctx) => resolveProducts(ctx, args),
};

const EMPTY_PAGE_INFO = { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null };

/** A value the local catalogue does not have: empty for lists and connections, otherwise null. */
function missingValue(info: GraphQLResolveInfo): unknown {
  const type = getNullableType(info.returnType);
  if (isListType(type)) return [];
  const named = getNamedType(info.returnType);
  if (isNonNullType(info.returnType) && named.name.endsWith("Connection")) return { edges: [], nodes: [], pageInfo: EMPTY_PAGE_INFO, filters: [] };
  return null;
}

const fieldResolver: GraphQLFieldResolver<unknown, Ctx> = (source, args, ctx, info) => {
  const value = source && typeof source === "object" ? (source as Obj)[info.fieldName] : undefined;
  if (typeof value === "function") return (value as (a: unknown, c: Ctx, i: GraphQLResolveInfo) => unknown)(args, ctx, info);
  return value === undefined ? missingValue(info) : value;
};

const typeResolver: GraphQLTypeResolver<unknown, Ctx> = (value) => (value && typeof value === "object" ? ((value as Obj).__typename as string | undefined) : undefined);

// ---------------------------------------------------------------------------------------------
// Read model → Storefront objects

const productInclude = {
  options: { orderBy: [{ position: "asc" }, { name: "asc" }] },
  variants: { orderBy: [{ position: "asc" }, { id: "asc" }] },
  images: { orderBy: [{ position: "asc" }, { id: "asc" }] },
} satisfies Prisma.ProductInclude;
type ProductRow = Prisma.ProductGetPayload<{ include: typeof productInclude }>;
type VariantRow = ProductRow["variants"][number];

const visibleWhere = (now: Date): Prisma.ProductWhereInput => visibleProductWhere(now);

const gidOf = (type: string, id: string) => (id.startsWith("gid://") ? id : `gid://shopify/${type}/${id}`);
const gidType = (id: string) => /^gid:\/\/shopify\/([A-Za-z]+)\//.exec(id)?.[1] ?? null;

/** Shopify's Decimal text: at least one decimal, no trailing zeros beyond it ("129.0", "99.5", "29.99"). */
export function shopifyDecimal(value: Prisma.Decimal | number | string): string {
  const fixed = Number(value).toFixed(2);
  return fixed.replace(/0$/, "");
}

const money = (amount: Prisma.Decimal | number, currencyCode: string) => ({ __typename: "MoneyV2", amount: shopifyDecimal(amount), currencyCode });
const iso = (d: Date | null | undefined) => (d ? d.toISOString().replace(/\.\d{3}Z$/, "Z") : null);

function imageObj(url: string, altText: string | null, extra: { id?: string | null; width?: number | null; height?: number | null } = {}): Obj {
  return {
    __typename: "Image",
    id: extra.id ?? null,
    url: () => url,
    src: url,
    originalSrc: url,
    transformedSrc: () => url,
    altText,
    width: extra.width ?? null,
    height: extra.height ?? null,
    thumbhash: null,
  };
}

function metafieldObj(parent: Obj, parentId: string, namespace: string, key: string, value: string, type: string, at: { created: Date; updated: Date }): Obj {
  return {
    __typename: "Metafield",
    id: `gid://shopify/Metafield/${gidTailOf(parentId)}-${namespace}-${key}`,
    namespace,
    key,
    value,
    type,
    description: null,
    createdAt: iso(at.created),
    updatedAt: iso(at.updated),
    parentResource: parent,
    reference: null,
    references: null,
  };
}
const gidTailOf = (id: string) => id.split("/").pop() ?? id;

type MetafieldResolver = (namespace: string, key: string) => Obj | null;
function metafieldFields(lookup: MetafieldResolver) {
  return {
    // `namespace` is optional in the schema; app-reserved namespaces are not modelled, so absent = "custom".
    metafield: (args: { namespace?: string | null; key: string }) => lookup(args.namespace ?? "custom", args.key),
    metafields: (args: { identifiers: { namespace?: string | null; key: string }[] }) => args.identifiers.map((i) => lookup(i.namespace ?? "custom", i.key)),
  };
}

function truncate(text: string, at: number | null | undefined): string {
  if (at == null || at <= 0 || text.length <= at) return text;
  return `${text.slice(0, Math.max(0, at - 1)).trimEnd()}…`;
}

/** The Storefront Product object for a product row (with its options, variants and images). */
function productObj(row: ProductRow): Obj {
  const at = { created: row.created_at, updated: row.updated_at };
  const cur = row.currencyCode;
  const images = row.images.map((i) => imageObj(i.url, i.altText ?? null, { id: gidOf("ProductImage", i.id), width: i.width, height: i.height }));
  const imageByUrl = new Map(row.images.map((i) => [i.url, i]));
  const featured = row.featuredImageUrl
    ? imageObj(row.featuredImageUrl, row.featuredImageAltText ?? imageByUrl.get(row.featuredImageUrl)?.altText ?? null, {
        id: imageByUrl.has(row.featuredImageUrl) ? gidOf("ProductImage", imageByUrl.get(row.featuredImageUrl)!.id) : null,
      })
    : (images[0] ?? null);

  const product: Obj = {
    __typename: "Product",
    id: row.id,
    title: row.title,
    handle: row.handle,
    vendor: row.vendor,
    availableForSale: row.availableForSale,
    productType: row.productType,
    description: (args: { truncateAt?: number | null }) => truncate(row.description, args.truncateAt),
    descriptionHtml: row.descriptionHtml,
    tags: row.tags,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    publishedAt: iso(row.publishedAt ?? row.created_at),
    totalInventory: row.totalInventory,
    isGiftCard: false,
    requiresSellingPlan: false,
    onlineStoreUrl: null,
    trackingParameters: null,
    encodedVariantAvailability: null,
    encodedVariantExistence: null,
    seo: { __typename: "SEO", title: null, description: null },
    featuredImage: featured,
    priceRange: { __typename: "ProductPriceRange", minVariantPrice: money(row.priceMin, cur), maxVariantPrice: money(row.priceMax, cur) },
    images: (args: ConnectionArgs) => arrayConnection(images, args),
    variantsCount: { __typename: "Count", count: row.variants.length, precision: "EXACT" },
  };

  const variants = row.variants.map((v) => variantObj(v, product, imageByUrl));
  const compareAt = row.variants.map((v) => v.compareAtPrice).filter((p): p is Prisma.Decimal => p != null);
  const cmpMin = compareAt.length ? compareAt.reduce((a, b) => (b.lessThan(a) ? b : a)) : 0;
  const cmpMax = compareAt.length ? compareAt.reduce((a, b) => (b.greaterThan(a) ? b : a)) : 0;
  product.compareAtPriceRange = { __typename: "ProductPriceRange", minVariantPrice: money(cmpMin, cur), maxVariantPrice: money(cmpMax, cur) };
  product.variants = (args: ConnectionArgs) => arrayConnection(variants, args);
  // Every variant object, for lookups past the connection's 250 (no schema field has this name).
  product.__allVariants = variants;

  const firstAvailable = () => variants.find((v) => v.availableForSale) ?? variants[0] ?? null;
  const bySelected = (wanted: { name: string; value: string }[] | null | undefined, caseInsensitive?: boolean | null) => {
    if (!wanted?.length) return null;
    const eq = (a: string, b: string) => (caseInsensitive ? a.toLowerCase() === b.toLowerCase() : a === b);
    return variants.find((v) => wanted.every((w) => (v.selectedOptions as { name: string; value: string }[]).some((s) => eq(s.name, w.name) && eq(s.value, w.value)))) ?? null;
  };
  product.variantBySelectedOptions = (args: { selectedOptions: { name: string; value: string }[]; caseInsensitiveMatch?: boolean }) => bySelected(args.selectedOptions, args.caseInsensitiveMatch);
  product.selectedOrFirstAvailableVariant = (args: { selectedOptions?: { name: string; value: string }[]; caseInsensitiveMatch?: boolean }) => bySelected(args.selectedOptions, args.caseInsensitiveMatch) ?? firstAvailable();

  product.options = (args: { first?: number | null }) =>
    row.options.slice(0, args.first ?? undefined).map((o) => {
      const optionId = gidOf("ProductOption", o.id);
      return {
        __typename: "ProductOption",
        id: optionId,
        name: o.name,
        values: o.values,
        optionValues: o.values.map((value, i) => ({
          __typename: "ProductOptionValue",
          id: `gid://shopify/ProductOptionValue/${gidTailOf(optionId)}-${i}`,
          name: value,
          swatch: null,
          firstSelectableVariant: () => variants.find((v) => (v.selectedOptions as { name: string; value: string }[]).some((s) => s.name === o.name && s.value === value)) ?? null,
        })),
      };
    });

  Object.assign(
    product,
    metafieldFields((namespace, key) => {
      if (namespace === "custom" && key === "target_gender") return metafieldObj(product, row.id, namespace, key, row.target_gender, "single_line_text_field", at);
      return null;
    }),
  );
  return product;
}

function selectedOptionsOf(v: VariantRow): { name: string; value: string }[] {
  const raw = Array.isArray(v.selectedOptions) ? (v.selectedOptions as unknown[]) : [];
  return raw
    .filter((s): s is { name: unknown; value: unknown } => !!s && typeof s === "object")
    .map((s) => ({ __typename: "SelectedOption", name: String(s.name ?? ""), value: String(s.value ?? "") }));
}

function variantObj(v: VariantRow, product: Obj, imageByUrl: Map<string, { altText: string | null; id: string; width: number | null; height: number | null }>): Obj {
  const img = v.image_url ? imageByUrl.get(v.image_url) : undefined;
  const variant: Obj = {
    __typename: "ProductVariant",
    id: v.id,
    title: v.title,
    availableForSale: v.availableForSale,
    currentlyNotInStock: v.availableForSale && v.inventory_quantity <= 0,
    quantityAvailable: v.inventory_quantity,
    sku: v.sku,
    barcode: null,
    requiresShipping: true,
    requiresComponents: false,
    taxable: true,
    weight: null,
    weightUnit: "KILOGRAMS",
    image: v.image_url ? imageObj(v.image_url, img?.altText ?? null, { id: img ? gidOf("ProductImage", img.id) : null, width: img?.width, height: img?.height }) : null,
    price: money(v.price, v.currencyCode),
    priceV2: money(v.price, v.currencyCode),
    compareAtPrice: v.compareAtPrice != null ? money(v.compareAtPrice, v.currencyCode) : null,
    compareAtPriceV2: v.compareAtPrice != null ? money(v.compareAtPrice, v.currencyCode) : null,
    unitPrice: null,
    selectedOptions: selectedOptionsOf(v),
    product,
  };
  Object.assign(
    variant,
    metafieldFields((namespace, key) => {
      if (namespace === "custom" && key === "color_hex" && v.color_hex) return metafieldObj(variant, v.id, namespace, key, v.color_hex, "color", { created: v.created_at, updated: v.updated_at });
      return null;
    }),
  );
  return variant;
}

// ---------------------------------------------------------------------------------------------
// Root resolvers

async function resolveNodes(ctx: Ctx, ids: string[]): Promise<(Obj | null)[]> {
  if (ids.length > STOREFRONT_MAX_PAGE_SIZE) throw new GraphQLError(`nodes: at most ${STOREFRONT_MAX_PAGE_SIZE} ids per request (got ${ids.length})`, { extensions: { code: "MAX_INPUT_SIZE_EXCEEDED" } });
  const productIds = ids.filter((id) => gidType(id) === "Product");
  const variantIds = ids.filter((id) => gidType(id) === "ProductVariant");
  const byId = new Map<string, Obj>();
  if (productIds.length) {
    const rows = await ctx.db.product.findMany({ where: { AND: [visibleWhere(ctx.now), { id: { in: productIds } }] }, include: productInclude });
    for (const row of rows) byId.set(row.id, productObj(row));
  }
  for (const [id, v] of await variantObjs(ctx, variantIds)) byId.set(id, v);
  return ids.map((id) => byId.get(id) ?? null);
}

/** ProductVariant objects (with their product) of visible products, by variant id. */
async function variantObjs(ctx: Ctx, variantIds: string[]): Promise<Map<string, Obj>> {
  const byId = new Map<string, Obj>();
  if (!variantIds.length) return byId;
  const wanted = new Set(variantIds);
  const rows = await ctx.db.product.findMany({ where: { AND: [visibleWhere(ctx.now), { variants: { some: { id: { in: [...wanted] } } } }] }, include: productInclude });
  for (const row of rows) {
    for (const v of productObj(row).__allVariants as Obj[]) if (wanted.has(v.id as string)) byId.set(v.id as string, v);
  }
  return byId;
}

async function resolveProduct(ctx: Ctx, args: { id?: string | null; handle?: string | null }): Promise<Obj | null> {
  if (!args.id && !args.handle) return null;
  const where: Prisma.ProductWhereInput = args.id ? { id: args.id } : { handle: args.handle! };
  const row = await ctx.db.product.findFirst({ where: { AND: [visibleWhere(ctx.now), where] }, include: productInclude });
  return row ? productObj(row) : null;
}

// ---------------------------------------------------------------------------------------------
// The cart (local-cart.server.ts holds the store and its rules; this renders its state)

const CART_MUTATIONS = new Set(["cartCreate", "cartLinesAdd", "cartLinesUpdate", "cartLinesRemove", "cartDiscountCodesUpdate", "cartBuyerIdentityUpdate"]);

/** The first root field of a mutation the local endpoint does not answer (as text), or null. */
function unsupportedMutation(document: DocumentNode, operation: OperationDefinitionNode): string | null {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const walk = (set: SelectionSetNode, depth: number): string | null => {
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        if (sel.name.value !== "__typename" && !CART_MUTATIONS.has(sel.name.value)) return `the mutation ${sel.name.value}`;
      } else {
        const inner = sel.kind === Kind.INLINE_FRAGMENT ? sel.selectionSet : fragments.get(sel.name.value)?.selectionSet;
        const found = inner && depth < 10 ? walk(inner, depth + 1) : null;
        if (found) return found;
      }
    }
    return null;
  };
  return walk(operation.selectionSet, 0);
}

const cartMoney = (cents: number, currencyCode: string) => money(Number(centsToAmount(cents)), currencyCode);

async function resolveCart(ctx: Ctx, cartId: string): Promise<Obj | null> {
  const state = await readLocalCart(ctx.db, cartId, ctx.now);
  return state ? cartObj(ctx, state) : null;
}

/** The Storefront Cart object of a priced cart; merchandise is the catalogue's ProductVariant object. */
async function cartObj(ctx: Ctx, state: LocalCartState): Promise<Obj> {
  const variants = await variantObjs(ctx, state.lines.map((l) => l.variantId));
  const cur = state.currencyCode;
  const lines = state.lines
    .filter((l) => variants.has(l.variantId))
    .map((l) => {
      const attributes = l.attributes.map((a) => ({ __typename: "Attribute", key: a.key, value: a.value }));
      return {
        __typename: "CartLine",
        id: l.id,
        quantity: l.quantity,
        attributes,
        attribute: (args: { key: string }) => attributes.find((a) => a.key === args.key) ?? null,
        cost: {
          __typename: "CartLineCost",
          amountPerQuantity: cartMoney(l.unitCents, cur),
          compareAtAmountPerQuantity: l.compareAtCents != null ? cartMoney(l.compareAtCents, cur) : null,
          subtotalAmount: cartMoney(l.totalCents, cur),
          totalAmount: cartMoney(l.totalCents, cur),
        },
        merchandise: variants.get(l.variantId),
        discountAllocations: [],
        sellingPlanAllocation: null,
      } satisfies Obj;
    });
  return {
    __typename: "Cart",
    id: state.id,
    checkoutUrl: `${ctx.appUrl}/checkout?cart=${encodeURIComponent(state.id)}`,
    createdAt: iso(state.createdAt),
    updatedAt: iso(state.updatedAt),
    note: state.note,
    totalQuantity: state.totalQuantity,
    attributes: [],
    attribute: null,
    appliedGiftCards: [],
    discountAllocations: [],
    buyerIdentity: { __typename: "CartBuyerIdentity", email: state.email, countryCode: state.countryCode, phone: null, customer: null, purchasingCompany: null, preferences: null },
    discountCodes: state.discountCodes.map((d) => ({ __typename: "CartDiscountCode", code: d.code, applicable: d.applicable })),
    cost: {
      __typename: "CartCost",
      subtotalAmount: cartMoney(state.subtotalCents, cur),
      subtotalAmountEstimated: false,
      totalAmount: cartMoney(state.totalCents, cur),
      totalAmountEstimated: false,
      checkoutChargeAmount: cartMoney(state.totalCents, cur),
    },
    lines: (args: ConnectionArgs) => arrayConnection(lines, args),
  };
}

function cartPayload(ctx: Ctx, typename: string, outcome: LocalCartOutcome): Obj {
  return {
    __typename: typename,
    cart: outcome.state ? () => cartObj(ctx, outcome.state!) : null,
    userErrors: outcome.userErrors.map((e) => ({ __typename: "CartUserError", field: e.field, message: e.message, code: e.code })),
    warnings: outcome.warnings.map((w) => ({ __typename: "CartWarning", code: w.code, message: w.message, target: w.target })),
  };
}

// ---------------------------------------------------------------------------------------------
// Connections and cursors

interface ConnectionArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
  reverse?: boolean | null;
}

export const encodeCursor = (index: number) => Buffer.from(JSON.stringify({ i: index })).toString("base64url");
export function decodeCursor(cursor: string): number {
  try {
    const v = JSON.parse(Buffer.from(cursor, "base64url").toString()) as { i?: unknown };
    if (typeof v.i === "number" && Number.isInteger(v.i) && v.i >= 0) return v.i;
  } catch {
    /* invalid */
  }
  throw new GraphQLError(`Invalid cursor: ${cursor}`, { extensions: { code: "BAD_REQUEST" } });
}

/** The window [start, end) a connection's arguments select out of `total` items (total may be unknown when paging forward). */
function checkPageArgs(args: ConnectionArgs) {
  const { first, last } = args;
  if (first == null && last == null) throw new GraphQLError("You must provide one of first or last", { extensions: { code: "BAD_REQUEST" } });
  if (first != null && last != null) throw new GraphQLError("Provide either first or last, not both", { extensions: { code: "BAD_REQUEST" } });
  const n = (first ?? last)!;
  if (n < 0 || n > STOREFRONT_MAX_PAGE_SIZE) throw new GraphQLError(`${first != null ? "first" : "last"} must be between 0 and ${STOREFRONT_MAX_PAGE_SIZE} (got ${n})`, { extensions: { code: "BAD_REQUEST" } });
}

function pageWindow(args: ConnectionArgs, total: number) {
  checkPageArgs(args);
  const afterIdx = args.after ? decodeCursor(args.after) : -1;
  const beforeIdx = args.before ? decodeCursor(args.before) : total;
  const lo = Math.min(afterIdx + 1, total);
  const hi = Math.max(lo, Math.min(beforeIdx, total));
  let start = lo;
  let end = hi;
  if (args.first != null) end = Math.min(hi, lo + args.first);
  else start = Math.max(lo, hi - args.last!);
  return { start, end, hasPreviousPage: start > 0, hasNextPage: end < total };
}

function connectionOf(nodes: Obj[], start: number, flags: { hasNextPage: boolean; hasPreviousPage: boolean }) {
  const edges = nodes.map((node, i) => ({ cursor: encodeCursor(start + i), node }));
  return {
    edges,
    nodes,
    filters: [],
    pageInfo: {
      hasNextPage: flags.hasNextPage,
      hasPreviousPage: flags.hasPreviousPage,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
  };
}

function arrayConnection(items: Obj[], args: ConnectionArgs) {
  const ordered = args.reverse ? [...items].reverse() : items;
  const w = pageWindow(args, ordered.length);
  return connectionOf(ordered.slice(w.start, w.end), w.start, w);
}

// ---------------------------------------------------------------------------------------------
// products(query, sortKey, reverse, first/last, after/before)

type Order = Prisma.ProductOrderByWithRelationInput[];
const dir = (asc: boolean, reverse: boolean): Prisma.SortOrder => ((asc !== reverse) ? "asc" : "desc");

/** Shopify's product sort keys on the read model. ID follows creation order (ids grow with creation); BEST_SELLING has no sales ranking locally and falls back to newest first. */
function orderFor(sortKey: ProductSortKey, reverse: boolean): Order {
  const tie = (asc: boolean): Order => [{ id: dir(asc, reverse) }];
  switch (sortKey) {
    case "TITLE":
      return [{ title: dir(true, reverse) }, ...tie(true)];
    case "PRICE":
      return [{ priceMin: dir(true, reverse) }, ...tie(true)];
    case "CREATED_AT":
      return [{ created_at: dir(true, reverse) }, ...tie(true)];
    case "UPDATED_AT":
      return [{ updated_at: dir(true, reverse) }, ...tie(true)];
    case "VENDOR":
      return [{ vendor: dir(true, reverse) }, ...tie(true)];
    case "PRODUCT_TYPE":
      return [{ productType: dir(true, reverse) }, ...tie(true)];
    case "BEST_SELLING":
      return [{ created_at: dir(false, reverse) }, ...tie(false)];
    case "ID":
    case "RELEVANCE":
    default:
      return [{ created_at: dir(true, reverse) }, ...tie(true)];
  }
}

function textMatch(term: SearchTerm, exactByDefault: boolean): Prisma.StringFilter {
  const v = term.value;
  if (term.prefixWildcard && term.suffixWildcard) return { contains: v, mode: "insensitive" };
  if (term.suffixWildcard) return { startsWith: v, mode: "insensitive" };
  if (term.prefixWildcard) return { endsWith: v, mode: "insensitive" };
  return exactByDefault ? { equals: v, mode: "insensitive" } : { contains: v, mode: "insensitive" };
}

function compare<T>(term: SearchTerm, value: T): Record<string, T> {
  const op = { "=": "equals", ">": "gt", ">=": "gte", "<": "lt", "<=": "lte" }[term.comparator];
  return { [op]: value };
}

/** Ids of products carrying a tag, compared case-insensitively (Shopify tags are; array `has` is not). */
type TagIds = (tag: string) => string[];
async function loadTagIds(db: Db, q: SearchQuery): Promise<TagIds> {
  const tags = [...new Set(q.groups.flat().filter((t) => t.field === null || t.field === "tag" || t.field === "tag_not").map((t) => t.value.toLowerCase()))];
  const map = new Map<string, string[]>(tags.map((t) => [t, []]));
  if (tags.length) {
    const rows = await db.$queryRaw<{ id: string; tag: string }[]>`
      SELECT p."id", lower(t) AS "tag" FROM "products" p, unnest(p."tags") AS t WHERE lower(t) = ANY(${tags}::text[])`;
    for (const r of rows) map.get(r.tag)?.push(r.id);
  }
  return (tag) => map.get(tag.toLowerCase()) ?? [];
}

function termWhere(term: SearchTerm, tagIds: TagIds): Prisma.ProductWhereInput | null {
  const v = term.value;
  switch (term.field) {
    case "title":
      return { title: textMatch(term, false) };
    case "product_type":
      return { productType: textMatch(term, true) };
    case "vendor":
      return { vendor: textMatch(term, true) };
    case "handle":
      return { handle: textMatch(term, true) };
    case "tag":
      return { id: { in: tagIds(v) } };
    case "tag_not":
      return { NOT: { id: { in: tagIds(v) } } };
    case "available_for_sale":
      return { availableForSale: v.toLowerCase() === "true" };
    case "id": {
      const id = /^\d+$/.test(v) ? `gid://shopify/Product/${v}` : v;
      return { id };
    }
    case "variants.price": {
      const n = Number(v);
      return Number.isFinite(n) ? { variants: { some: { price: compare(term, n) } } } : null;
    }
    case "created_at":
    case "updated_at": {
      const d = new Date(v);
      if (Number.isNaN(d.getTime())) return null;
      return { [term.field]: compare(term, d) };
    }
    default: {
      const m: Prisma.StringFilter = { contains: v, mode: "insensitive" };
      return { OR: [{ title: m }, { productType: m }, { vendor: m }, { id: { in: tagIds(v) } }] };
    }
  }
}

export async function searchWhere(db: Db, q: SearchQuery): Promise<Prisma.ProductWhereInput> {
  const tagIds = await loadTagIds(db, q);
  const groups = q.groups
    .map((terms) =>
      terms
        .map((t) => {
          const w = termWhere(t, tagIds);
          return w && t.negated ? { NOT: w } : w;
        })
        .filter((w): w is Prisma.ProductWhereInput => !!w),
    )
    .filter((g) => g.length);
  if (!groups.length) return {};
  if (groups.length === 1) return { AND: groups[0] };
  return { OR: groups.map((g) => ({ AND: g })) };
}

/** Relevance: title hits weigh most, then product type, vendor and tags; ties by creation order. */
function relevanceScore(p: { title: string; productType: string; vendor: string; tags: string[] }, words: string[]): number {
  const title = p.title.toLowerCase();
  const titleWords = title.split(/[^\p{L}\p{N}]+/u);
  let score = 0;
  for (const w of words) {
    if (titleWords.includes(w)) score += 4;
    else if (title.includes(w)) score += 3;
    if (p.productType.toLowerCase().includes(w)) score += 2;
    if (p.vendor.toLowerCase().includes(w)) score += 1;
    if (p.tags.some((t) => t.toLowerCase() === w)) score += 1;
  }
  return score;
}

async function resolveProducts(ctx: Ctx, args: ConnectionArgs & { query?: string | null; sortKey?: ProductSortKey | null }) {
  checkPageArgs(args);
  const search = parseSearchQuery(args.query);
  const where: Prisma.ProductWhereInput = { AND: [visibleWhere(ctx.now), await searchWhere(ctx.db, search)] };
  const sortKey: ProductSortKey = args.sortKey ?? "ID";
  const reverse = !!args.reverse;
  const words = plainWords(search);

  // RELEVANCE with words to rank: rank the matching set (ids and text only), then load the page.
  if (sortKey === "RELEVANCE" && words.length) {
    const candidates = await ctx.db.product.findMany({ where, select: { id: true, title: true, productType: true, vendor: true, tags: true }, orderBy: orderFor("ID", false) });
    const ranked = candidates.map((c, i) => ({ id: c.id, score: relevanceScore(c, words), i })).sort((a, b) => b.score - a.score || a.i - b.i);
    if (reverse) ranked.reverse();
    const w = pageWindow(args, ranked.length);
    const ids = ranked.slice(w.start, w.end).map((r) => r.id);
    const rows = await ctx.db.product.findMany({ where: { id: { in: ids } }, include: productInclude });
    const byId = new Map(rows.map((r) => [r.id, r]));
    return connectionOf(ids.map((id) => byId.get(id)).filter((r): r is ProductRow => !!r).map(productObj), w.start, w);
  }

  const orderBy = orderFor(sortKey, reverse);
  if (args.first != null && !args.before) {
    // Forward paging needs no count: fetch one extra row to know whether there is a next page.
    const start = args.after ? decodeCursor(args.after) + 1 : 0;
    const rows = await ctx.db.product.findMany({ where, orderBy, skip: start, take: args.first + 1, include: productInclude });
    const page = rows.slice(0, args.first);
    return connectionOf(page.map(productObj), start, { hasNextPage: rows.length > args.first, hasPreviousPage: start > 0 });
  }
  const total = await ctx.db.product.count({ where });
  const w = pageWindow(args, total);
  const rows = w.end > w.start ? await ctx.db.product.findMany({ where, orderBy, skip: w.start, take: w.end - w.start, include: productInclude }) : [];
  return connectionOf(rows.map(productObj), w.start, w);
}
