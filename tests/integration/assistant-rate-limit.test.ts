/**
 * Per-user budget of language-model work (assistant messages, NLU queries, personalised
 * collections): one budget per caller across those endpoints, 429 with Retry-After and a clear
 * message when spent, other callers unaffected, other assistant endpoints not counted.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app";

let app: TestApp;

beforeAll(async () => {
  app = await createTestApp({ languageRateLimit: { points: 4, durationSeconds: 60 } });
}, 120_000);
afterAll(() => app?.close());

describe("rate limit of language-model work", () => {
  it("shares one budget per user across messages, nlu-query and personalised collections; 429 with Retry-After; another user is not affected", async () => {
    const a = await app.createUser({ firstName: "Ada" });
    const b = await app.createUser({ firstName: "Bea" });
    const conv = await app.api("POST", "/agent/conversations", { token: a.token, body: {} });
    expect(conv.status).toBe(201);

    expect((await app.api("POST", "/agent/nlu-query", { token: a.token, body: { query: "red dress under $80" } })).status).toBe(200);
    expect((await app.api("POST", `/agent/conversations/${conv.body.id}/messages`, { token: a.token, body: { content: "hello" } })).status).toBe(201);
    // An empty catalogue: nothing matches (422), but the work was done and counts.
    expect((await app.api("POST", "/user-collections/generate-personalized-collection", { token: a.token, body: { prompt: "summer linen" } })).status).not.toBe(429);
    expect((await app.api("POST", "/users/personalized-collection", { token: a.token, body: { prompt: "summer linen" } })).status).not.toBe(429);

    for (const [path, body] of [
      ["/agent/nlu-query", { query: "blue jeans" }],
      [`/agent/conversations/${conv.body.id}/messages`, { content: "show me jackets" }],
      ["/user-collections/generate-personalized-collection", { prompt: "office wear" }],
      ["/users/personalized-collection", { prompt: "office wear" }],
    ] as const) {
      const refused = await app.api("POST", path, { token: a.token, body });
      expect(refused.status, path).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(refused.body.error.code).toBe("rate_limited");
      expect(refused.body.error.message).toMatch(/^Too many assistant requests, please wait \d+ seconds? and try again$/);
    }
    // The refused message was not stored.
    const messages = await app.api("GET", `/agent/conversations/${conv.body.id}/messages`, { token: a.token });
    expect(messages.status).toBe(200);
    expect(messages.body.items.map((m: { content: string }) => m.content)).not.toContain("show me jackets");

    // Reading and creating conversations is not language-model work.
    expect((await app.api("GET", "/agent/conversations/active", { token: a.token })).status).toBe(200);
    expect((await app.api("POST", "/agent/conversations", { token: a.token, body: {} })).status).toBe(201);

    // Another user has a budget of their own.
    expect((await app.api("POST", "/agent/nlu-query", { token: b.token, body: { query: "red dress" } })).status).toBe(200);
    const convB = await app.api("POST", "/agent/conversations", { token: b.token, body: {} });
    expect((await app.api("POST", `/agent/conversations/${convB.body.id}/messages`, { token: b.token, body: { content: "hello" } })).status).toBe(201);
  });

  it("the OpenAPI document shows the 429 of the limited endpoints only", async () => {
    const doc = await app.api("GET", "/openapi.json");
    expect(doc.status).toBe(200);
    expect(doc.body.paths["/agent/nlu-query"].post.responses["429"]).toBeDefined();
    expect(doc.body.paths["/agent/conversations/{id}/messages"].post.responses["429"]).toBeDefined();
    expect(doc.body.paths["/user-collections/generate-personalized-collection"].post.responses["429"]).toBeDefined();
    expect(doc.body.paths["/users/personalized-collection"].post.responses["429"]).toBeDefined();
    expect(doc.body.paths["/agent/conversations"].post.responses["429"]).toBeUndefined();
  });
});
