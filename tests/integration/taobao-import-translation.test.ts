/**
 * The Taobao import's translation step with LANGUAGE_MODEL=openai, against a local server speaking
 * the chat-completions protocol (tests/helpers/openai-server.ts; no network): the hosted model's
 * title and description reach the product, the Chinese title stays in the companion, and whenever
 * the model fails (HTTP errors, unusable JSON, a title left in Chinese, a model without the
 * factory's fallback) the item is still imported with the glossary's translation.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createOpenAiLanguageModel } from "../../app/providers/language-model/openai.server";
import { createLocalLanguageModel } from "../../app/providers/language-model/local.server";
import { LanguageModelError, type LanguageModelPort } from "../../app/providers/language-model/port";
import { startFakeOpenAi, OPENAI_TEST_MODEL, type ChatRequestBody, type FakeOpenAi } from "../helpers/openai-server";
import { createTestApp, type TestApp } from "../helpers/app";
import { DEMO_ITEM, drain, seedStores } from "./taobao-fixtures";

let app: TestApp;
let model: FakeOpenAi;
let admin: { token: string };
let stores: Awaited<ReturnType<typeof seedStores>>;
let configured: LanguageModelPort;
const BASE = "/shopify/admin/products";

const isTranslation = (b: ChatRequestBody) => b.messages[0].content.includes("translate Taobao fashion listings");
const hosted = JSON.stringify({ title: "Oversized Pure Silk Shirt", description: "A boxy shirt in pure mulberry silk.\n\nIn stone, sky blue and rust, sizes M to XXXL." });

beforeAll(async () => {
  model = await startFakeOpenAi();
  model.reply((b) => (isTranslation(b) ? hosted : "OK"));
  app = await createTestApp({
    env: { LANGUAGE_MODEL: "openai", OPENAI_API_KEY: model.apiKey, OPENAI_BASE_URL: model.baseUrl, OPENAI_MODEL: OPENAI_TEST_MODEL, OPENAI_TIMEOUT_MS: "2000" },
  });
  configured = app.ctx.languageModel;
  admin = await app.createUser({ role: "ADMIN", permissions: ["catalog.import", "catalog.edit"] });
  stores = await seedStores(app);
}, 120_000);
afterAll(async () => {
  await app?.close();
  await model?.close();
});
afterEach(() => {
  model.requests.length = 0;
  model.reply((b) => (isTranslation(b) ? hosted : "OK"));
  app.ctx.languageModel = configured;
});

async function importOne(taobaoId: string) {
  const r = await app.api("POST", BASE, { token: admin.token, body: { taobao_product_id: taobaoId, store_id: stores.menswear.id, store_name: stores.menswear.name } });
  expect(r.status, JSON.stringify(r.body)).toBe(202);
  await drain(app);
  const j = (await app.api("GET", `${BASE}/import-jobs/${r.body.jobs[0].id}`, { token: admin.token })).body;
  expect(j, JSON.stringify(j)).toMatchObject({ status: "completed", error_message: null });
  const product = await app.database.db.product.findUniqueOrThrow({ where: { id: j.product_id }, select: { title: true, descriptionHtml: true } });
  const companion = await app.database.db.productCompanion.findUniqueOrThrow({ where: { taobao_id: taobaoId }, select: { taobao_title: true } });
  return { job: j, product, companion };
}

describe("translation through the language model (LANGUAGE_MODEL=openai)", () => {
  it("the hosted model's title and paragraphs make the product; the original title stays in taobao_title", async () => {
    const { job, product, companion } = await importOne(DEMO_ITEM);
    expect(job.result).toMatchObject({ title: "Oversized Pure Silk Shirt", translation: "openai", taobao_title: "2026春夏新款男廓形真丝衬衫 百搭" });
    expect(product.title).toBe("Oversized Pure Silk Shirt");
    expect(product.descriptionHtml).toContain("<p>A boxy shirt in pure mulberry silk.</p>\n<p>In stone, sky blue and rust, sizes M to XXXL.</p>");
    expect(companion.taobao_title).toBe("2026春夏新款男廓形真丝衬衫 百搭");

    const calls = model.requests.filter((r) => r.body && isTranslation(r.body));
    expect(calls).toHaveLength(1);
    expect(calls[0].status).toBe(200);
    expect(calls[0].body).toMatchObject({ model: OPENAI_TEST_MODEL, temperature: 0, response_format: { type: "json_object" } });
    const sent = JSON.parse(model.lastUserMessage(calls[0].body)) as { title: string; facts: { garment: string; gender: string; sizes: string[] } };
    // The model gets the Chinese listing and the glossary's facts it may not contradict.
    expect(sent.title).toBe("2026春夏新款男廓形真丝衬衫 百搭");
    expect(sent.facts).toMatchObject({ garment: "Boxy Silk Shirt", gender: "menswear", sizes: ["M", "L", "XL", "XXL", "XXXL"] });
  });

  it("a hosted model that is down (errors after the retry) costs the item its hosted copy, not the import", async () => {
    model.failNext(500, 2);
    const { job, product } = await importOne("720394024757");
    expect(job.result.translation).toBe("local");
    expect(product.title).not.toMatch(/[\u3400-\u9fff]/);
    expect(product.title).toBe(job.result.title);
    expect(model.requests.map((r) => r.status)).toEqual([500, 500]);
  });

  it("an unusable answer or a title left in Chinese: the glossary's translation", async () => {
    model.enqueue({ content: "Sure! Here is your translation." });
    const a = await importOne("720394048514");
    expect(a.job.result.translation).toBe("local");
    expect(a.product.title).not.toMatch(/[\u3400-\u9fff]/);

    model.enqueue({ content: JSON.stringify({ title: "短款灯芯绒夹克", description: "A cropped corduroy jacket." }) });
    const b = await importOne("720394064352");
    expect(b.job.result.translation).toBe("local");
    expect(b.product.title).not.toMatch(/[\u3400-\u9fff]/);
    expect(b.product.descriptionHtml).not.toContain("A cropped corduroy jacket.");
  });

  it("the import falls back by itself when the model it is given throws (no factory fallback around it)", async () => {
    // The bare hosted adapter throws LanguageModelError on HTTP errors; the pipeline must not fail the job for it.
    app.ctx.languageModel = createOpenAiLanguageModel({
      apiKey: "sk-wrong",
      baseUrl: model.baseUrl,
      model: OPENAI_TEST_MODEL,
      timeoutMs: 2000,
      local: createLocalLanguageModel(),
    });
    await expect(app.ctx.languageModel.translateListing({ title: "衬衫", facts: { title: "Shirt", gender: "both", material: null, composition: null, colours: [], sizes: [], attributes: [] } })).rejects.toBeInstanceOf(
      LanguageModelError,
    );
    const { job } = await importOne("720394088109");
    expect(job.result.translation).toBe("local");
    expect(model.requests.every((r) => r.status === 401)).toBe(true);
  });
});
