/**
 * The API contract: every endpoint is declared once, with its zod schemas and access rule.
 * The server validates with these schemas, the OpenAPI document is generated from them, and the
 * typed client library calls them. No path or payload shape is written twice.
 */
import { z } from "zod";
import type { Permission, RoleName } from "./permissions";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export type Access =
  /** Anyone, no token needed. */
  | { kind: "public" }
  /** Any signed-in user, guests included. */
  | { kind: "user" }
  /**
   * A signed-in user who is not a guest (a lead or a full user). With `message` (a spec message
   * such as "You cannot create a search entry without being logged in"), anonymous callers and
   * guests alike get 401 with that message.
   */
  | {
      kind: "registered";
      message?: string;
      /** Full users only: leads (a guest who gave an email) are refused with 403 too (SPEC §6 reviewable orders). */
      fullUsersOnly?: boolean;
    }
  /**
   * A user with one of the roles; admins may also need a permission (a list: any one of them, for
   * routes two teams read, such as a vendor's ads for the vendors and the ads teams).
   */
  | { kind: "role"; roles: readonly RoleName[]; permission?: Permission | readonly Permission[] }
  /** The data service's shared key in `x-api-key`. */
  | { kind: "apiKey" };

export const access = {
  public: { kind: "public" } as const,
  user: { kind: "user" } as const,
  registered: { kind: "registered" } as const,
  /** `registered`, answering 401 with the spec's `message` to anonymous callers and guests. */
  loggedIn: (message: string) => ({ kind: "registered", message }) as const,
  /** A signed-in full user: neither a guest nor a lead (SPEC §6: reviewable orders). */
  fullUser: { kind: "registered", fullUsersOnly: true } as const,
  admin: (permission?: Permission) => ({ kind: "role", roles: ["ADMIN"], permission }) as const,
  vendor: { kind: "role", roles: ["VENDOR"] } as const,
  apiKey: { kind: "apiKey" } as const,
};

type AnySchema = z.ZodType;

export interface EndpointDef<
  P extends AnySchema | undefined = AnySchema | undefined,
  Q extends AnySchema | undefined = AnySchema | undefined,
  B extends AnySchema | undefined = AnySchema | undefined,
  R extends AnySchema = AnySchema,
> {
  method: HttpMethod;
  /** Path under /api with `{name}` parameters, e.g. `/clones/{id}`. */
  path: string;
  summary: string;
  tags: readonly string[];
  access: Access;
  params?: P;
  query?: Q;
  body?: B;
  response: R;
  /** HTTP status of a success; 200 unless stated. */
  status?: number;
  /**
   * "auth": authentication endpoints, limited per endpoint and client address; "image": image work
   * done on request (search by photo, face detection), one budget per user (or address);
   * "language": language-model work (assistant messages, NLU queries, personalised collections),
   * one budget per user (or address).
   */
  rateLimit?: "auth" | "image" | "language";
  /** Responses that are not JSON (docs page). */
  responseType?: "json" | "html";
  /**
   * Other media types of the success answer, chosen by the request (a `format=csv` query): the
   * handler returns its own Response for them; listed here for the OpenAPI document.
   */
  alternateContent?: readonly "text/csv"[];
  /** A multipart/form-data upload: its fields, for the OpenAPI document (the body schema validates the FormData). */
  multipart?: Record<string, { kind: "file" | "text"; required?: boolean; description?: string }>;
  /**
   * Largest request body accepted, in bytes: counted while it streams in, 413 once past it (a
   * larger Content-Length is refused unread). Default: 5 MB for JSON; uploads state theirs (their
   * files' limits plus room for the fields), never above the server's 100 MB ceiling.
   */
  maxBodyBytes?: number;
}

/** Room for the fields and multipart framing around an upload's files (its body limit is the files' plus this). */
export const MULTIPART_ROOM_BYTES = 2 * 1024 * 1024;

/** Declares an endpoint; the declared parts (params, query, body) stay non-optional in its type. */
export function endpoint<D extends EndpointDef>(def: D): D {
  return def;
}

type In<S> = S extends AnySchema ? z.input<S> : never;
type Out<S> = S extends AnySchema ? z.output<S> : never;

type Part<K extends string, S> = S extends AnySchema
  ? {} extends In<S>
    ? { [k in K]?: In<S> }
    : { [k in K]: In<S> }
  : { [k in K]?: never };

/** What a client passes: `{ params, query, body }`, each present when the endpoint declares it. */
export type EndpointInput<E> = E extends EndpointDef<infer P, infer Q, infer B, AnySchema>
  ? Part<"params", P> & Part<"query", Q> & Part<"body", B>
  : never;

/** What a client receives. */
export type EndpointOutput<E> = E extends EndpointDef<AnySchema | undefined, AnySchema | undefined, AnySchema | undefined, infer R>
  ? z.output<R>
  : never;

/** What a server handler receives after validation. */
export type EndpointParsed<E> = E extends EndpointDef<infer P, infer Q, infer B, AnySchema>
  ? { params: Out<P>; query: Out<Q>; body: Out<B> }
  : never;

/** What a server handler returns (validated and stripped by the response schema). */
export type EndpointResult<E> = E extends EndpointDef<AnySchema | undefined, AnySchema | undefined, AnySchema | undefined, infer R>
  ? z.input<R>
  : never;

/** Fills `{name}` parameters of a path (zod-free, in ./path for the theme blocks' client). */
export { buildPath } from "./path";

export const ErrorBody = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.unknown().optional(),
    requestId: z.string().optional(),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBody>;
