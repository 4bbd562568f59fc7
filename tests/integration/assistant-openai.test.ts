/**
 * The assistant with LANGUAGE_MODEL=openai, against a local server speaking the chat-completions
 * protocol (no network): the NLU query and message turns use the model's JSON (validated) and
 * its phrasing, personalised collections its title and description; invalid JSON falls back to
 * the local parser, and a failing or slow model to the local model, so shoppers still get answers.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenAi, OPENAI_TEST_MODEL, type ChatRequestBody, type FakeOpenAi } from "../helpers/openai-server";
import type { TestApp } from "../helpers/app";
import { createDemoTestApp } from "../helpers/demo-template";

let app: TestApp;
let model: FakeOpenAi;

const isNlu = (b: ChatRequestBody) => b.response_format?.type === "json_object" && b.messages[0].content.includes('"intent"');
const isCopy = (b: ChatRequestBody) => b.response_format?.type === "json_object" && b.messages[0].content.includes("name personal fashion collections");

/** The fake model: NLU as JSON for the messages the tests send, a fixed phrasing, collection copy. */
function behave(body: ChatRequestBody): string {
  const last = model.lastUserMessage(body);
  if (isNlu(body)) {
    if (/denim/i.test(last)) {
      return JSON.stringify({ intent: "find_products", confidence: 0.9, slots: { colors: ["black"], productTypes: ["Jeans"], priceMax: 80 }, query: "black jeans under 80" });
    }
    return JSON.stringify({ intent: "greeting", confidence: 0.99, slots: {} });
  }
  if (isCopy(body)) return JSON.stringify({ title: "Midnight Denim", description: "Black jeans picked for you." });
  const facts = JSON.parse(last) as { products: unknown[] };
  return `I picked ${facts.products.length} pieces for you.`;
}

beforeAll(async () => {
  model = await startFakeOpenAi();
  model.reply(behave);
  app = await createDemoTestApp({
    env: { LANGUAGE_MODEL: "openai", OPENAI_API_KEY: model.apiKey, OPENAI_BASE_URL: model.baseUrl, OPENAI_MODEL: OPENAI_TEST_MODEL, OPENAI_TIMEOUT_MS: "1000" },
  });
}, 180_000);
afterAll(async () => {
  await app?.close();
  await model?.close();
});
afterEach(() => {
  model.requests.length = 0;
});

describe("LANGUAGE_MODEL=openai", () => {
  it("the app context has the hosted model", () => {
    expect(app.ctx.config.LANGUAGE_MODEL).toBe("openai");
    expect(app.ctx.languageModel.name).toBe("openai");
  });

  it("nlu-query: the model's intent and slots, in the catalogue's values", async () => {
    const { token } = await app.createUser({ authProvider: "guest" });
    const r = await app.api("POST", "/agent/nlu-query", { token, body: { query: "something in black denim, 80 max" } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ intent: "find_products", provider: "openai", query: "black jeans under 80", slots: { colors: ["black"], productTypes: ["Jeans"], priceMax: 80 } });
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0].body!.messages[0].content).toMatch(/Product types of the catalogue: .*Jeans/);
  });

  it("a message turn: products from the discovery engine with the model's slots, the model's phrasing", async () => {
    const { token } = await app.createUser();
    const id = (await app.api("POST", "/agent/conversations", { token, body: {} })).body.id;
    const r = await app.api("POST", `/agent/conversations/${id}/messages`, { token, body: { content: "something in black denim, 80 max" } });
    expect(r.status).toBe(201);
    const reply = r.body.reply;
    expect(reply.intent).toBe("find_products");
    expect(reply.products.length).toBeGreaterThan(0);
    for (const p of reply.products) {
      expect(p.productType).toBe("Jeans");
      expect(Number(p.priceRange.minVariantPrice.amount)).toBeLessThanOrEqual(80);
    }
    expect(reply.content).toBe(`I picked ${reply.products.length} pieces for you.`);
    expect(reply.suggestions).toContain("What goes with it?");
    // Two calls: understand (JSON) and reply (text, with the facts and products it may mention).
    expect(model.requests.map((q) => q.body!.response_format?.type ?? "text")).toEqual(["json_object", "text"]);
    const facts = JSON.parse(model.lastUserMessage(model.requests[1].body));
    expect(facts.products.map((p: { title: string }) => p.title)).toEqual(reply.products.map((p: { title: string }) => p.title));
    // The second turn sends the first one as history.
    await app.api("POST", `/agent/conversations/${id}/messages`, { token, body: { content: "hello" } });
    const history = model.requests[2].body!.messages.map((m) => m.role);
    expect(history).toEqual(["system", "user", "assistant", "user"]);
  });

  it("invalid JSON from the model: the local parser understands the message", async () => {
    const { token } = await app.createUser();
    model.enqueue({ content: "I think they want jeans!" });
    const r = await app.api("POST", "/agent/nlu-query", { token, body: { query: "black jeans under 80" } });
    expect(r.body).toMatchObject({ intent: "find_products", provider: "local", slots: { colors: ["black"], productTypes: ["Jeans"], priceMax: 80 } });
  });

  it("a failing model (500 after the retry): the local model answers the turn", async () => {
    const { token } = await app.createUser();
    const id = (await app.api("POST", "/agent/conversations", { token, body: {} })).body.id;
    model.failNext(500, 4);
    const r = await app.api("POST", `/agent/conversations/${id}/messages`, { token, body: { content: "black jeans under 80" } });
    expect(r.status).toBe(201);
    expect(r.body.reply.intent).toBe("find_products");
    expect(r.body.reply.products.length).toBeGreaterThan(0);
    expect(r.body.reply.content).toMatch(/^Here (are \d+ black jeans under \$80|is the one match)/);
    expect(model.requests.map((q) => q.status)).toEqual([500, 500, 500, 500]);
    const stored = await app.database.db.message.findFirstOrThrow({ where: { conversation_id: id, role: "assistant" } });
    expect((stored.metadata as { provider: unknown }).provider).toEqual({ nlu: "local", reply: "local" });
  });

  it("a slow model: the deadline passes and the local parser answers", async () => {
    const { token } = await app.createUser();
    model.enqueue({ delayMs: 1600, content: "{}" });
    const started = Date.now();
    const r = await app.api("POST", "/agent/nlu-query", { token, body: { query: "where is my order" } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ intent: "order_status", provider: "local" });
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it("personalised collection: title and description from the model", async () => {
    const { token } = await app.createUser();
    const r = await app.api("POST", "/user-collections/generate-personalized-collection", { token, body: { prompt: "black jeans" } });
    expect(r.status).toBe(201);
    expect(r.body.data).toMatchObject({ name: "Midnight Denim", description: "Black jeans picked for you.", is_ai_generated: true, prompt: "black jeans" });
    const copyRequest = model.requests.find((q) => isCopy(q.body!));
    const sent = JSON.parse(model.lastUserMessage(copyRequest!.body));
    expect(sent.products.length).toBe(r.body.data.products.length);
  });
});
