/**
 * The HTTP Taobao source against a local server speaking the item API (tests/helpers/taobao-server.ts):
 * request shapes, the key, retries on 5xx / 429 (Retry-After) / timeouts, 401 and 404 not retried,
 * malformed answers, the rate limit, images; then a whole import through it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpTaobao, createRateLimiter } from "../../app/providers/taobao/http.server";
import { TaobaoSourceError } from "../../app/providers/taobao/port";
import { loadConfig } from "../../app/config.server";
import { createTaobaoSource } from "../../app/providers/taobao/index.server";
import { createTestApp, type TestApp } from "../helpers/app";
import { startFakeTaobao, TAOBAO_TEST_KEY, type FakeTaobao } from "../helpers/taobao-server";
import { DEMO_ITEM, drain, seedStores } from "./taobao-fixtures";

let fake: FakeTaobao;
beforeAll(async () => {
  fake = await startFakeTaobao();
});
afterAll(() => fake?.close());

const sleeps: number[] = [];
const adapter = (o: Partial<Parameters<typeof createHttpTaobao>[0]> = {}) =>
  createHttpTaobao({
    baseUrl: `${fake.baseUrl}/`,
    apiKey: TAOBAO_TEST_KEY,
    timeoutMs: 2000,
    retries: 2,
    // No spacing between calls here ("spaces requests to the rate limit" tests it): the recorded
    // sleeps are then the retries' backoffs only, however fast or slow the machine is.
    ratePerSecond: Number.POSITIVE_INFINITY,
    imagePolicy: { allowAddress: () => true },
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...o,
  });

async function failure(p: Promise<unknown>): Promise<TaobaoSourceError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(TaobaoSourceError);
    return e as TaobaoSourceError;
  }
  throw new Error("expected a failure");
}

describe("HTTP Taobao source", () => {
  it("GET /item_get?num_iid= with the key as a bearer token, parsed into an item", async () => {
    fake.requests.length = 0;
    const item = await adapter().getItem(DEMO_ITEM);
    expect(fake.requests[0]).toMatchObject({ method: "GET", path: "/item_get", query: { num_iid: DEMO_ITEM }, authorization: `Bearer ${TAOBAO_TEST_KEY}`, accept: "application/json" });
    expect(item).toMatchObject({ id: DEMO_ITEM, title: "2026春夏新款男廓形真丝衬衫 百搭", priceCny: 269, shop: { id: "106512345" } });
    expect(item.skuProperties.map((p) => p.name)).toEqual(["颜色分类", "尺码"]);
    expect(item.skus.length).toBeGreaterThan(10);
    expect(item.images[0].startsWith(`${fake.baseUrl}/img/`)).toBe(true);
  });

  it("lists a page of a shop", async () => {
    const page = await adapter().listShopItems("106512345", 1);
    expect(fake.requests.at(-1)).toMatchObject({ path: "/item_search_shop", query: { shop_id: "106512345", page: "1" } });
    expect(page).toMatchObject({ shopId: "106512345", page: 1 });
    expect(page.itemIds.length).toBeGreaterThan(0);
  });

  it("404 and error_code item-not-found are not_found, not retried", async () => {
    fake.requests.length = 0;
    const e = await failure(adapter().getItem("720000000001"));
    expect(e).toMatchObject({ code: "not_found", message: "The Taobao item was not found" });
    expect(e.retryable).toBe(false);
    expect(fake.requests).toHaveLength(1);
    fake.rawNext(JSON.stringify({ error: "item not found", error_code: "item-not-found" }));
    expect((await failure(adapter().getItem(DEMO_ITEM))).code).toBe("not_found");
  });

  it("retries 5xx within the call with backoff, then succeeds", async () => {
    fake.requests.length = 0;
    sleeps.length = 0;
    fake.failNext(503, 2);
    const item = await adapter().getItem(DEMO_ITEM);
    expect(item.id).toBe(DEMO_ITEM);
    expect(fake.requests.map((r) => r.status)).toEqual([503, 503, 200]);
    expect(sleeps).toHaveLength(2);
    expect(sleeps[1]).toBeGreaterThan(sleeps[0]); // exponential
  });

  it("gives up after the retries with a retryable error (the job backs off)", async () => {
    fake.requests.length = 0;
    fake.failNext(502, 3);
    const e = await failure(adapter().getItem(DEMO_ITEM));
    expect(e).toMatchObject({ code: "unavailable", message: "The Taobao item API failed (HTTP 502)" });
    expect(e.retryable).toBe(true);
    expect(fake.requests).toHaveLength(3);
  });

  it("honours Retry-After on 429", async () => {
    sleeps.length = 0;
    fake.failNext(429, 1, 3);
    await adapter().getItem(DEMO_ITEM);
    expect(sleeps).toEqual([3000]);
  });

  it("times out a slow answer and retries", async () => {
    fake.requests.length = 0;
    fake.delayNext(800, 3);
    const e = await failure(adapter({ timeoutMs: 200 }).getItem(DEMO_ITEM));
    expect(e).toMatchObject({ code: "unavailable", message: "The Taobao item API did not answer within 200 ms" });
    expect(e.retryable).toBe(true);
    fake.delayNext(800, 1);
    expect((await adapter({ timeoutMs: 200 }).getItem(DEMO_ITEM)).id).toBe(DEMO_ITEM);
  });

  it("a wrong key is unauthorised and not retried", async () => {
    fake.requests.length = 0;
    const e = await failure(adapter({ apiKey: "wrong" }).getItem(DEMO_ITEM));
    expect(e).toMatchObject({ code: "unauthorised" });
    expect(e.message).toContain("check TAOBAO_API_KEY");
    expect(e.retryable).toBe(false);
    expect(fake.requests).toHaveLength(1);
  });

  it("a malformed answer or an incomplete item is invalid_item", async () => {
    fake.rawNext("<html>oops</html>");
    expect(await failure(adapter().getItem(DEMO_ITEM))).toMatchObject({ code: "invalid_item", message: "The Taobao item API answered something that is not JSON" });
    fake.rawNext(JSON.stringify({ item: { num_iid: "1", price: "10" } }));
    const e = await failure(adapter().getItem(DEMO_ITEM));
    expect(e.code).toBe("invalid_item");
    expect(e.message).toBe("The Taobao item is incomplete: missing title, pic_url, nick");
  });

  it("spaces requests to the rate limit", async () => {
    const t0 = Date.now();
    const a = createHttpTaobao({ baseUrl: fake.baseUrl, apiKey: TAOBAO_TEST_KEY, ratePerSecond: 20, retries: 0 });
    await Promise.all([1, 2, 3, 4, 5].map(() => a.getItem(DEMO_ITEM)));
    expect(Date.now() - t0).toBeGreaterThanOrEqual(190); // 5 requests at 20/s: the 5th waits 200 ms
    // The limiter alone: slots 50 ms apart.
    const waits: number[] = [];
    let now = 1000;
    const slot = createRateLimiter(20, async (ms) => {
      waits.push(ms);
    }, () => now);
    await slot();
    await slot();
    await slot();
    now += 10;
    await slot();
    expect(waits).toEqual([50, 100, 140]);
  });

  it("downloads images; a 404 is final, a 503 retried, private addresses refused by default", async () => {
    const item = await adapter().getItem(DEMO_ITEM);
    const img = await adapter().fetchImage(item.images[0]);
    expect([...img.bytes.slice(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    const missing = await failure(adapter().fetchImage(`${fake.baseUrl}/img/${encodeURIComponent("https://img.alicdn.com/none.jpg")}`));
    expect(missing).toMatchObject({ code: "image_failed", message: "An image of the item could not be downloaded (HTTP 404)" });
    expect(missing.retryable).toBe(false);
    fake.failNext(503, 3);
    const down = await failure(adapter().fetchImage(item.images[0]));
    expect(down.message).toBe("An image of the item could not be downloaded (HTTP 503)");
    expect(down.retryable).toBe(true);
    const guarded = createHttpTaobao({ baseUrl: fake.baseUrl, apiKey: TAOBAO_TEST_KEY });
    const refused = await failure(guarded.fetchImage(item.images[0]));
    expect(refused.retryable).toBe(false);
    expect(refused.message).toContain("not a public address");
  });

  it("is chosen by TAOBAO_ADAPTER=http, which needs the URL and the key", () => {
    expect(() => loadConfig({ TAOBAO_ADAPTER: "http" })).toThrow(/TAOBAO_API_URL is required when TAOBAO_ADAPTER=http[\s\S]*TAOBAO_API_KEY is required/);
    expect(() => loadConfig({ TAOBAO_ADAPTER: "http", TAOBAO_API_URL: "ftp://x", TAOBAO_API_KEY: "k" })).toThrow(/TAOBAO_API_URL must be an http\(s\) URL/);
    expect(createTaobaoSource(loadConfig({ TAOBAO_ADAPTER: "http", TAOBAO_API_URL: fake.baseUrl, TAOBAO_API_KEY: "k" })).kind).toBe("http");
    expect(createTaobaoSource(loadConfig({})).kind).toBe("local");
  });
});

describe("an import through the HTTP source", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ env: { TAOBAO_ADAPTER: "http", TAOBAO_API_URL: fake.baseUrl, TAOBAO_API_KEY: TAOBAO_TEST_KEY } });
    // The fake serves images from 127.0.0.1, which the default policy refuses (SSRF guard).
    app.ctx.taobao = createHttpTaobao({ baseUrl: fake.baseUrl, apiKey: TAOBAO_TEST_KEY, imagePolicy: { allowAddress: () => true } });
  });
  afterAll(() => app?.close());

  it("creates the product; a source outage is retried by the job", async () => {
    const { menswear } = await seedStores(app);
    const admin = await app.createUser({ role: "ADMIN", permissions: ["catalog.import"] });
    fake.failNext(503, 3); // the whole first call fails
    const r = await app.api("POST", "/shopify/admin/products", { token: admin.token, body: { taobao_product_id: DEMO_ITEM, store_id: menswear.id } });
    await drain(app);
    let j = (await app.api("GET", `/shopify/admin/products/import-jobs/${r.body.jobs[0].id}`, { token: admin.token })).body;
    expect(j).toMatchObject({ status: "queued", attempts: 1, error_message: "The Taobao item API failed (HTTP 503)" });
    await app.database.db.job.updateMany({ where: { status: "queued" }, data: { run_at: new Date(Date.now() - 1000) } });
    await drain(app);
    j = (await app.api("GET", `/shopify/admin/products/import-jobs/${r.body.jobs[0].id}`, { token: admin.token })).body;
    expect(j).toMatchObject({ status: "completed", attempts: 2 });
    expect(j.result).toMatchObject({ action: "created", title: "Boxy Silk Shirt" });
    const p = (await app.api("GET", `/products/taobao-id/${DEMO_ITEM}`)).body;
    expect(p.images.length).toBeGreaterThan(2);
  });
});
