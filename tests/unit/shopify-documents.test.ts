/**
 * Every Admin GraphQL document of the Shopify commerce adapter, validated against the real Admin
 * schema of the pinned API version (the introspection shipped in @shopify/dev-mcp). A typo'd
 * field, a wrong argument or a wrong variable type fails here.
 */
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { buildClientSchema, parse, validate, Kind, type GraphQLSchema, type IntrospectionQuery, type OperationDefinitionNode } from "graphql";
import { ApiVersion } from "@shopify/shopify-api";
import { describe, expect, it } from "vitest";
import { ADMIN_DOCUMENTS, PRODUCT_GET, bulkProductsQuery } from "../../app/providers/commerce/shopify-documents";

/** The version pinned in app/shopify.server.ts (read from its source: importing it builds the Shopify app). */
function pinnedVersion(): string {
  const src = fs.readFileSync(path.resolve(__dirname, "../../app/shopify.server.ts"), "utf8");
  const m = /ADMIN_API_VERSION\s*=\s*ApiVersion\.(\w+)/.exec(src);
  if (!m) throw new Error("ADMIN_API_VERSION not found in app/shopify.server.ts");
  return (ApiVersion as Record<string, string>)[m[1]];
}

function loadSchema(version: string): GraphQLSchema {
  const dir = path.resolve(__dirname, "../../node_modules/@shopify/dev-mcp/dist/data");
  const file = path.join(dir, `admin_${version}.json.gz`);
  expect(fs.existsSync(file), `the Admin schema ${version} is shipped in @shopify/dev-mcp (${file})`).toBe(true);
  const json = JSON.parse(zlib.gunzipSync(fs.readFileSync(file)).toString()) as { data?: IntrospectionQuery } & IntrospectionQuery;
  return buildClientSchema(json.data ?? json);
}

const version = pinnedVersion();
const schema = loadSchema(version);

function errorsOf(doc: string): string[] {
  return validate(schema, parse(doc)).map((e) => e.message);
}

describe(`Admin GraphQL documents against the ${version} schema`, () => {
  it("pins 2026-10", () => {
    expect(version).toBe("2026-10");
  });

  it("lists every exported document", () => {
    expect(Object.keys(ADMIN_DOCUMENTS).length).toBeGreaterThanOrEqual(30);
  });

  for (const [name, doc] of Object.entries(ADMIN_DOCUMENTS)) {
    it(`${name} is a single named #graphql operation that validates`, () => {
      expect(doc.trimStart().startsWith("#graphql")).toBe(true);
      const ops = parse(doc).definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
      expect(ops).toHaveLength(1);
      expect(ops[0].name?.value).toBe(name);
      expect(errorsOf(doc)).toEqual([]);
    });
  }

  it("the bulk query without a search filter validates too", () => {
    expect(errorsOf(bulkProductsQuery())).toEqual([]);
  });

  it("would catch a typo'd field, a wrong argument and a wrong variable type", () => {
    expect(errorsOf(PRODUCT_GET.replace("descriptionHtml", "descriptionHtlm")).join("\n")).toMatch(/descriptionHtlm/);
    expect(errorsOf(PRODUCT_GET.replace("product(id: $id)", "product(gid: $id)")).join("\n")).toMatch(/gid/);
    expect(errorsOf(PRODUCT_GET.replace("$id: ID!", "$id: Int!")).length).toBeGreaterThan(0);
  });
});
