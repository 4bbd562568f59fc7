/**
 * Property-based fuzz test of the whole API (issue 14, "Done means"): for EVERY endpoint of the
 * contract, params, query and body are generated from the endpoint's own zod schemas
 * (tests/helpers/zod-arbitrary.ts) — valid values and hostile ones (NUL and unpaired surrogates
 * in strings, huge and non-finite numbers, wrong types, over-long strings, missing and unknown
 * keys, path ids with %0A/%0D/%00, unknown ids) — and sent through the API handler as an
 * anonymous caller, a shopper and an admin with every permission. No answer may be a 5xx (except
 * the ones the contract documents for the local mode, allowed by name below), and every 4xx has
 * the JSON error shape `{error: {code, message, requestId}}`.
 *
 * Bounded for CI: FUZZ_RUNS runs per endpoint (default 5) with a fixed seed (FUZZ_SEED), so a
 * failure reproduces; `FUZZ_RUNS=200 FUZZ_ONLY=productsDelete npx vitest run … api-fuzz` goes
 * deeper on one endpoint, FUZZ_SHRINK=1 shrinks a failure to its smallest input.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpoints } from "../../app/contract";
import type { EndpointDef } from "../../app/contract/endpoint";
import { PermissionNames } from "../../app/contract/permissions";
import { createTestApp, type ApiResponse, type TestApp } from "../helpers/app";
import { arbitraryOf, HOSTILE_STRINGS } from "../helpers/zod-arbitrary";

const RUNS = Number(process.env.FUZZ_RUNS ?? 5);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_127);
const ONLY = process.env.FUZZ_ONLY?.split(",").filter(Boolean);

/**
 * 5xx answers the contract documents for the embedded default (no image-AI or language-model
 * service configured): allowed for these endpoints only, with these statuses.
 */
const FAL_ONLY = "501: an image operation only the fal provider does (app/contract/image-models.ts; LOCAL_OPERATIONS lacks it)";
const DOCUMENTED_5XX: Record<string, { statuses: number[]; reason: string }> = {
  tryonsCreate: { statuses: [501], reason: "501 when the configured image provider cannot do virtual try-on (its summary says so)" },
  imageModelsGenerateFluxLora: { statuses: [501], reason: FAL_ONLY },
  imageModelsGenerateFluxLoraClone: { statuses: [501], reason: FAL_ONLY },
  imageModelsGenerateFluxLoraRaw: { statuses: [501], reason: FAL_ONLY },
  imageModelsGenerateFluxLoraCloneRaw: { statuses: [501], reason: FAL_ONLY },
  imageModelsGenerateCustomFluxLoraRaw: { statuses: [501], reason: FAL_ONLY },
  imageModelsFluxChangeModel: { statuses: [501], reason: FAL_ONLY },
  imageModelsEditFluxProductShot: { statuses: [501], reason: FAL_ONLY },
  imageModelsChronoEdit: { statuses: [501], reason: FAL_ONLY },
  imageModelsReveEdit: { statuses: [501], reason: FAL_ONLY },
  imageModelsGeminiImageEdit: { statuses: [501], reason: FAL_ONLY },
};

type Caller = "anonymous" | "shopper" | "admin";
type PathValue = string | { raw: string };

/** Path values sent as they are (not percent-encoded again): line breaks and NUL inside an id. */
const RAW_PATH_VALUES = ["a%0A", "x%0D", "%0A%0D", "id%00", "%E2%80%A8", "%ZZ"];

let app: TestApp;
const knownIds: string[] = [];

beforeAll(async () => {
  app = await createTestApp();
  const db = app.database.db;
  const vendor = await db.vendor.create({ data: { name: "Fuzz Vendor", handle: "fuzz-vendor" } });
  const store = await db.store.create({ data: { name: "Fuzz Store", handle: "fuzz-store", vendor_id: vendor.id } });
  const product = await db.product.create({
    data: {
      id: "gid://shopify/Product/910001",
      title: "Fuzz product",
      handle: "fuzz-product",
      vendor: "Fuzz Vendor",
      productType: "Shirts",
      availableForSale: true,
      priceMin: 10,
      priceMax: 10,
      status: "active",
      publishedAt: new Date(Date.now() - 86_400_000),
      store_id: store.id,
    },
  });
  knownIds.push(vendor.id, store.id, product.id, "910001", "fuzz-store", "fuzz-product");
});
/** Answers by status (FUZZ_STATS=1 prints them: a check that the generated calls reach the handlers, not only validation). */
const statusCounts = new Map<number, number>();
afterAll(async () => {
  if (process.env.FUZZ_STATS) console.log("answers by status", Object.fromEntries([...statusCounts].sort(([a], [b]) => a - b)));
  await app?.close();
});

function pathOf(def: EndpointDef, params: Record<string, PathValue>): string {
  return def.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const v = params[name];
    if (v === undefined) return "x";
    if (typeof v !== "string") return v.raw;
    try {
      return encodeURIComponent(v);
    } catch {
      // An unpaired surrogate has no UTF-8 form: send the bytes a client would produce for one.
      return `${encodeURIComponent(v.replace(/[\ud800-\udfff]/g, ""))}%ED%A0%80`;
    }
  });
}

function queryString(query: unknown): string {
  if (!query || typeof query !== "object" || Array.isArray(query)) return "";
  const qs = new URLSearchParams();
  const text = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v) ?? "");
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const item of v) qs.append(k, text(item));
    else if (v && typeof v === "object") for (const [sub, sv] of Object.entries(v)) qs.append(`${k}[${sub}]`, text(sv));
    else qs.append(k, v === null ? "" : String(v));
  }
  const s = qs.toString();
  return s ? `?${s}` : "";
}

function formData(def: EndpointDef, fields: Record<string, unknown>): FormData {
  const fd = new FormData();
  for (const [name, spec] of Object.entries(def.multipart ?? {})) {
    const v = fields[name];
    if (v === undefined) continue;
    if (spec.kind === "file") {
      for (const bytes of v as Uint8Array[]) fd.append(name, new Blob([bytes as Uint8Array<ArrayBuffer>], { type: "image/jpeg" }), `fuzz-${bytes.length}.jpg`);
    } else fd.append(name, String(v));
  }
  return fd;
}

/** One generated call of an endpoint: who calls, and its path parameters, query and body. */
function callArbitrary(name: string, def: EndpointDef) {
  const paramNames = [...def.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  const idArb = (hostile: boolean): fc.Arbitrary<PathValue> => {
    const shape = def.params ? (def.params as unknown as { _zod: { def: { shape?: Record<string, unknown> } } })._zod.def.shape : undefined;
    const fromSchema = (p: string) =>
      shape?.[p] ? (arbitraryOf(shape[p] as never, { hostile, knownIds }, p) as fc.Arbitrary<unknown>).map((v) => (v === undefined || v === null ? "x" : typeof v === "string" ? v : JSON.stringify(v))) : fc.string({ minLength: 1 });
    return fc.oneof(...paramNames.map(fromSchema), fc.constantFrom(...knownIds), ...(hostile ? [fc.constantFrom(...RAW_PATH_VALUES).map((raw) => ({ raw })), fc.constantFrom(...HOSTILE_STRINGS.filter((s) => s !== ""))] : []));
  };
  const variant = (hostile: boolean) =>
    fc.record({
      params: fc.record(Object.fromEntries(paramNames.map((p) => [p, idArb(hostile)]))) as fc.Arbitrary<Record<string, PathValue>>,
      query: def.query ? arbitraryOf(def.query, { hostile, knownIds }) : fc.constant(undefined),
      body: def.multipart
        ? fc.record(
            Object.fromEntries(
              Object.entries(def.multipart).map(([field, spec]) => [
                field,
                spec.kind === "file"
                  ? fc.option(fc.array(fc.uint8Array({ maxLength: 64 }), { minLength: 1, maxLength: 3 }), { nil: undefined })
                  : fc.option(fc.oneof(fc.string({ maxLength: 30 }), ...(hostile ? [fc.constantFrom(...HOSTILE_STRINGS)] : [])), { nil: undefined }),
              ]),
            ),
          )
        : def.body
          ? arbitraryOf(def.body, { hostile, knownIds })
          : fc.constant(undefined),
    });
  // Mostly the caller the access rule lets in (so calls reach the handler), sometimes the others.
  const fitting: Caller = def.access.kind === "role" ? "admin" : def.access.kind === "public" || def.access.kind === "apiKey" ? "anonymous" : "shopper";
  return fc.record({
    caller: fc.oneof({ arbitrary: fc.constant(fitting), weight: 4 }, { arbitrary: fc.constantFrom<Caller>("anonymous", "shopper", "admin"), weight: 2 }),
    input: fc.oneof(variant(false), variant(true)),
  });
}

const describeError = (res: ApiResponse) => JSON.stringify(res.body)?.slice(0, 400);

it("the allowed 5xx name endpoints that exist", () => {
  expect(Object.keys(DOCUMENTED_5XX).filter((n) => !(n in endpoints))).toEqual([]);
});

// Each endpoint's seed depends on its place in the whole contract, so FUZZ_ONLY replays the same calls.
const names = (Object.keys(endpoints) as (keyof typeof endpoints)[]).map((n, i) => [n, i] as const).filter(([n]) => !ONLY || ONLY.includes(n));

describe.each(names)("%s", (name, index) => {
  const def = endpoints[name] as EndpointDef;
  it(`${def.method} ${def.path}: no 5xx, and every 4xx has the JSON error shape`, async () => {
    const tokens: Record<Caller, string | null> = {
      anonymous: null,
      shopper: (await app.createUser()).token,
      admin: (await app.createUser({ role: "ADMIN", permissions: [...PermissionNames] })).token,
    };
    const allowed = DOCUMENTED_5XX[name]?.statuses ?? [];
    await fc.assert(
      fc.asyncProperty(callArbitrary(name, def), async ({ caller, input }) => {
        const path = pathOf(def, input.params) + queryString(input.query);
        const body = def.multipart ? formData(def, input.body as Record<string, unknown>) : input.body;
        const res = await app.api(def.method, path, { token: tokens[caller], body });
        statusCounts.set(res.status, (statusCounts.get(res.status) ?? 0) + 1);
        const where = `${caller} ${def.method} ${path.slice(0, 300)} → ${res.status} ${describeError(res)}`;
        expect(res.status < 500 || allowed.includes(res.status), where).toBe(true);
        if (res.status >= 400) {
          expect(res.body?.error, where).toMatchObject({ code: expect.any(String), message: expect.any(String), requestId: expect.any(String) });
        }
      }),
      { numRuns: RUNS, seed: SEED + index, endOnFailure: !process.env.FUZZ_SHRINK },
    );
  });
});
