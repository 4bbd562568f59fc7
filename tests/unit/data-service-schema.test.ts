/**
 * The data service's schema: the SDL the server runs (app/services/data-service/schema.ts), every operation
 * has a resolver, every by-user list pages with limit/nextToken/sortDirection, and the depth and
 * cost limits measure what they should.
 */
import { describe, expect, it } from "vitest";
import { getIntrospectionQuery, getNamedType, getOperationAST, isObjectType, parse, specifiedRules, validate } from "graphql";
import { DATA_SERVICE_MAX_PAGE_SIZE } from "../../app/services/data-service/schema";
import { DATA_SERVICE_LIMITS, getDataServiceSchema, queryCost, queryDepth } from "../../app/services/data-service/graphql.server";
import { decodeNextToken, encodeNextToken } from "../../app/services/data-service/records.server";

const schema = getDataServiceSchema();
const op = (doc: string) => {
  const d = parse(doc);
  return { d, o: getOperationAST(d)! };
};

describe("data service schema", () => {
  it("has a resolver for every query and mutation", () => {
    const fields = [...Object.values(schema.getQueryType()!.getFields()), ...Object.values(schema.getMutationType()!.getFields())];
    expect(fields.length).toBe(18);
    for (const f of fields) expect(f.resolve, f.name).toBeTypeOf("function");
  });

  it("covers the spec's operations", () => {
    const q = Object.keys(schema.getQueryType()!.getFields());
    const m = Object.keys(schema.getMutationType()!.getFields());
    expect(q).toEqual(
      expect.arrayContaining(["savedProductsByUser", "checkSavedProduct", "savedTryOnsByUser", "checkSavedTryOn", "favoriteStoresByUser", "visionSearchEntriesByUser", "visionSearchEntry", "cloneTrainingJobsByUser", "cloneTrainingJob"]),
    );
    expect(m).toEqual(
      expect.arrayContaining(["createSavedProduct", "deleteSavedProduct", "createSavedTryOn", "deleteSavedTryOn", "createUserFavoriteStore", "deleteUserFavoriteStore", "createVisionSearchEntry", "updateVisionSearchEntry"]),
    );
  });

  it("every list by user pages with limit (≤ 100), nextToken and sortDirection (newest first by default), and takes userId", () => {
    const lists = Object.values(schema.getQueryType()!.getFields()).filter((f) => f.name.endsWith("ByUser"));
    expect(lists).toHaveLength(5);
    for (const f of lists) {
      const args = Object.fromEntries(f.args.map((a) => [a.name, a]));
      expect(Object.keys(args).sort(), f.name).toEqual(["limit", "nextToken", "sortDirection", "userId"]);
      expect(args.limit.defaultValue as number).toBeLessThanOrEqual(DATA_SERVICE_MAX_PAGE_SIZE);
      expect(args.sortDirection.defaultValue).toBe("DESC");
      const conn = getNamedType(f.type);
      expect(isObjectType(conn) && Object.keys(conn.getFields()).sort(), f.name).toEqual(["items", "nextToken"]);
    }
    for (const f of [...Object.values(schema.getQueryType()!.getFields())]) expect(f.args.some((a) => a.name === "userId"), f.name).toBe(true);
  });
});

describe("limits", () => {
  it("measures depth through fields, inline fragments and fragments, leaving introspection out", () => {
    expect(queryDepth(op("{ a }").d, op("{ a }").o)).toBe(1);
    const nested = op("{ a { b { ... on X { c { d } } } } }");
    expect(queryDepth(nested.d, nested.o)).toBe(4);
    const frag = op("query { ...F } fragment F on Query { a { b } }");
    expect(queryDepth(frag.d, frag.o)).toBe(2);
    const intro = parse(getIntrospectionQuery());
    expect(queryDepth(intro, getOperationAST(intro)!)).toBe(0);
    // The standard introspection query validates (graphql-js's MaxIntrospectionDepthRule bounds deeper ones).
    expect(validate(schema, intro, specifiedRules)).toEqual([]);
    const cyclic = parse("{ __schema { types { fields { type { fields { type { fields { type { fields { name } } } } } } } } } }");
    expect(validate(schema, cyclic, specifiedRules).length).toBeGreaterThan(0);
  });

  it("costs a page by its limit (or the default) and a plain list by a fixed estimate", () => {
    const c = (doc: string, vars: Record<string, unknown> = {}) => {
      const { d, o } = op(doc);
      return queryCost(schema, d, o, vars);
    };
    expect(c('{ checkSavedProduct(userId: "u", productId: "1") }')).toBe(1);
    // 1 + 20 × (items 1 + id 1 + nextToken 1)
    expect(c('{ savedProductsByUser(userId: "u") { items { id } nextToken } }')).toBe(1 + 20 * 3);
    expect(c('query ($n: Int) { savedProductsByUser(userId: "u", limit: $n) { items { id } } }', { n: 100 })).toBe(1 + 100 * 2);
    // generated_images: a list without a limit.
    expect(c('{ savedTryOnsByUser(userId: "u", limit: 1) { items { tryon { generated_images { image_url } } } } }')).toBe(1 + 1 * (1 + (1 + (1 + DATA_SERVICE_LIMITS.unboundedListCost))));
    expect(c('{ a: savedProductsByUser(userId: "u", limit: 100) { items { id } } b: savedProductsByUser(userId: "u", limit: 100) { items { id } } }')).toBe(2 * 201);
  });
});

describe("nextToken", () => {
  it("round-trips and refuses anything else", () => {
    const d = new Date("2026-11-23T10:15:00.123Z");
    expect(decodeNextToken(encodeNextToken(d, "abc"))).toEqual({ date: d, id: "abc" });
    for (const bad of ["", "garbage", Buffer.from("{}").toString("base64url"), Buffer.from(JSON.stringify({ t: "x", id: "a" })).toString("base64url")]) {
      expect(() => decodeNextToken(bad)).toThrow(/nextToken is not valid/);
    }
  });
});
