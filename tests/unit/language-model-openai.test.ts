/**
 * The OpenAI-compatible adapter against a local server speaking the chat-completions protocol
 * (tests/helpers/openai-server.ts, which checks keys, bodies and the json_object rule): intents as
 * JSON validated with zod, the local parser when the JSON is invalid, one retry on 5xx/429, a
 * deadline, clear errors, and the factory's local fallback when the hosted model fails.
 */
import { describe, expect, it } from "vitest";
import { useFakeOpenAi, OPENAI_TEST_MODEL } from "../helpers/openai-server";
import { createOpenAiLanguageModel, catalogueSlots, extractJson } from "../../app/providers/language-model/openai.server";
import { createLocalLanguageModel } from "../../app/providers/language-model/local.server";
import { withLocalFallback } from "../../app/providers/language-model/index.server";
import { LanguageModelError, emptySlots } from "../../app/providers/language-model/port";
import type { ParseContext } from "../../app/lib/query-parser";
import { typeFamily } from "../../app/services/similar-products.server";

const ctx: ParseContext = {
  colourNames: ["Black", "Navy", "White"],
  productTypes: ["Jeans", "Shirts", "Blazers", "Knitwear"],
  stores: [],
  sizes: ["S", "M", "L", "32"],
  typeFamily,
};

const server = useFakeOpenAi();
const local = createLocalLanguageModel({ vocabulary: async () => ctx });
const model = (over: Partial<Parameters<typeof createOpenAiLanguageModel>[0]> = {}) =>
  createOpenAiLanguageModel({ apiKey: server.apiKey, baseUrl: server.baseUrl, model: OPENAI_TEST_MODEL, timeoutMs: 2000, retryDelayMs: 10, local, vocabulary: async () => ctx, ...over });

const nluJson = JSON.stringify({
  intent: "find_products",
  confidence: 0.93,
  slots: { colors: ["Black"], productTypes: ["jeans", "cargo pants"], priceMax: 80, target_gender: null, text: "slim" },
  query: "black slim jeans under 80",
});


describe("OpenAI-compatible adapter", () => {
  it("understands: sends the protocol's request and keeps the catalogue's values", async () => {
    server.enqueue({ content: nluJson });
    const r = await model().understand({ message: "black slim jeans under 80", product: { id: "gid://shopify/Product/7", title: "Navy Blazer", productType: "Blazers" } });
    expect(r).toEqual({
      intent: "find_products",
      confidence: 0.93,
      // "cargo pants" is not a catalogue type: it becomes words; colours are lower-cased.
      slots: { ...emptySlots(), colors: ["black"], productTypes: ["Jeans"], priceMax: 80, text: "slim cargo pants", product_id: "gid://shopify/Product/7" },
      query: "black slim jeans under 80",
      provider: "openai",
    });
    expect(server.requests).toHaveLength(1);
    const req = server.requests[0];
    expect(req.status).toBe(200);
    expect(req.path).toBe("/v1/chat/completions");
    expect(req.headers.authorization).toBe(`Bearer ${server.apiKey}`);
    expect(req.body).toMatchObject({ model: OPENAI_TEST_MODEL, temperature: 0, response_format: { type: "json_object" } });
    const system = req.body!.messages[0];
    expect(system.role).toBe("system");
    expect(system.content).toContain("Product types of the catalogue: Jeans, Shirts, Blazers, Knitwear.");
    expect(system.content).toContain("Navy Blazer");
    expect(server.lastUserMessage(req.body)).toBe("black slim jeans under 80");
  });

  it("falls back to the local parser when the JSON is invalid or of the wrong shape", async () => {
    server.enqueue({ content: "Sure! The shopper wants black jeans." }, { content: JSON.stringify({ intent: "buy_everything", slots: {} }) });
    const a = await model().understand({ message: "black jeans under 80" });
    expect(a).toMatchObject({ intent: "find_products", provider: "local", slots: { colors: ["black"], productTypes: ["Jeans"], priceMax: 80 } });
    const b = await model().understand({ message: "where is my order?" });
    expect(b).toMatchObject({ intent: "order_status", provider: "local" });
    expect(server.requests.map((r) => r.status)).toEqual([200, 200]);
  });

  it("reads JSON wrapped in a code fence", () => {
    expect(extractJson('```json\n{"a":1}\n```')).toEqual({ a: 1 });
    expect(extractJson('Here: {"a":2} done')).toEqual({ a: 2 });
    expect(extractJson("no json")).toBeUndefined();
  });

  it("retries once on 500 and 429, then succeeds", async () => {
    server.failNext(500);
    server.enqueue({ content: nluJson });
    expect((await model().understand({ message: "black jeans" })).provider).toBe("openai");
    expect(server.requests.map((r) => r.status)).toEqual([500, 200]);

    server.requests.length = 0;
    server.enqueue({ status: 429, retryAfterSeconds: 0 }, { content: nluJson });
    expect((await model().understand({ message: "black jeans" })).provider).toBe("openai");
    expect(server.requests.map((r) => r.status)).toEqual([429, 200]);
  });

  it("gives up after one retry with the server's message, and does not retry a 400", async () => {
    server.failNext(503, 2);
    const e = await model()
      .understand({ message: "black jeans" })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(LanguageModelError);
    expect((e as LanguageModelError).message).toBe("The language model answered 503: The server had an error while processing your request.");
    expect((e as LanguageModelError).opts.status).toBe(503);
    expect(server.requests).toHaveLength(2);

    server.requests.length = 0;
    server.enqueue({ status: 400, message: "Invalid model" });
    await expect(model().understand({ message: "black jeans" })).rejects.toThrow("The language model answered 400: Invalid model");
    expect(server.requests).toHaveLength(1);
  });

  it("a wrong key is a clear error", async () => {
    await expect(model({ apiKey: "sk-wrong" }).understand({ message: "hi" })).rejects.toThrow("The language model answered 401: Incorrect API key provided");
  });

  it("times out with a clear error", async () => {
    server.enqueue({ delayMs: 1500, content: nluJson });
    const started = Date.now();
    await expect(model({ timeoutMs: 300 }).understand({ message: "black jeans" })).rejects.toThrow(/^The language model did not answer within 300 ms/);
    expect(Date.now() - started).toBeLessThan(1400);
  });

  it("an unreachable server and a body that is not a chat completion are clear errors", async () => {
    await expect(model({ baseUrl: "http://127.0.0.1:9/v1" }).understand({ message: "hi" })).rejects.toThrow(/^The language model at http:\/\/127\.0\.0\.1:9\/v1 could not be reached/);
    server.enqueue({ raw: JSON.stringify({ object: "list", data: [] }) });
    await expect(model().understand({ message: "hi" })).rejects.toThrow("The language model's answer is not a chat completion (no choices[0].message)");
  });

  it("phrases replies from the facts, keeping the deterministic suggestions", async () => {
    server.reply(() => "These black jeans from Tidewater Denim fit your budget.");
    const r = await model().reply({
      message: "black jeans under 80",
      intent: "find_products",
      slots: { ...emptySlots(), colors: ["black"], productTypes: ["Jeans"], priceMax: 80 },
      products: [{ id: "p1", title: "Slim Jean", productType: "Jeans", vendor: "Tidewater Denim", price: "72.00", currencyCode: "USD", available: true }],
      facts: { total: 1 },
    });
    expect(r).toEqual({ text: "These black jeans from Tidewater Denim fit your budget.", suggestions: ["What goes with it?", "Anything similar?", "Under $50"], provider: "openai" });
    const req = server.requests[0];
    expect(req.body!.response_format).toBeUndefined();
    const facts = JSON.parse(server.lastUserMessage(req.body));
    expect(facts.products).toEqual([{ title: "Slim Jean", type: "Jeans", vendor: "Tidewater Denim", price: "72.00 USD", inStock: true }]);
    expect(facts.draft).toMatch(/^Here is the one match for black jeans under \$80\. The Slim Jean/);
  });

  it("writes collection copy as JSON, and the template when the JSON is invalid", async () => {
    const input = { prompt: "linen shirts", target_gender: "menswear" as const, products: [{ title: "A", productType: "Shirts", vendor: "Saltmarsh" }] };
    server.enqueue({ content: JSON.stringify({ title: "Linen Days", description: "Breezy linen shirts from Saltmarsh." }) }, { content: "{not json" });
    expect(await model().describeCollection(input)).toEqual({ title: "Linen Days", description: "Breezy linen shirts from Saltmarsh.", provider: "openai" });
    expect(await model().describeCollection(input)).toMatchObject({ title: "Linen Shirts", provider: "local" });
  });

  it("the factory's fallback answers with the local model when the hosted one fails", async () => {
    server.failNext(500, 2);
    const lm = withLocalFallback(model(), local);
    expect(await lm.understand({ message: "black jeans under 80" })).toMatchObject({ intent: "find_products", provider: "local" });
    // Not every error is the model's: a programming error is not hidden.
    const throwing = withLocalFallback({ ...model(), understand: async () => Promise.reject(new TypeError("bug")) }, local);
    await expect(throwing.understand({ message: "hi" })).rejects.toThrow("bug");
  });

  it("catalogueSlots keeps known types and orders the price bounds", () => {
    const s = catalogueSlots({ colors: ["NAVY"], materials: [], productTypes: ["blazers"], sizes: ["m"], priceMin: 90, priceMax: 40, target_gender: "both", text: "" }, ctx);
    expect(s).toMatchObject({ colors: ["navy"], productTypes: ["Blazers"], sizes: ["m"], priceMin: 40, priceMax: 90, target_gender: null });
  });
});
