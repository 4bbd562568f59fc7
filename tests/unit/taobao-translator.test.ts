/**
 * Title and description translation of imports: the glossary translator, and the hosted one
 * against a local OpenAI-compatible server (tests/helpers/openai-server.ts), falling back to the
 * glossary whenever the model fails.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOpenAiTranslator, createTranslator, localTranslator, type TranslateInput } from "../../app/providers/taobao/translator.server";
import { loadConfig } from "../../app/config.server";
import { startFakeOpenAi, OPENAI_TEST_MODEL, type FakeOpenAi } from "../helpers/openai-server";

const input: TranslateInput = {
  title: "2026秋冬新款男士宽松纯棉连帽卫衣 百搭",
  description: "面料：纯棉\n洗涤：30度以下水洗",
  attributes: [{ name: "材质成分", value: "棉100%" }],
  facts: { title: "Relaxed Cotton Hoodie", gender: "menswear", material: "Cotton", composition: "100% cotton", colours: ["Black", "Navy"], sizes: ["M", "L", "XL"], attributes: [] },
};

let fake: FakeOpenAi;
beforeAll(async () => {
  fake = await startFakeOpenAi();
});
afterAll(() => fake?.close());

describe("translation of imported items", () => {
  it("the glossary: the title read from the words, the description from the facts", async () => {
    expect(await localTranslator.translate(input)).toEqual({
      title: "Relaxed Cotton Hoodie",
      description: ["Relaxed Cotton Hoodie for men, in cotton.", "Available in Black and Navy, sizes M to XL."],
      provider: "local",
    });
    expect(createTranslator(loadConfig({})).name).toBe("local");
    expect(createTranslator(loadConfig({ LANGUAGE_MODEL: "openai", OPENAI_API_KEY: "k" })).name).toBe("openai");
  });

  it("a hosted model answers JSON {title, description}", async () => {
    fake.reply(() => JSON.stringify({ title: "Relaxed Cotton Hoodie", description: "A relaxed hoodie in pure cotton.\nMachine wash below 30°C." }));
    const t = createOpenAiTranslator({ apiKey: fake.apiKey, baseUrl: fake.baseUrl, model: OPENAI_TEST_MODEL, timeoutMs: 5000 });
    const out = await t.translate(input);
    expect(out).toEqual({ title: "Relaxed Cotton Hoodie", description: ["A relaxed hoodie in pure cotton.", "Machine wash below 30°C."], provider: "openai" });
    const req = fake.requests.at(-1)!;
    expect(req.status).toBe(200);
    expect(req.body?.response_format).toEqual({ type: "json_object" });
    expect(fake.lastUserMessage(req.body)).toContain("2026秋冬新款男士宽松纯棉连帽卫衣");
  });

  it("falls back to the glossary on an HTTP error, unusable JSON or a title left in Chinese", async () => {
    const t = createOpenAiTranslator({ apiKey: fake.apiKey, baseUrl: fake.baseUrl, model: OPENAI_TEST_MODEL, timeoutMs: 5000 });
    fake.failNext(500);
    expect((await t.translate(input)).provider).toBe("local");
    fake.reply(() => "Sure! Here is the translation.");
    expect((await t.translate(input)).provider).toBe("local");
    fake.reply(() => JSON.stringify({ title: "宽松纯棉连帽卫衣", description: "..." }));
    expect(await t.translate(input)).toMatchObject({ title: "Relaxed Cotton Hoodie", provider: "local" });
    const wrongKey = createOpenAiTranslator({ apiKey: "sk-wrong", baseUrl: fake.baseUrl, model: OPENAI_TEST_MODEL, timeoutMs: 5000 });
    expect((await wrongKey.translate(input)).provider).toBe("local");
  });
});
