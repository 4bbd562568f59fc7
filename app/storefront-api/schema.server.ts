/**
 * The real Storefront API schema (2025-07), from the introspection JSON that ships as
 * `storefront.schema.json` in @shopify/hydrogen-react (2025.7 line). Read from node_modules once
 * and kept: the unit test validates the app's documents against it, and the local endpoint
 * validates every incoming document against it before executing.
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import { buildClientSchema, type GraphQLSchema, type IntrospectionQuery } from "graphql";

export const STOREFRONT_SCHEMA_PACKAGE = "@shopify/hydrogen-react/storefront.schema.json";

let cached: GraphQLSchema | undefined;

export function storefrontSchemaPath(): string {
  return createRequire(import.meta.url).resolve(STOREFRONT_SCHEMA_PACKAGE);
}

/** The schema, built on first use and cached. Throws with a clear message if the package is missing. */
export function getStorefrontSchema(): GraphQLSchema {
  if (cached) return cached;
  let file: string;
  try {
    file = storefrontSchemaPath();
  } catch (error) {
    throw new Error(`The Storefront API schema is missing: install ${STOREFRONT_SCHEMA_PACKAGE.split("/storefront")[0]} (npm install)`, { cause: error });
  }
  const json = JSON.parse(fs.readFileSync(file, "utf8")) as { data?: IntrospectionQuery } & IntrospectionQuery;
  cached = buildClientSchema(json.data ?? json);
  return cached;
}
