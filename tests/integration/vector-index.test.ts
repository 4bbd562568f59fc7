/**
 * The vector index port: the same cases against every adapter — exact (ProductEmbedding scan),
 * pgvector (PGlite only: the machines' PostgreSQL 15 has no pgvector), Pinecone (a local server
 * speaking its REST protocol, tests/helpers/pinecone-server.ts) and auto.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TargetGender } from "../../app/contract/common";
import { createExactVectorIndex } from "../../app/providers/vector-index/exact.server";
import { createAutoVectorIndex, createVectorIndex } from "../../app/providers/vector-index/index.server";
import { createPgvectorIndex } from "../../app/providers/vector-index/pgvector.server";
import { createPineconeIndex, PINECONE_API_VERSION } from "../../app/providers/vector-index/pinecone.server";
import { VectorIndexError, type VectorIndex, type VectorNamespace } from "../../app/providers/vector-index/port";
import { createTestApp, type TestApp } from "../helpers/app";
import { PINECONE_TEST_KEY, startFakePinecone, type FakePinecone } from "../helpers/pinecone-server";

let app: TestApp;
let pinecone: FakePinecone;
const gid = (n: number) => `gid://shopify/Product/${n}`;
const GENDERS: Record<number, TargetGender> = { 9001: "menswear", 9002: "menswear", 9003: "womenswear", 9004: "womenswear", 9005: "both", 9006: "both" };
const IDS = Object.keys(GENDERS).map(Number);

/** Unit-ish 4-d vectors: 9001 and 9002 point along x, 9003 and 9004 along y, 9005 along z, 9006 between x and y. */
const V: Record<number, number[]> = {
  9001: [1, 0.05, 0, 0],
  9002: [0.9, 0.2, 0, 0.1],
  9003: [0, 1, 0.1, 0],
  9004: [0.1, 0.95, 0, 0.05],
  9005: [0, 0, 1, 0.2],
  9006: [0.7, 0.7, 0, 0],
};
const rec = (n: number, values = V[n]) => ({ id: gid(n), values, metadata: { target_gender: GENDERS[n] }, model: "test-model" });

beforeAll(async () => {
  app = await createTestApp();
  for (const n of IDS) {
    await app.database.db.product.create({ data: { id: gid(n), title: `Vector ${n}`, handle: `vector-${n}`, target_gender: GENDERS[n] } });
  }
  pinecone = await startFakePinecone({ dimension: 8 });
});
afterAll(async () => {
  await pinecone?.close();
  await app?.close();
});

const isPglite = () => app.database.kind === "pglite";

type Case = { name: string; make: () => VectorIndex; skip?: () => boolean };
const cases: Case[] = [
  { name: "exact", make: () => createExactVectorIndex(app.database.db) },
  { name: "pgvector", make: () => createPgvectorIndex(app.database.db), skip: () => !isPglite() },
  { name: "pinecone", make: () => createPineconeIndex({ apiKey: PINECONE_TEST_KEY, host: pinecone.url, backoffMs: 5 }) },
  { name: "auto", make: () => createAutoVectorIndex(app.database.db) },
];

describe.each(cases)("the $name adapter", (c) => {
  let index: VectorIndex;
  const ns: VectorNamespace = "attributes";
  beforeAll(async () => {
    index = c.make();
  });

  const run = (title: string, fn: () => Promise<void>) =>
    it(title, async (t) => {
      if (c.skip?.()) return t.skip();
      await fn();
    });

  run("starts empty and answers no matches", async () => {
    await index.remove(ns, IDS.map(gid));
    await index.remove("text", IDS.map(gid));
    expect(await index.count(ns)).toBe(0);
    expect(await index.query(ns, [1, 0, 0, 0], { topK: 5 })).toEqual([]);
  });

  run("upsert then query: nearest first, scores are cosines", async () => {
    await index.upsert(ns, IDS.map((n) => rec(n)));
    expect(await index.count(ns)).toBe(IDS.length);
    const m = await index.query(ns, [1, 0, 0, 0], { topK: 3 });
    expect(m.map((x) => x.id)).toEqual([gid(9001), gid(9002), gid(9006)]);
    expect(m[0].score).toBeCloseTo(1 / Math.hypot(1, 0.05), 4);
    expect(m[2].score).toBeCloseTo(0.7 / Math.hypot(0.7, 0.7), 4);
    for (let i = 1; i < m.length; i++) expect(m[i - 1].score).toBeGreaterThanOrEqual(m[i].score);
    expect(await index.query(ns, [1, 0, 0, 0], { topK: 0 })).toEqual([]);
    expect((await index.query(ns, [1, 0, 0, 0], { topK: 50 })).length).toBe(IDS.length);
  });

  run("filters by target gender", async () => {
    const women = await index.query(ns, [1, 0, 0, 0], { topK: 3, targetGenders: ["womenswear"] });
    expect(women.map((x) => x.id)).toEqual([gid(9004), gid(9003)]);
    const menOrBoth = await index.query(ns, [0, 1, 0, 0], { topK: 10, targetGenders: ["menswear", "both"] });
    expect(menOrBoth.map((x) => x.id).sort()).toEqual([gid(9001), gid(9002), gid(9005), gid(9006)]);
    expect(menOrBoth[0].id).toBe(gid(9006));
  });

  run("leaves excluded ids out and still fills topK", async () => {
    const m = await index.query(ns, [1, 0, 0, 0], { topK: 2, excludeIds: [gid(9001)] });
    expect(m.map((x) => x.id)).toEqual([gid(9002), gid(9006)]);
    const both = await index.query(ns, [1, 0, 0, 0], { topK: 1, excludeIds: [gid(9001), gid(9002)], targetGenders: ["menswear", "both"] });
    expect(both.map((x) => x.id)).toEqual([gid(9006)]);
  });

  run("an upsert of an existing id overwrites its vector", async () => {
    await index.upsert(ns, [rec(9005, [1, 0, 0, 0])]);
    expect(await index.count(ns)).toBe(IDS.length);
    const m = await index.query(ns, [1, 0, 0, 0], { topK: 1 });
    expect(m[0].id).toBe(gid(9005));
    expect(m[0].score).toBeCloseTo(1, 5);
    await index.upsert(ns, [rec(9005)]);
    expect((await index.query(ns, [1, 0, 0, 0], { topK: 1 }))[0].id).toBe(gid(9001));
  });

  run("remove takes vectors out; removing unknown ids is harmless", async () => {
    await index.remove(ns, [gid(9001), gid(9002)]);
    await index.remove(ns, [gid(9999)]);
    await index.remove(ns, []);
    expect(await index.count(ns)).toBe(IDS.length - 2);
    const m = await index.query(ns, [1, 0, 0, 0], { topK: 10 });
    expect(m.map((x) => x.id)).not.toContain(gid(9001));
    expect(m.map((x) => x.id)).not.toContain(gid(9002));
    expect(m[0].id).toBe(gid(9006));
  });

  run("namespaces are separate, and may have other dimensions", async () => {
    await index.upsert("text", [rec(9003, [0, 0, 1]), rec(9004, [0, 1, 0])]);
    expect(await index.count("text")).toBe(2);
    expect((await index.query("text", [0, 0.1, 1], { topK: 5 })).map((x) => x.id)).toEqual([gid(9003), gid(9004)]);
    expect((await index.query(ns, [0, 1, 0, 0], { topK: 1 }))[0].id).toBe(gid(9003));
    await index.remove("text", [gid(9003), gid(9004)]);
    expect(await index.count("text")).toBe(0);
    await index.remove(ns, IDS.map(gid));
  });
});

describe("exact adapter specifics", () => {
  it("keeps ProductEmbedding as the index and sees writes of other processes", async () => {
    const index = createExactVectorIndex(app.database.db);
    await index.upsert("attributes", [rec(9001), rec(9003)]);
    const row = await app.database.db.productEmbedding.findUnique({ where: { product_id_kind: { product_id: gid(9001), kind: "attributes" } } });
    expect(row).toMatchObject({ model: "test-model", dimensions: 4, embedding: V[9001] });
    await index.query("attributes", [1, 0, 0, 0], { topK: 1 });
    const loads = index.stats().loads;
    await index.query("attributes", [0, 1, 0, 0], { topK: 1 });
    expect(index.stats().loads).toBe(loads); // cached
    // Another writer (a worker process): the next query sees it.
    await new Promise((r) => setTimeout(r, 5));
    await app.database.db.productEmbedding.create({ data: { product_id: gid(9005), kind: "attributes", model: "m", dimensions: 4, embedding: [0, 0, 1, 0] } });
    expect((await index.query("attributes", [0, 0, 1, 0], { topK: 1 }))[0].id).toBe(gid(9005));
    expect(index.stats().loads).toBe(loads + 1);
    // The product's gender is read from the product row.
    await app.database.db.product.update({ where: { id: gid(9005) }, data: { target_gender: "menswear" } });
    await app.database.db.productEmbedding.update({ where: { product_id_kind: { product_id: gid(9005), kind: "attributes" } }, data: { model: "m2" } });
    expect((await index.query("attributes", [0, 0, 1, 0], { topK: 1, targetGenders: ["menswear"] }))[0].id).toBe(gid(9005));
    await app.database.db.product.update({ where: { id: gid(9005) }, data: { target_gender: "both" } });
    await index.remove("attributes", [gid(9001), gid(9003), gid(9005)]);
    expect(await app.database.db.productEmbedding.count({ where: { kind: "attributes" } })).toBe(0);
  });
});

describe("pgvector adapter specifics", () => {
  it("creates the extension and an HNSW side table lazily; a deleted product leaves the index", async (t) => {
    if (!isPglite()) return t.skip();
    const db = app.database.db;
    const index = createPgvectorIndex(db);
    expect(await index.resolve!()).toBe("pgvector");
    await index.upsert("image", [rec(9001), rec(9002)]);
    const idx = await db.$queryRawUnsafe<{ indexdef: string }[]>(`SELECT indexdef FROM pg_indexes WHERE tablename = 'vector_index_image'`);
    expect(idx.map((i) => i.indexdef).join("\n")).toMatch(/USING hnsw \(embedding vector_cosine_ops\)/);
    // A new dimension (another model) recreates the table.
    await index.upsert("image", [rec(9003, [1, 2, 3, 4, 5])]);
    expect(await index.count("image")).toBe(1);
    await expect(index.query("image", [1, 0, 0, 0], { topK: 1 })).rejects.toThrow(VectorIndexError);
    // Deleting the product deletes its vector (foreign key, cascade).
    const tmp = await db.product.create({ data: { id: gid(9100), title: "Tmp", handle: "tmp-9100" } });
    await index.upsert("image", [{ id: tmp.id, values: [1, 1, 1, 1, 1], metadata: { target_gender: "both" } }]);
    expect(await index.count("image")).toBe(2);
    await db.product.delete({ where: { id: tmp.id } });
    expect(await index.count("image")).toBe(1);
    await index.remove("image", [gid(9003)]);
  });

  it("auto picks pgvector on PGlite and exact on a PostgreSQL without the extension", async () => {
    const auto = createVectorIndex({ VECTOR_INDEX: "auto" }, app.database.db);
    expect(auto.name).toBe("auto");
    const chosen = await auto.resolve!();
    expect(chosen).toBe(isPglite() ? "pgvector" : "exact");
    expect(auto.name).toBe(chosen);
    expect(createVectorIndex({ VECTOR_INDEX: "exact" }, app.database.db).name).toBe("exact");
    if (!isPglite()) {
      const strict = createVectorIndex({ VECTOR_INDEX: "pgvector" }, app.database.db);
      await expect(strict.query("image", [1, 0], { topK: 1 })).rejects.toThrow(/no pgvector extension/);
    }
  });
});

describe("pinecone adapter specifics", () => {
  it("sends the documented requests with the headers, pads vectors to the index dimension", async () => {
    pinecone.requests.length = 0;
    const index = createPineconeIndex({ apiKey: PINECONE_TEST_KEY, host: pinecone.url, backoffMs: 5 });
    await index.upsert("image", [rec(9001), rec(9003)]);
    await index.query("image", [1, 0, 0, 0], { topK: 2, targetGenders: ["menswear", "both"], excludeIds: [gid(9002)] });
    await index.remove("image", [gid(9001), gid(9003)]);
    const byPath = (p: string) => pinecone.requests.filter((r) => r.path === p);
    for (const r of pinecone.requests) {
      expect(r.status).toBe(200);
      expect(r.headers["api-key"]).toBe(PINECONE_TEST_KEY);
      expect(r.headers["x-pinecone-api-version"]).toBe(PINECONE_API_VERSION);
    }
    expect(byPath("/describe_index_stats").length).toBe(1); // the dimension is read once
    const upsert = byPath("/vectors/upsert")[0].body;
    expect(upsert.namespace).toBe("image");
    expect(upsert.vectors[0]).toEqual({ id: gid(9001), values: [...V[9001], 0, 0, 0, 0], metadata: { target_gender: "menswear" } });
    const query = byPath("/query")[0].body;
    expect(query).toMatchObject({ topK: 3, namespace: "image", filter: { target_gender: { $in: ["menswear", "both"] } }, includeMetadata: true });
    expect(query.vector).toHaveLength(8);
    expect(byPath("/vectors/delete")[0].body).toEqual({ ids: [gid(9001), gid(9003)], namespace: "image" });
  });

  it("retries 429 and 5xx answers, and reports other errors", async () => {
    const index = createPineconeIndex({ apiKey: PINECONE_TEST_KEY, host: pinecone.url, backoffMs: 5 });
    await index.upsert("text", [rec(9001)]);
    pinecone.requests.length = 0;
    pinecone.failNext(429, 1, 1);
    pinecone.failNext(503, 1);
    const started = Date.now();
    expect((await index.query("text", [1, 0, 0, 0], { topK: 1 }))[0].id).toBe(gid(9001));
    expect(Date.now() - started).toBeGreaterThanOrEqual(900); // Retry-After: 1
    expect(pinecone.requests.map((r) => r.status)).toEqual([429, 503, 200]);

    const tooBig = index.upsert("text", [{ id: gid(9002), values: new Array(9).fill(1), metadata: { target_gender: "menswear" } }]);
    await expect(tooBig).rejects.toThrow(/does not fit the 8-dimensional Pinecone index/);

    const wrongKey = createPineconeIndex({ apiKey: "wrong", host: pinecone.url, backoffMs: 5 });
    const err = await wrongKey.count("text").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VectorIndexError);
    expect((err as VectorIndexError).status).toBe(401);
    expect((err as Error).message).toContain("Invalid API Key");

    const gone = createPineconeIndex({ apiKey: PINECONE_TEST_KEY, host: "http://127.0.0.1:9", backoffMs: 1, maxAttempts: 2 });
    await expect(gone.count("text")).rejects.toThrow(/could not be reached/);
    await index.remove("text", [gid(9001)]);
    expect(await index.count("text")).toBe(0);
  });

  it("is chosen by VECTOR_INDEX=pinecone, and the config refuses it without key and host", async () => {
    const index = createVectorIndex({ VECTOR_INDEX: "pinecone", PINECONE_API_KEY: PINECONE_TEST_KEY, PINECONE_INDEX_HOST: pinecone.url }, app.database.db);
    expect(index.name).toBe("pinecone");
    expect(() => createVectorIndex({ VECTOR_INDEX: "pinecone" }, app.database.db)).toThrow(/PINECONE_API_KEY/);
    const configured = await createTestApp({ env: { VECTOR_INDEX: "pinecone", PINECONE_API_KEY: PINECONE_TEST_KEY, PINECONE_INDEX_HOST: pinecone.url } });
    try {
      expect(configured.ctx.vectors.name).toBe("pinecone");
    } finally {
      await configured.close();
    }
  });
});
