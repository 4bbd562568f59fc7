/**
 * The data service (SPEC §7 "Data service with api-key auth (GraphQL)", DESIGN.md): POST
 * /api/graphql with an `x-api-key` header, for trusted backend services.
 *
 * Built like the local Storefront endpoint (app/storefront-api/local-endpoint.server.ts): the
 * schema is SDL (./schema.ts), executed with graphql-js; the
 * resolvers validate their arguments with zod and call ./records.server.ts (no Prisma here).
 *
 * Request handling, in order: method (POST) → key (401, no data, when missing, unknown or revoked:
 * app/api/auth.server.ts `authenticateApiKey`, the same check as the REST router's
 * `access.apiKey`) → body (JSON, ≤ 100 kB) → parse (≤ 5000 tokens) → depth (≤ 8, before
 * validation, introspection fields excepted: graphql-js's MaxIntrospectionDepthRule covers them)
 * → validation → cost (≤ 5000) → execution. Request errors answer 400 `{errors}`; an executed
 * operation answers 200 `{data, errors?}`.
 */
import {
  GraphQLError,
  GraphQLScalarType,
  Kind,
  buildSchema,
  execute,
  getNamedType,
  getNullableType,
  getOperationAST,
  isListType,
  isObjectType,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLFieldResolver,
  type GraphQLFormattedError,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from "graphql";
import type { User } from "@prisma/client";
import { z } from "zod";
import type { AppContext } from "~/context.server";
import type { Logger } from "~/lib/logger.server";
import { toApiError } from "~/api/router.server";
import { DomainError, isKnownError } from "~/lib/domain-errors";
import { authenticateApiKey, type ApiKeyCaller } from "~/api/auth.server";
import { Messages } from "~/contract/messages";
import { ImageUrl } from "~/contract/vision";
import { isMissingId, toProductGid } from "~/lib/gid";
import { unstorableGraphQLInput } from "~/lib/unstorable-graphql";
import { readText } from "~/lib/body-limit.server";
import { DATA_SERVICE_MAX_PAGE_SIZE, DATA_SERVICE_SDL } from "./schema";
import * as records from "./records.server";

export const DATA_SERVICE_LIMITS = {
  maxBodyBytes: 100_000,
  maxTokens: 5_000,
  maxDepth: 8,
  maxCost: 5_000,
  maxPageSize: DATA_SERVICE_MAX_PAGE_SIZE,
  /** Cost multiplier of a list without a `limit` argument (a try-on's images). */
  unboundedListCost: 10,
} as const;

type Db = AppContext["db"];
type Row = Record<string, unknown>;

interface ResolverContext {
  db: Db;
  log: Logger;
  loaders: Loaders;
  users: Map<string, Promise<User | null>>;
}

// ---------------------------------------------------------------------------------------------
// Errors

const CODES: Record<number, string> = { 400: "BAD_USER_INPUT", 401: "UNAUTHENTICATED", 403: "FORBIDDEN", 404: "NOT_FOUND", 409: "CONFLICT", 413: "BAD_USER_INPUT", 422: "BAD_USER_INPUT" };

const userError = (message: string, code = "BAD_USER_INPUT", extra: Record<string, unknown> = {}) => new GraphQLError(message, { extensions: { code, ...extra } });

/** A resolver's error as the caller sees it: domain errors, ApiError and GraphQLError keep their message; anything else is logged and hidden. */
function formatError(e: GraphQLError, log: Logger): GraphQLFormattedError {
  const original = e.originalError;
  if (!original || original instanceof GraphQLError) return e.toJSON();
  if (isKnownError(original)) {
    // Services throw domain errors; the API's mapping gives them their status.
    const err = toApiError(original);
    if (err.status >= 500) log.error({ err: original, cause: (original as Error & { cause?: unknown }).cause, path: e.path }, "data service resolver failed");
    return { message: err.message, locations: e.locations, path: e.path, extensions: { code: CODES[err.status] ?? "INTERNAL_SERVER_ERROR" } };
  }
  log.error({ err: original, path: e.path }, "data service resolver failed");
  return { message: Messages.INTERNAL, locations: e.locations, path: e.path, extensions: { code: "INTERNAL_SERVER_ERROR" } };
}

// ---------------------------------------------------------------------------------------------
// Arguments (zod)

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** SPEC §8: a missing user id → "User ID is required"; one that is not a user's id → "Invalid user ID provided". */
const UserId = z
  .string({ error: Messages.USER_ID_REQUIRED })
  .trim()
  .refine((v) => !isMissingId(v), Messages.USER_ID_REQUIRED)
  .refine((v) => UUID.test(v), Messages.INVALID_USER_ID);

const RecordId = (name: string) =>
  z
    .string({ error: `${name} is required` })
    .trim()
    .refine((v) => !isMissingId(v), `${name} is required`)
    .refine((v) => UUID.test(v), `${name} is not a valid id`);

const ProductId = z
  .string({ error: Messages.NO_PRODUCT_ID })
  .trim()
  .refine((v) => !isMissingId(v), Messages.NO_PRODUCT_ID)
  .transform(toProductGid)
  .refine((v) => /^gid:\/\/shopify\/Product\/\d+$/.test(v), "productId must be a product GID (gid://shopify/Product/1001) or its number");

const PageSchema = z.object({
  limit: z
    .number()
    .int()
    .min(1, "limit must be at least 1")
    .max(DATA_SERVICE_MAX_PAGE_SIZE, `limit must be at most ${DATA_SERVICE_MAX_PAGE_SIZE}`),
  nextToken: z.string().max(1000, "nextToken is not valid").nullish(),
  sortDirection: z.enum(["ASC", "DESC"]).default("DESC"),
});

/** The result as JSON text (SPEC §3: "result (JSON text)"); stored parsed, at most 200 kB. */
const ResultText = z
  .string()
  .max(200_000, "result must be at most 200 kB of JSON text")
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.issues.push({ code: "custom", message: "result must be JSON text", input: text });
      return z.NEVER;
    }
  });

function parseArgs<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const field = issue?.path.join(".");
  const spec = Object.values(Messages).includes(issue?.message as never);
  const plain = !issue || spec || !field || issue.message.startsWith(`${field} `);
  throw userError(!issue ? "Invalid arguments" : plain ? issue.message : `${field}: ${issue.message}`, "BAD_USER_INPUT", field ? { field } : {});
}

/** The user named by `userId` (checked once per request). */
async function userOf(ctx: ResolverContext, rawUserId: unknown): Promise<User> {
  const id = parseArgs(UserId, rawUserId ?? undefined);
  let pending = ctx.users.get(id);
  if (!pending) {
    pending = records.findUser(ctx.db, id);
    ctx.users.set(id, pending);
  }
  const user = await pending;
  if (!user) throw userError(Messages.INVALID_USER_ID);
  return user;
}

// ---------------------------------------------------------------------------------------------
// Batched loads of related objects (one query per kind per request)

function batchLoader<V>(fetch: (ids: string[]) => Promise<Map<string, V>>) {
  const cache = new Map<string, Promise<V | null>>();
  let queue: { id: string; resolve: (v: V | null) => void; reject: (e: unknown) => void }[] = [];
  const dispatch = async () => {
    const batch = queue;
    queue = [];
    try {
      const found = await fetch([...new Set(batch.map((b) => b.id))]);
      for (const b of batch) b.resolve(found.get(b.id) ?? null);
    } catch (e) {
      for (const b of batch) b.reject(e);
    }
  };
  return (id: string): Promise<V | null> => {
    const hit = cache.get(id);
    if (hit) return hit;
    const p = new Promise<V | null>((resolve, reject) => {
      if (queue.length === 0) void Promise.resolve().then(() => process.nextTick(() => void dispatch()));
      queue.push({ id, resolve, reject });
    });
    cache.set(id, p);
    return p;
  };
}

function createLoaders(db: Db) {
  return {
    product: batchLoader((ids) => records.productCardsByIds(db, ids)),
    store: batchLoader((ids) => records.storesByIds(db, ids)),
    tryon: batchLoader((ids) => records.tryOnsByIds(db, ids)),
  };
}
type Loaders = ReturnType<typeof createLoaders>;

// ---------------------------------------------------------------------------------------------
// Resolvers

type Args = Record<string, unknown>;
type Resolver = (parent: Row, args: Args, ctx: ResolverContext) => unknown;

const pageArgs = (args: Args) => parseArgs(PageSchema, { limit: args.limit, nextToken: args.nextToken, sortDirection: args.sortDirection ?? undefined });
const input = (args: Args) => (args.input ?? {}) as Args;

/** The vision entry's result as JSON text. */
const resultText = (v: unknown) => (v === null || v === undefined ? null : typeof v === "string" ? v : JSON.stringify(v));

const resolvers: Record<string, Record<string, Resolver>> = {
  Query: {
    savedProductsByUser: async (_p, args, ctx) => records.listSavedProducts(ctx.db, await userOf(ctx, args.userId), pageArgs(args)),
    checkSavedProduct: async (_p, args, ctx) => {
      const user = await userOf(ctx, args.userId);
      return records.isProductSaved(ctx.db, user, parseArgs(ProductId, args.productId));
    },
    savedTryOnsByUser: async (_p, args, ctx) => records.listSavedTryOns(ctx.db, await userOf(ctx, args.userId), pageArgs(args)),
    checkSavedTryOn: async (_p, args, ctx) => {
      const user = await userOf(ctx, args.userId);
      return records.isTryOnSaved(ctx.db, user, parseArgs(RecordId("tryonId"), args.tryonId));
    },
    favoriteStoresByUser: async (_p, args, ctx) =>
      favoriteStores(ctx, Messages.FAILED_TO_FETCH_FAVORITE_STORES, async () => records.listFavoriteStores(ctx.db, await userOf(ctx, args.userId), pageArgs(args))),
    userFavoriteStore: async (_p, args, ctx) =>
      favoriteStores(ctx, Messages.FAILED_TO_FETCH_FAVORITE_STORE, async () => {
        const user = await userOf(ctx, args.userId);
        return records.getFavoriteStore(ctx.db, user, parseArgs(RecordId("storeId"), args.storeId));
      }),
    visionSearchEntriesByUser: async (_p, args, ctx) => records.listVisionEntries(ctx.db, await userOf(ctx, args.userId), pageArgs(args)),
    visionSearchEntry: async (_p, args, ctx) => {
      const user = await userOf(ctx, args.userId);
      return records.getVisionEntry(ctx.db, user, parseArgs(RecordId("id"), args.id));
    },
    cloneTrainingJobsByUser: async (_p, args, ctx) => records.listCloneTrainingJobs(ctx.db, await userOf(ctx, args.userId), pageArgs(args)),
    cloneTrainingJob: async (_p, args, ctx) => {
      const user = await userOf(ctx, args.userId);
      return records.getCloneTrainingJob(ctx.db, user, parseArgs(RecordId("id"), args.id));
    },
  },
  Mutation: {
    createSavedProduct: async (_p, args, ctx) => {
      const i = input(args);
      const user = await userOf(ctx, i.userId);
      return records.createSavedProduct(ctx.db, user, parseArgs(ProductId, i.productId));
    },
    deleteSavedProduct: async (_p, args, ctx) => {
      const i = input(args);
      const user = await userOf(ctx, i.userId);
      return records.deleteSavedProduct(ctx.db, user, parseArgs(ProductId, i.productId));
    },
    createSavedTryOn: async (_p, args, ctx) => {
      const i = input(args);
      const user = await userOf(ctx, i.userId);
      return records.createSavedTryOn(ctx.db, user, parseArgs(RecordId("tryonId"), i.tryonId));
    },
    deleteSavedTryOn: async (_p, args, ctx) => {
      const i = input(args);
      const user = await userOf(ctx, i.userId);
      return records.deleteSavedTryOn(ctx.db, user, parseArgs(RecordId("tryonId"), i.tryonId));
    },
    createUserFavoriteStore: async (_p, args, ctx) =>
      favoriteStores(ctx, Messages.FAILED_TO_CREATE_FAVORITE_STORE, async () => {
        const i = input(args);
        const user = await userOf(ctx, i.userId);
        return records.createFavoriteStore(ctx.db, user, parseArgs(RecordId("storeId"), i.storeId));
      }),
    deleteUserFavoriteStore: async (_p, args, ctx) =>
      favoriteStores(ctx, Messages.FAILED_TO_DELETE_FAVORITE_STORE, async () => {
        const i = input(args);
        const user = await userOf(ctx, i.userId);
        return records.deleteFavoriteStore(ctx.db, user, parseArgs(RecordId("storeId"), i.storeId));
      }),
    createVisionSearchEntry: async (_p, args, ctx) => {
      const i = input(args);
      const user = await userOf(ctx, i.userId);
      const body = parseArgs(z.object({ image_url: ImageUrl, result: ResultText.nullish() }), { image_url: i.image_url, result: i.result });
      return records.createVisionEntry(ctx.db, user, { image_url: body.image_url, result: body.result ?? undefined });
    },
    updateVisionSearchEntry: async (_p, args, ctx) => {
      const i = input(args);
      const user = await userOf(ctx, i.userId);
      const id = parseArgs(RecordId("id"), i.id);
      const body = parseArgs(z.object({ image_url: ImageUrl.nullish(), result: ResultText.nullish() }), { image_url: i.image_url, result: i.result });
      return records.updateVisionEntry(ctx.db, user, id, {
        ...(body.image_url != null ? { image_url: body.image_url } : {}),
        // An explicit null clears the result; an absent one keeps it.
        ...("result" in i ? { result: i.result === null ? null : body.result } : {}),
      });
    },
  },
  SavedProduct: {
    product: (p, _a, ctx) => ctx.loaders.product(String(p.product_id)),
  },
  SavedTryOn: {
    tryon: (p, _a, ctx) => ctx.loaders.tryon(String(p.tryon_id)),
  },
  TryOn: {
    product: (p, _a, ctx) => ctx.loaders.product(String(p.product_id)),
  },
  UserFavoriteStore: {
    store: (p, _a, ctx) => ctx.loaders.store(String(p.store_id)),
  },
  VisionSearchEntry: {
    result: (p) => resultText(p.result),
  },
};

/**
 * SPEC §8 names the favourite-store failures ("Failed to fetch user favorite stores", …): an
 * unexpected failure of these operations answers that message; the caller's own mistakes (bad
 * ids, unknown store) keep theirs.
 */
async function favoriteStores<T>(ctx: ResolverContext, failure: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof GraphQLError || isKnownError(e)) throw e;
    ctx.log.error({ err: e }, failure);
    throw new GraphQLError(failure, { extensions: { code: "INTERNAL_SERVER_ERROR" } });
  }
}

const DateTime = new GraphQLScalarType({
  name: "DateTime",
  serialize: (v) => (v instanceof Date ? v.toISOString() : typeof v === "string" ? new Date(v).toISOString() : null),
  parseValue: (v) => {
    const d = new Date(String(v));
    if (Number.isNaN(d.getTime())) throw new GraphQLError("DateTime must be an ISO 8601 date and time");
    return d;
  },
});

let cachedSchema: GraphQLSchema | undefined;

/** The executable schema: the SDL with the resolvers above attached to its fields. */
export function getDataServiceSchema(): GraphQLSchema {
  if (cachedSchema) return cachedSchema;
  const schema = buildSchema(DATA_SERVICE_SDL);
  for (const [typeName, fields] of Object.entries(resolvers)) {
    const type = schema.getType(typeName);
    if (!isObjectType(type)) throw new Error(`The data service schema has no object type ${typeName}`);
    const defs = type.getFields();
    for (const [fieldName, resolve] of Object.entries(fields)) {
      if (!defs[fieldName]) throw new Error(`The data service schema has no field ${typeName}.${fieldName}`);
      defs[fieldName].resolve = resolve as GraphQLFieldResolver<unknown, unknown>;
    }
  }
  const scalar = schema.getType("DateTime") as GraphQLScalarType;
  scalar.serialize = DateTime.serialize;
  scalar.parseValue = DateTime.parseValue;
  cachedSchema = schema;
  return schema;
}

// ---------------------------------------------------------------------------------------------
// Limits: depth and cost

function fragmentsOf(document: DocumentNode) {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  return fragments;
}

const isIntrospection = (f: FieldNode) => f.name.value === "__schema" || f.name.value === "__type";

/** The deepest chain of fields with selections + 1 for their leaves (`{ a { b } }` is 2). Introspection subtrees are not counted. */
export function queryDepth(document: DocumentNode, operation: OperationDefinitionNode): number {
  const fragments = fragmentsOf(document);
  const walk = (set: SelectionSetNode | undefined, depth: number, seen: Set<string>): number => {
    if (!set) return depth;
    let max = depth;
    for (const sel of set.selections) {
      if (max > DATA_SERVICE_LIMITS.maxDepth) return max;
      if (sel.kind === Kind.FIELD) {
        if (isIntrospection(sel)) continue;
        max = Math.max(max, sel.selectionSet ? walk(sel.selectionSet, depth + 1, seen) : depth + 1);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        max = Math.max(max, walk(sel.selectionSet, depth, seen));
      } else if (!seen.has(sel.name.value)) {
        max = Math.max(max, walk(fragments.get(sel.name.value)?.selectionSet, depth, new Set(seen).add(sel.name.value)));
      }
    }
    return max;
  };
  return walk(operation.selectionSet, 0, new Set());
}

/**
 * An upper bound of the work a query asks for: each field costs 1; a field with a `limit` argument
 * (a page) multiplies the cost of its selection by the limit (or the schema's default), and a list
 * without one by DATA_SERVICE_LIMITS.unboundedListCost. Run after validation (fragments are acyclic).
 */
export function queryCost(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode, variables: Record<string, unknown>): number {
  const fragments = fragmentsOf(document);
  const argValue = (node: ValueNode): unknown => {
    if (node.kind === Kind.VARIABLE) return variables[node.name.value];
    if (node.kind === Kind.INT) return Number(node.value);
    return undefined;
  };
  const root = operation.operation === "mutation" ? schema.getMutationType() : schema.getQueryType();
  const walk = (set: SelectionSetNode | undefined, typeName: string | undefined): number => {
    if (!set) return 0;
    let total = 0;
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        if (isIntrospection(sel) || sel.name.value === "__typename") continue;
        const type = typeName ? schema.getType(typeName) : undefined;
        const def = isObjectType(type) ? type.getFields()[sel.name.value] : undefined;
        let multiplier = 1;
        const limitArg = def?.args.find((a) => a.name === "limit");
        if (limitArg) {
          const given = sel.arguments?.find((a) => a.name.value === "limit");
          const v = given ? argValue(given.value) : undefined;
          multiplier = typeof v === "number" ? v : typeof limitArg.defaultValue === "number" ? limitArg.defaultValue : 1;
        } else if (def && isListType(getNullableType(def.type)) && !typeName?.endsWith("Connection")) {
          // A page's items are already counted by the page's limit; other lists by a fixed estimate.
          multiplier = DATA_SERVICE_LIMITS.unboundedListCost;
        }
        const childType = def ? getNamedType(def.type).name : undefined;
        total += 1 + (sel.selectionSet ? multiplier * walk(sel.selectionSet, childType) : 0);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        total += walk(sel.selectionSet, sel.typeCondition?.name.value ?? typeName);
      } else {
        const frag = fragments.get(sel.name.value);
        total += walk(frag?.selectionSet, frag?.typeCondition.name.value ?? typeName);
      }
      if (total > Number.MAX_SAFE_INTEGER / 1000) return total;
    }
    return total;
  };
  return walk(operation.selectionSet, root?.name);
}

// ---------------------------------------------------------------------------------------------
// HTTP

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...headers } });
}

const requestError = (message: string, code: string, status: number, headers: Record<string, string> = {}) => json({ errors: [{ message, extensions: { code } }] }, status, headers);

interface GraphQLRequestBody {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
}

async function readBody(request: Request): Promise<GraphQLRequestBody | Response> {
  const tooLarge = () => requestError(`The request body is larger than ${DATA_SERVICE_LIMITS.maxBodyBytes} bytes`, "PAYLOAD_TOO_LARGE", 413);
  if (Number(request.headers.get("content-length") ?? 0) > DATA_SERVICE_LIMITS.maxBodyBytes) return tooLarge();
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  if (type && !type.includes("application/json") && !type.includes("+json")) return requestError("Send the request as application/json: { query, variables, operationName }", "UNSUPPORTED_MEDIA_TYPE", 415);
  let text: string;
  try {
    // Counted while it streams in: reading stops at the limit instead of after the whole body.
    text = await readText(request, DATA_SERVICE_LIMITS.maxBodyBytes);
  } catch (e) {
    if (e instanceof DomainError && e.kind === "too_large") return tooLarge();
    throw e;
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return requestError("The request body is not valid JSON", "BAD_REQUEST", 400);
  }
  const b = body as Partial<Record<keyof GraphQLRequestBody, unknown>> | null;
  if (!b || typeof b !== "object" || typeof b.query !== "string" || !b.query.trim()) return requestError("The request body must have a `query` string", "BAD_REQUEST", 400);
  if (b.variables != null && (typeof b.variables !== "object" || Array.isArray(b.variables))) return requestError("`variables` must be an object", "BAD_REQUEST", 400);
  if (b.operationName != null && typeof b.operationName !== "string") return requestError("`operationName` must be a string", "BAD_REQUEST", 400);
  return { query: b.query, variables: (b.variables as Record<string, unknown> | null) ?? undefined, operationName: (b.operationName as string | null) ?? undefined };
}

/** Answers one HTTP request to POST /api/graphql. */
export async function handleDataServiceRequest(request: Request, ctx: Pick<AppContext, "db" | "config" | "log">): Promise<Response> {
  const started = performance.now();
  let status = 500;
  let caller: ApiKeyCaller | undefined;
  let operationName: string | undefined;
  try {
    if (request.method !== "POST") {
      status = 405;
      return requestError("Use POST with a JSON body { query, variables, operationName }", "METHOD_NOT_ALLOWED", 405, { Allow: "POST" });
    }
    try {
      caller = await authenticateApiKey(ctx, request);
    } catch (e) {
      const refused = isKnownError(e) ? toApiError(e) : null;
      if (refused?.status === 401) {
        status = 401;
        return requestError(refused.message, "UNAUTHENTICATED", 401);
      }
      throw e;
    }

    const body = await readBody(request);
    if (body instanceof Response) {
      status = body.status;
      return body;
    }
    operationName = body.operationName;

    let document: DocumentNode;
    try {
      document = parse(body.query, { maxTokens: DATA_SERVICE_LIMITS.maxTokens });
    } catch (error) {
      const e = error as GraphQLError;
      status = 400;
      return json({ errors: [{ message: e.message, locations: e.locations, extensions: { code: "GRAPHQL_PARSE_FAILED" } }] }, 400);
    }

    const unstorable = unstorableGraphQLInput(document, body.variables);
    if (unstorable) {
      status = 400;
      return requestError(unstorable, "BAD_USER_INPUT", 400);
    }

    const operation = getOperationAST(document, body.operationName);
    if (operation) {
      const depth = queryDepth(document, operation);
      if (depth > DATA_SERVICE_LIMITS.maxDepth) {
        status = 400;
        return requestError(`The query is nested deeper than ${DATA_SERVICE_LIMITS.maxDepth} levels`, "QUERY_TOO_DEEP", 400);
      }
    }

    const schema = getDataServiceSchema();
    const validationErrors = validate(schema, document, specifiedRules);
    if (validationErrors.length) {
      status = 400;
      return json({ errors: validationErrors.map((e) => ({ message: e.message, locations: e.locations, extensions: { code: "GRAPHQL_VALIDATION_FAILED" } })) }, 400);
    }
    if (!operation) {
      status = 400;
      return requestError(body.operationName ? `The document has no operation named ${body.operationName}` : "The document has several operations: name one in operationName", "BAD_REQUEST", 400);
    }
    const cost = queryCost(schema, document, operation, body.variables ?? {});
    if (cost > DATA_SERVICE_LIMITS.maxCost) {
      status = 400;
      return requestError(`The query costs ${cost}, more than the limit of ${DATA_SERVICE_LIMITS.maxCost}: ask for smaller pages or fewer fields`, "QUERY_TOO_COMPLEX", 400);
    }

    const log = ctx.log.child({ dataService: true, apiKey: caller.id ?? caller.name });
    const contextValue: ResolverContext = { db: ctx.db, log, loaders: createLoaders(ctx.db), users: new Map() };
    const result = await execute({ schema, document, variableValues: body.variables, operationName: body.operationName, contextValue });
    const errors = result.errors?.map((e) => formatError(e, log));
    status = 200;
    return json({ ...(errors?.length ? { errors } : {}), ...("data" in result ? { data: result.data } : {}) });
  } catch (e) {
    ctx.log.error({ err: e }, "data service request failed");
    status = 500;
    return requestError(Messages.INTERNAL, "INTERNAL_SERVER_ERROR", 500);
  } finally {
    ctx.log.info({ status, ms: Math.round(performance.now() - started), apiKey: caller ? (caller.id ?? caller.name) : null, operationName }, "data service request");
  }
}
