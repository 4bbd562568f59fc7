/**
 * Text PostgreSQL cannot store: U+0000 (refused in text and jsonb) and UTF-16 surrogates without
 * their pair (not valid Unicode: jsonb refuses them, text silently gets U+FFFD, and Prisma's query
 * encoder fails on them). Every boundary that passes outside input on to the database refuses
 * (or, for payloads we must accept such as Shopify's webhooks, strips) these characters first, so
 * they answer 400 instead of failing inside a query.
 */

import { MAX_FORM_BODY_BYTES, readText } from "./body-limit.server";

/** Lone high surrogate, lone low surrogate, or NUL. */
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNSTORABLE_ALL = new RegExp(UNSTORABLE.source, "g");

export const UNSTORABLE_TEXT_MESSAGE = "contains a character that is not allowed (U+0000 or an unpaired UTF-16 surrogate)";

export function isUnstorableText(s: string): boolean {
  return UNSTORABLE.test(s);
}

/** The text without NUL and unpaired surrogates. */
export function stripUnstorableText(s: string): string {
  return isUnstorableText(s) ? s.replace(UNSTORABLE_ALL, "") : s;
}

/**
 * Where the first unstorable string is in a value (JSON, query object, FormData): its path as
 * `a.b.0` ("" for the value itself, key names included: a key is stored too, e.g. in jsonb), or
 * null when there is none. Iterative, so a deeply nested body cannot exhaust the stack.
 */
export function findUnstorableText(value: unknown): string | null {
  const stack: { v: unknown; path: string }[] = [{ v: value, path: "" }];
  const join = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));
  const seen = new Set<object>();
  while (stack.length) {
    const { v, path } = stack.pop()!;
    if (typeof v === "string") {
      if (isUnstorableText(v)) return path;
      continue;
    }
    if (v === null || typeof v !== "object" || seen.has(v)) continue;
    seen.add(v);
    if (typeof FormData !== "undefined" && v instanceof FormData) {
      for (const [k, field] of v.entries()) {
        if (isUnstorableText(k)) return join(path, k);
        // A file's content is bytes; its name is text that may be stored.
        stack.push({ v: typeof field === "string" ? field : field.name, path: join(path, k) });
      }
      continue;
    }
    if (Array.isArray(v)) {
      v.forEach((item, i) => stack.push({ v: item, path: join(path, i) }));
      continue;
    }
    if (Object.getPrototypeOf(v) !== Object.prototype && Object.getPrototypeOf(v) !== null) continue;
    for (const [k, item] of Object.entries(v)) {
      if (isUnstorableText(k)) return join(path, k);
      stack.push({ v: item, path: join(path, k) });
    }
  }
  return null;
}

/** A JSON-like value with every unstorable character removed from its strings and keys (Shopify's payloads). */
export function stripUnstorableDeep<T>(value: T): T {
  if (typeof value === "string") return stripUnstorableText(value) as T;
  if (Array.isArray(value)) return value.map((v) => stripUnstorableDeep(v)) as T;
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [stripUnstorableText(k), stripUnstorableDeep(v)])) as T;
  }
  return value;
}

/**
 * The message refusing a page request whose path, query or form/JSON body holds unstorable text,
 * or null. Multipart bodies are not read here (they may be large uploads): their fields are
 * checked where they are parsed, and the database's refusal maps to a 400 anyway.
 */
export async function unstorableRequestInput(request: Request): Promise<string | null> {
  const url = new URL(request.url);
  let path = url.pathname;
  try {
    path = decodeURIComponent(path);
  } catch {
    /* malformed encoding: matched by no record, nothing to store */
  }
  if (isUnstorableText(path)) return `The address ${UNSTORABLE_TEXT_MESSAGE}`;
  for (const [k, v] of url.searchParams) if (isUnstorableText(k) || isUnstorableText(v)) return `${k} ${UNSTORABLE_TEXT_MESSAGE}`;
  if (request.method === "GET" || request.method === "HEAD" || !request.body || request.bodyUsed) return null;
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  // Read with the forms' limit: a larger body is left to the page's own reader, which refuses it with a 413.
  const text = () => readText(request.clone(), MAX_FORM_BODY_BYTES).catch(() => null);
  if (type.includes("application/x-www-form-urlencoded")) {
    const form = await text();
    if (form === null) return null;
    for (const [k, v] of new URLSearchParams(form)) if (isUnstorableText(k) || isUnstorableText(v)) return `${k} ${UNSTORABLE_TEXT_MESSAGE}`;
  } else if (type.includes("json")) {
    let body: unknown;
    try {
      const json = await text();
      if (json === null) return null;
      body = JSON.parse(json);
    } catch {
      return null;
    }
    const at = findUnstorableText(body);
    if (at !== null) return `${at || "The body"} ${UNSTORABLE_TEXT_MESSAGE}`;
  }
  return null;
}
