/**
 * The language-model port's listing translation (what the Taobao import asks): the local model's
 * glossary translation, the port's checks, and the OpenAI-compatible adapter against a local server
 * speaking the chat-completions protocol (tests/helpers/openai-server.ts): the model's JSON, the
 * glossary when the answer is unusable or still Chinese, a LanguageModelError when the server
 * fails, and the factory's fallback to the local model.
 */
import { describe, expect, it } from "vitest";
import { useFakeOpenAi, OPENAI_TEST_MODEL } from "../helpers/openai-server";
import { createOpenAiLanguageModel } from "../../app/providers/language-model/openai.server";
import { createLocalLanguageModel } from "../../app/providers/language-model/local.server";
import { createLanguageModel, withLocalFallback } from "../../app/providers/language-model/index.server";
import { LanguageModelError, type ListingTranslationInput } from "../../app/providers/language-model/port";
import { loadConfig } from "../../app/config.server";

const input: ListingTranslationInput = {
  title: "2026秋冬新款男士宽松纯棉连帽卫衣 百搭",
  description: "面料：纯棉\n洗涤：30度以下水洗",
  attributes: [{ name: "材质成分", value: "棉100%" }],
  facts: { title: "Relaxed Cotton Hoodie", gender: "menswear", material: "Cotton", composition: "100% cotton", colours: ["Black", "Navy"], sizes: ["M", "L", "XL"], attributes: [] },
};
const glossary = {
  title: "Relaxed Cotton Hoodie",
  description: ["Relaxed Cotton Hoodie for men, in cotton.", "Available in Black and Navy, sizes M to XL."],
  provider: "local",
};

const server = useFakeOpenAi();
const local = createLocalLanguageModel();
const model = (over: Partial<Parameters<typeof createOpenAiLanguageModel>[0]> = {}) =>
  createOpenAiLanguageModel({ apiKey: server.apiKey, baseUrl: server.baseUrl, model: OPENAI_TEST_MODEL, timeoutMs: 2000, retryDelayMs: 10, local, ...over });


describe("translateListing, local model (the garment glossary)", () => {
  it("answers the glossary's title and a description written from the facts, deterministically", async () => {
    expect(await local.translateListing(input)).toEqual(glossary);
    expect(await local.translateListing(input)).toEqual(await local.translateListing(input));
    const women = await local.translateListing({ ...input, facts: { ...input.facts, gender: "womenswear", material: null, colours: [], sizes: ["S"] } });
    expect(women.description).toEqual(["Relaxed Cotton Hoodie for women.", "Sizes S."]);
  });

  it("the factory gives the local model by default, and the hosted one with LANGUAGE_MODEL=openai", () => {
    // Only read for the assistant's vocabulary, which translation never asks for.
    const vocabulary = () => Promise.reject(new Error("the vocabulary is not read here"));
    expect(createLanguageModel(loadConfig({}), vocabulary).name).toBe("local");
    expect(createLanguageModel(loadConfig({ LANGUAGE_MODEL: "openai", OPENAI_API_KEY: "k" }), vocabulary).name).toBe("openai");
  });

  it("cuts long listings instead of refusing them, and refuses what is not a listing", async () => {
    const long = await local.translateListing({ ...input, description: "长".repeat(50_000), attributes: Array.from({ length: 500 }, (_, i) => ({ name: `属性${i}`, value: "值".repeat(5000) })) });
    expect(long).toEqual(glossary);
    await expect(local.translateListing({ ...input, title: "  " })).rejects.toThrow(/translateListing input is invalid: title/);
    await expect(local.translateListing({ ...input, facts: { ...input.facts, gender: "kids" as never } })).rejects.toBeInstanceOf(LanguageModelError);
  });
});

describe("translateListing, OpenAI-compatible adapter", () => {
  it("asks for JSON {title, description} with the listing and the glossary's facts; paragraphs from the lines", async () => {
    server.enqueue({ content: JSON.stringify({ title: "Relaxed Cotton Hoodie", description: "A relaxed hoodie in pure cotton.\n\nMachine wash below 30°C." }) });
    const out = await model().translateListing(input);
    expect(out).toEqual({ title: "Relaxed Cotton Hoodie", description: ["A relaxed hoodie in pure cotton.", "Machine wash below 30°C."], provider: "openai" });
    expect(server.requests).toHaveLength(1);
    const req = server.requests[0];
    expect(req.status).toBe(200);
    expect(req.body).toMatchObject({ model: OPENAI_TEST_MODEL, temperature: 0, max_tokens: 600, response_format: { type: "json_object" } });
    expect(req.body!.messages[0]).toMatchObject({ role: "system" });
    expect(req.body!.messages[0].content).toContain("translate Taobao fashion listings");
    const sent = JSON.parse(server.lastUserMessage(req.body));
    expect(sent).toEqual({
      title: input.title,
      detail: input.description,
      attributes: input.attributes,
      facts: { garment: "Relaxed Cotton Hoodie", gender: "menswear", composition: "100% cotton", colours: ["Black", "Navy"], sizes: ["M", "L", "XL"] },
    });
  });

  it("reads JSON wrapped in a code fence", async () => {
    server.enqueue({ content: '```json\n{"title": "Cotton Hoodie", "description": "Soft cotton."}\n```' });
    expect(await model().translateListing(input)).toMatchObject({ title: "Cotton Hoodie", provider: "openai" });
  });

  it("unusable JSON, the wrong shape or a title left in Chinese: the glossary's translation", async () => {
    server.enqueue(
      { content: "Sure! Here is the translation." },
      { content: JSON.stringify({ name: "Relaxed Cotton Hoodie" }) },
      { content: JSON.stringify({ title: "宽松纯棉连帽卫衣", description: "A relaxed hoodie." }) },
    );
    expect(await model().translateListing(input)).toEqual(glossary);
    expect(await model().translateListing(input)).toEqual(glossary);
    expect(await model().translateListing(input)).toEqual(glossary);
    expect(server.requests.map((r) => r.status)).toEqual([200, 200, 200]);
  });

  it("an HTTP error is a LanguageModelError (one retry on 5xx, none on 4xx), as for the other operations", async () => {
    server.failNext(500, 2);
    const e = await model()
      .translateListing(input)
      .catch((err: unknown) => err);
    expect(e).toBeInstanceOf(LanguageModelError);
    expect((e as LanguageModelError).opts).toMatchObject({ status: 500, retryable: true });
    expect(server.requests.map((r) => r.status)).toEqual([500, 500]);

    server.requests.length = 0;
    await expect(model({ apiKey: "sk-wrong" }).translateListing(input)).rejects.toThrow(/answered 401: Incorrect API key provided/);
    expect(server.requests.map((r) => r.status)).toEqual([401]);
  });

  it("a deadline and an unreachable server are LanguageModelErrors too", async () => {
    server.enqueue({ delayMs: 500, content: "{}" });
    await expect(model({ timeoutMs: 100 }).translateListing(input)).rejects.toThrow(/did not answer within 100 ms/);
    await expect(model({ baseUrl: "http://127.0.0.1:9/v1" }).translateListing(input)).rejects.toBeInstanceOf(LanguageModelError);
  });

  it("the factory's fallback answers with the glossary when the hosted model fails, and says so", async () => {
    server.failNext(503, 2);
    const lm = withLocalFallback(model(), local);
    expect(await lm.translateListing(input)).toEqual(glossary);
    // Not every error is the model's: a programming error is not hidden.
    const throwing = withLocalFallback({ ...model(), translateListing: async () => Promise.reject(new TypeError("bug")) }, local);
    await expect(throwing.translateListing(input)).rejects.toThrow("bug");
  });
});
