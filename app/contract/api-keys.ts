/**
 * API keys of the data service (SPEC §7 "Data service with api-key auth (GraphQL)"; DESIGN.md:
 * GraphQL at /api/graphql with an `x-api-key` header). Admins with `apikeys.manage` create and
 * revoke them; the key itself is answered once, at creation (only its SHA-256 hash is stored, and
 * its first characters, `key_prefix`, to recognise it in lists). The GraphQL endpoint itself is
 * not a REST endpoint of this contract: its schema is app/services/data-service/schema.ts (README, "Data
 * service").
 */
import { z } from "zod";
import { access, endpoint } from "./endpoint";
import { IdParams, IsoDate, intParam } from "./common";

export const API_KEY_NAME_MAX = 100;

export const ApiKeyStatus = z.enum(["active", "revoked"]);

export const ApiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The key's first characters (e.g. `fdk_AbC12345`), never the key. */
  key_prefix: z.string(),
  status: ApiKeyStatus,
  created_at: IsoDate,
  /** When a request last used it (updated at most once a minute), else null. */
  last_used_at: IsoDate.nullable(),
  revoked_at: IsoDate.nullable(),
  created_by: z.object({ id: z.string(), email: z.string().nullable() }).nullable(),
});
export type ApiKeyInfo = z.output<typeof ApiKeySchema>;

export const ApiKeyCreateBody = z.object({
  name: z
    .string({ error: "name is required: give the key a name that says who uses it" })
    .trim()
    .min(1, "name is required: give the key a name that says who uses it")
    .max(API_KEY_NAME_MAX, `name must be at most ${API_KEY_NAME_MAX} characters`),
});

export const apiKeysEndpoints = {
  apiKeysList: endpoint({
    method: "GET",
    path: "/admin/api-keys",
    summary: "List the data service's API keys (newest first; prefixes only, never the keys)",
    tags: ["API keys"],
    access: access.admin("apikeys.manage"),
    query: z.object({
      status: z.enum(["all", "active", "revoked"]).default("all"),
      skip: intParam(0, 0, 1_000_000),
      take: intParam(50, 1, 100),
    }),
    response: z.object({ items: z.array(ApiKeySchema), total: z.number().int() }),
  }),
  apiKeysCreate: endpoint({
    method: "POST",
    path: "/admin/api-keys",
    summary: "Create an API key: the answer carries the key, shown this once",
    tags: ["API keys"],
    access: access.admin("apikeys.manage"),
    body: ApiKeyCreateBody,
    response: z.object({
      apiKey: ApiKeySchema,
      /** The key to send in `x-api-key`. Only its hash is stored: it cannot be shown again. */
      key: z.string(),
    }),
    status: 201,
  }),
  apiKeysRevoke: endpoint({
    method: "DELETE",
    path: "/admin/api-keys/{id}",
    summary: "Revoke an API key: requests with it are refused at once (revoking twice keeps the first date)",
    tags: ["API keys"],
    access: access.admin("apikeys.manage"),
    params: IdParams,
    response: ApiKeySchema,
  }),
};
